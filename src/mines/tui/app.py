"""`MinesApp`: the terminal game around a `Board`, with status, timer, hints, pause and undo."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.widgets import Footer, Static

from mines.errors import MinesError
from mines.game import Game
from mines.presets import preset, preset_of
from mines.solver import Hint
from mines.solver import hint as solver_hint
from mines.symbols import GameStatus
from mines.tui.board import Board
from mines.tui.clock import PausableClock
from mines.tui.help import MOUSE, HelpScreen, key_lines
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES, Theme
from mines.tui.undo import without_last_move

GameMaker = Callable[[int, int, int], Game]
"""Makes a new game of (rows, cols, mines) on the app's clock, for `n` and the preset keys."""

WHILE_PAUSED = frozenset({"pause", "help", "quit"})


def status_text(game: Game, paused: bool) -> str:
    """The status line: board, mines left, time and where the game stands."""
    if paused:
        state = "Paused — p to resume"
    elif game.status is GameStatus.WON:
        state = "Won!"
    elif game.status is GameStatus.LOST:
        state = "Lost"
    else:
        state = "Playing" if game.started else "Ready"
    size = str(game.game_id) if game.game_id else f"{game.rows}x{game.cols}, {game.mines} mines"
    name = preset_of(game.rows, game.cols, game.mines)
    label = f"{name} · {size}" if name else size
    return f"{label}   mines left {game.mines_left}   time {game.elapsed:.1f}s   {state}"


