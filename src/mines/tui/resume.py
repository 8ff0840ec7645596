"""`ResumeScreen`: the games left unfinished, newest first, to go on with one or start afresh."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from mines.tui.language import _
from mines.tui.store import Unfinished
from mines.tui.words import describe_kept, plural

FRESH = "fresh"
"""The id of the option that starts the new game instead."""


class ResumeScreen(ModalScreen[Unfinished | None]):
    """Offers the games kept unfinished (the newest highlighted) and a new game; dismissed
    with the game chosen, or None for the new one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "fresh", _("New game")),
        Binding("x,delete", "forget", _("Forget the highlighted game")),
    ]

    def __init__(
        self, games: list[Unfinished], *, fresh: str, forget: Callable[[Path], bool]
    ) -> None:
        """`fresh` names the new game; `forget` deletes a kept game's file (False when
        another terminal plays it)."""
        super().__init__()
        self._games = {str(i): game for i, game in enumerate(games)}
        self._fresh = fresh
        self._forget = forget
        self._forgetting: str | None = None

    def compose(self) -> ComposeResult:
        options = [
            Option(describe_kept(game.saved.record, game.saved.saved_at), id=key)
            for key, game in self._games.items()
        ]
        options.append(
            Option(_("Start a new game instead: {fresh}").format(fresh=self._fresh), id=FRESH)
        )
        with Vertical(id="resume"):
            yield Static(self._title(), id="resume-title")
            yield OptionList(*options, markup=False, id="resume-list")
            yield Static(
                _(
                    "enter goes on with the game highlighted · n or escape starts the new game · "
                    "x forgets the game highlighted"
                ),
                id="resume-keys",
            )

    def _title(self) -> str:
        count = plural(len(self._games), "{n} game", "{n} games")
        return _("{count} left unfinished, newest first: go on with one?").format(count=count)

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        key = event.option.id
        self.dismiss(None if key == FRESH or key is None else self._games[key])

    def action_fresh(self) -> None:
        self.dismiss(None)

    def action_forget(self) -> None:
        """Forget the game highlighted, at the second press (the first says what it does)."""
        options = self.query_one(OptionList)
        index = options.highlighted
        if index is None:
            return
        key = options.get_option_at_index(index).id
        if key is None or key == FRESH:
            return
        title = self.query_one("#resume-title", Static)
        if self._forgetting != key:
            self._forgetting = key
            title.update(_("Press x again to forget this game for good (up or down keeps it)."))
            return
        self._forgetting = None
        if not self._forget(self._games[key].path):
            title.update(_("That game is being played in another terminal: it is left alone."))
            return
        del self._games[key]
        options.remove_option(key)
        if not self._games:
            self.dismiss(None)
            return
        title.update(self._title())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Moving to another game takes back a first x."""
        if self._forgetting is not None and event.option.id != self._forgetting:
            self._forgetting = None
            self.query_one("#resume-title", Static).update(self._title())
