"""`ReplayApp`: a saved game played back move by move on a read-only board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.timer import Timer
from textual.widgets import Footer, Static

from mines.game import Game
from mines.record import GameRecord, TimedMove
from mines.replay import replay_steps
from mines.tui.board import Board
from mines.tui.language import _
from mines.tui.themes import Theme
from mines.tui.words import describe, state_word

MIN_DELAY, MAX_DELAY = 0.01, 10.0
"""The fastest and slowest playback: seconds between moves."""


class ReplayApp(App[None]):
    """Steps through a record: forward on the same game, backward by replaying from the start."""

    CSS_PATH = "mines.tcss"
    TITLE = "mines replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_play", _("Play/stop"), priority=True),
        # Textual names the keys "." and "," full_stop and comma.
        Binding("n,full_stop", "step(1)", _("Next move"), priority=True),
        Binding("b,comma", "step(-1)", _("Back"), priority=True),
        # Home and End would move the board's cursor: the replay's own keys come first.
        Binding("home,g", "jump(0)", _("Start"), priority=True),
        Binding("end,G", "jump(1)", _("End"), priority=True),
        Binding("plus,equals_sign", "speed(2)", _("Faster"), key_display="+", priority=True),
        Binding("minus", "speed(0.5)", _("Slower"), key_display="-", priority=True),
        Binding("q,ctrl+c", "quit", _("Quit"), priority=True),
    ]

    def __init__(self, record: GameRecord, theme: Theme, *, delay: float = 0.5) -> None:
        super().__init__()
        self.record = record
        self.step = 0
        self._theme = theme
        self._delay = delay
        self._steps: Iterator[tuple[Game, TimedMove]] = iter(())
        self._timer: Timer | None = None
        self._last: TimedMove | None = None
        """The move last shown, for the header."""

    def _blank(self) -> Game:
        return Game(self.record.rows, self.record.cols, self.record.mines)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Middle(id="middle"), Center():
            yield Board(self._blank(), self._theme, read_only=True, id="board")
        yield Static(
            _(
                "space plays or stops, n or . steps on, b or , steps back, Home and End jump, + "
                "and - change the speed"
            ),
            id="message",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Board).focus()
        self._show_status()
        self.action_toggle_play()

    def _show_status(self, timed: TimedMove | None = None) -> None:
        total = len(self.record.moves)
        move = (
            _(": {move} at {time:.2f}s").format(move=describe(timed.move), time=timed.time)
            if timed
            else ""
        )
        end = (
            f"   {state_word(self.record.status, started=True)}"
            if self.step == total and self.record.status.is_over
            else ""
        )
        speed = f"   {1 / self._delay:.3g} moves/s" if self._timer is not None else ""
        self.query_one("#status", Static).update(
            _("Replay: move {step} of {total}{move}{end}{speed}").format(
                step=self.step, total=total, move=move, end=end, speed=speed
            )
        )

    def action_step(self, direction: int) -> None:
        board = self.query_one(Board)
        target = max(0, min(self.step + direction, len(self.record.moves)))
        if target == self.step:
            return
        if target < self.step or self.step == 0:
            # Games only move forward: going back replays the record from the start.
            self._steps = replay_steps(self.record)
            self.step = 0
            board.show_game(self._blank())
        timed = None
        while self.step < target:
            game, timed = next(self._steps)
            self.step += 1
            if game is not board.game:
                board.show_game(game)
        if timed is not None:
            board.move_cursor(timed.move.row, timed.move.col)
        self._last = timed
        self._show_status(timed)

    def action_jump(self, end: int) -> None:
        """To the start (0) or the end (1) of the record."""
        self.action_step(len(self.record.moves) if end else -self.step)

    def action_speed(self, factor: float) -> None:
        """Play `factor` times as fast (the delay between moves divided by it)."""
        self._delay = max(MIN_DELAY, min(MAX_DELAY, self._delay / factor))
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.set_interval(self._delay, self._advance)
        self._show_status(self._last)

    def _advance(self) -> None:
        if self.step >= len(self.record.moves):
            self.action_toggle_play()
            return
        self.action_step(1)

    def action_toggle_play(self) -> None:
        if self._timer is None:
            self._timer = self.set_interval(self._delay, self._advance)
        else:
            self._timer.stop()
            self._timer = None
        self._show_status(self._last)