class MinesApp(App[None]):
    """Minesweeper in the terminal. The game lives in the engine; this only draws and asks."""

    CSS_PATH = "mines.tcss"
    TITLE = "mines"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New", tooltip="New game of the same size"),
        Binding("1", "preset('beginner')", "Beginner 9x9", show=False),
        Binding("2", "preset('intermediate')", "Intermediate 16x16", show=False),
        Binding("3", "preset('expert')", "Expert 16x30", show=False),
        Binding("question_mark", "hint", "Hint", key_display="?", tooltip="Hint: the safest cell"),
        Binding("p", "pause", "Pause", tooltip="Pause: stop the timer and hide the board"),
        Binding("u", "undo", "Undo", tooltip="Undo the last move (practice games only)"),
        Binding(
            "t", "next_theme", "Theme", show=False, tooltip="Next theme (classic, colorblind, mono)"
        ),
        Binding("f1,i", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        game: Game,
        *,
        make_game: GameMaker,
        clock: PausableClock,
        theme: Theme,
        store: RecordStore | None = None,
        practice: bool = False,
        hint: Callable[[Game], Hint] = solver_hint,
        cursor: tuple[int, int] | None = None,
    ) -> None:
        """`cursor` is where the cursor starts: the middle of the board unless given."""
        super().__init__()
        self.game = game
        self.clock = clock
        self.practice = practice
        self.hints_used = 0
        self.saved: list[str] = []
        self._make_game = make_game
        self._theme = theme
        self._store = store
        self._hint = hint
        self._start_cursor = cursor
        self._unsubscribe: Callable[[], None] = game.on_status(self._game_over)
        self._status_shown = ""
        # Counts moves and new games, so that a hint arriving after either is dropped.
        self._turn = 0
        self.hint_thread: threading.Thread | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Middle(id="middle"), Center():
            yield Board(self.game, self._theme, id="board")
            yield Static("Paused. Press p to go on.", id="paused")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.board.move_cursor(*(self._start_cursor or (self.game.rows // 2, self.game.cols // 2)))
        self.board.focus()
        self.update_status()
        self.say("Arrows/hjkl/WASD move, space reveals, f flags. F1 for help.")
        self.set_interval(0.1, self.update_status)

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def update_status(self) -> None:
        text = status_text(self.game, self.clock.paused)
        if text != self._status_shown:
            self._status_shown = text
            status = self.query_one("#status", Static)
            status.update(text)
            status.set_class(self.game.status is GameStatus.WON, "-won")
            status.set_class(self.game.status is GameStatus.LOST, "-lost")

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    # --- the game ----------------------------------------------------------------------------

    def _play(self, game: Game) -> None:
        """Make `game` the one on screen, observed for its end."""
        self._unsubscribe()
        self.game = game
        self._unsubscribe = game.on_status(self._game_over)
        self._turn += 1
        self.board.show_game(game)
        self.update_status()

    def _game_over(self, status: GameStatus) -> None:
        if self._store is not None:
            try:
                path = self._store.save(self.game, practice=self.practice, hints=self.hints_used)
                self.saved.append(str(path))
            except OSError as error:
                self.say(f"Could not save the record: {error}")
                return
        verdict = "You won!" if status is GameStatus.WON else "Boom! You hit a mine."
        undo = " u undoes the last move." if self.practice else ""
        self.say(f"{verdict} {self.game.elapsed:.1f}s. n for a new game.{undo}")

    def on_board_moved(self, message: Board.Moved) -> None:
        self._turn += 1
        if message.error is not None:
            self.say(
                "The game is over: n starts a new one."
                if self.game.status.is_over
                else message.error
            )
        elif not self.game.status.is_over:
            self.say("")
        self.update_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self.clock.paused or action in WHILE_PAUSED

    def action_new_game(self) -> None:
        self._new(self.game.rows, self.game.cols, self.game.mines)

    def action_preset(self, name: str) -> None:
        p = preset(name)
        self._new(p.rows, p.cols, p.mines)

    def _new(self, rows: int, cols: int, mines: int) -> None:
        self.hints_used = 0
        self._play(self._make_game(rows, cols, mines))
        self.board.move_cursor(rows // 2, cols // 2)
        self.say("New game. Good luck!")

    def action_hint(self) -> None:
        if self.game.status.is_over:
            self.say("The game is over: n starts a new one.")
            return
        self.say("Looking for the safest cell...")
        # A daemon thread, not a Textual worker: on a big board the solver may think for
        # many seconds, and quitting must not wait for it.
        self.hint_thread = threading.Thread(
            target=self._find_hint, args=(self.game, self._turn), daemon=True
        )
        self.hint_thread.start()

    def _find_hint(self, game: Game, turn: int) -> None:
        try:
            hint = self._hint(game)
        except MinesError as error:
            self._from_thread(self.say, str(error))
            return
        self._from_thread(self._show_hint, hint, game, turn)

    def _from_thread(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(callback, *args)

    def _show_hint(self, hint: Hint, game: Game, turn: int) -> None:
        if game is not self.game or turn != self._turn:
            return  # the player moved on while the solver thought
        self.hints_used += 1
        self.board.move_cursor(hint.row, hint.col)
        self.say(f"Hint: {hint.reason}")

    def action_pause(self) -> None:
        paused = not self.clock.paused
        if paused:
            self.clock.pause()
        else:
            self.clock.resume()
        self.board.display = not paused
        self.query_one("#paused", Static).display = paused
        if not paused:
            self.board.focus()
        self.refresh_bindings()
        self.update_status()

    def action_undo(self) -> None:
        if not self.practice:
            self.say("Undo is for practice games: start one with mines play --practice.")
            return
        try:
            self._play(without_last_move(self.game, self.clock))
        except MinesError as error:
            self.say(str(error))
            return
        self.say("Undone.")

    def action_next_theme(self) -> None:
        names = list(THEMES)
        self._theme = THEMES[names[(names.index(self._theme.name) + 1) % len(names)]]
        self.board.set_theme(self._theme)
        self.say(f"Theme: {self._theme.name}")

    def action_help(self) -> None:
        self.push_screen(
            HelpScreen(
                [
                    ("Board", key_lines(Board.BINDINGS)),
                    ("Game", key_lines(self.BINDINGS)),
                    ("Mouse", MOUSE),
                ]
            )
        )
