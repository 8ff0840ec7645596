"""The footer on a narrow terminal: the keys that work now, each shown whole, as many as fit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

PRIORITY = (
    "help",
    "quit",
    "open",
    "flag",
    "hint",
    "pause",
    "undo",
    "find",
    "redo",
    "new_game",
    "preset",
    "next_theme",
)
"""Which keys stay when not all fit, first to last: help is never dropped, as it lists all."""
GAP = "  "


@dataclass(frozen=True)
class KeyItem:
    """One entry: the keys as shown ("?", "123") and what they do ("Hint", "Size")."""

    action: str
    keys: str
    description: str

    @property
    def width(self) -> int:
        return len(self.keys) + 1 + len(self.description)


def key_items(
    active: Mapping[str, tuple[Any, Binding, bool, str]], display: Callable[[Binding], str]
) -> list[KeyItem]:
    """The entries of the footer, in its order: the bindings shown and enabled now, one per
    action, a group of bindings (the sizes) as one entry, as Textual's footer makes them."""
    items: list[KeyItem] = []
    seen: set[str] = set()
    groups: dict[str, int] = {}
    for _node, binding, enabled, _tooltip in active.values():
        if not (binding.show and enabled) or binding.action in seen:
            continue
        seen.add(binding.action)
        name = binding.action.split("(")[0]
        if binding.group is not None:
            title = binding.group.description
            if title in groups:
                at = groups[title]
                items[at] = KeyItem(name, items[at].keys + display(binding), title)
                continue
            groups[title] = len(items)
            items.append(KeyItem(name, display(binding), title))
            continue
        items.append(KeyItem(name, display(binding), binding.description))
    return items


def fit(items: list[KeyItem], width: int) -> list[KeyItem]:
    """As many whole entries as fit in `width`, chosen by `PRIORITY`, kept in their order."""
    rank = {action: i for i, action in enumerate(PRIORITY)}
    chosen: set[int] = set()
    used = 0
    for i in sorted(range(len(items)), key=lambda i: rank.get(items[i].action, len(PRIORITY))):
        extra = items[i].width + (len(GAP) if chosen else 0)
        if used + extra <= width:
            chosen.add(i)
            used += extra
    return [item for i, item in enumerate(items) if i in chosen]


class KeyLine(Static):
    """Stands in for the footer when the terminal is too narrow for all of it: Textual's
    footer would cut its last entries in the middle ("u Un")."""

    DEFAULT_CSS = """
    KeyLine {
        display: none;  /* shown by the app in place of the footer on a narrow terminal */
        dock: bottom;  /* where the footer is, so that swapping them moves nothing */
        height: 1;
        padding: 0 1;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.show_keys)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.show_keys)

    def on_resize(self, event: events.Resize) -> None:
        self.show_keys()

    def show_keys(self) -> None:
        items = key_items(self.screen.active_bindings, self.app.get_key_display)
        self.items = fit(items, self.content_region.width)
        line = Text()
        for item in self.items:
            if line:
                line.append(GAP)
            line.append(item.keys, style="bold")
            line.append(f" {item.description}")
        self.update(line)
