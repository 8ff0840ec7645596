"""The help screen: every key and mouse button, read from the bindings so it cannot drift."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from mines.tui.language import _

MOUSE = [
    (_("left click"), _("reveal a cell; on a number, chord")),
    (_("right click"), _("flag or unflag")),
    (_("middle click"), _("chord: open around a number whose mines are all flagged")),
]

_KEY_NAMES = {
    "question_mark": "?",
    "space": "space",
    "pageup": _("PgUp"),
    "pagedown": _("PgDn"),
    "ctrl+c": _("Ctrl-C"),
    "ctrl+r": _("Ctrl-R"),
    "full_stop": ".",
    "comma": ",",
    "plus": "+",
    "equals_sign": "=",
    "minus": "-",
}


def key_lines(bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """(keys, what they do) for each binding, keys as a player types them; keys bound twice
    (to actions for different moments) are listed once, by their first binding."""
    lines = []
    listed: set[str] = set()
    for binding in bindings:
        if not isinstance(binding, Binding):
            continue
        keys = [_KEY_NAMES.get(key.strip(), key.strip()) for key in binding.key.split(",")]
        if listed.issuperset(keys):
            continue  # a second binding of the same keys (u elsewhere than in practice)
        listed.update(keys)
        lines.append((" ".join(keys), binding.tooltip or binding.description))
    return lines


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; any of escape, q, F1 or i closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,i", "close", _("Close"))]

    def __init__(
        self, sections: list[tuple[str, list[tuple[str, str]]]], *, message: str = ""
    ) -> None:
        """`message`: the game's last message, whole (its line may show only the start)."""
        super().__init__()
        self._sections = sections
        self._message = message

    def compose(self) -> ComposeResult:
        text = []
        if self._message:
            # Wrapped to the box: its border, padding and indent take 8 columns.
            width = max(20, min(72, self.app.size.width - 8))
            said = textwrap.fill(self._message, width, initial_indent="  ", subsequent_indent="  ")
            text += [f"[b]{_('Last message')}[/b]", escape(said), ""]
        for title, lines in self._sections:
            text.append(f"[b]{title}[/b]")
            text += [f"  [b]{keys:<16}[/b] {what}" for keys, what in lines]
            text.append("")
        text.append(_("escape closes this help; scroll for more"))
        with VerticalScroll(id="help"):
            yield Static("\n".join(text), markup=True)

    def action_close(self) -> None:
        self.dismiss(None)
