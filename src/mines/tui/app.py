"""`MinesApp`: the terminal game around a `Board`, with status, timer, hints, pause and undo."""

from __future__ import annotations

import contextlib
import textwrap
import threading
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Middle
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.message import Message
from textual.theme import Theme as TextualTheme
from textual.widgets import Footer, Static

from mines.errors import MinesError
from mines.game import Game
from mines.presets import preset, preset_of
from mines.replay import replay
from mines.solver import Hint
from mines.solver import hint as solver_hint
from mines.status import GameStatus
from mines.tui.board import STILL_WORKING, Board
from mines.tui.clock import PausableClock
from mines.tui.help import MOUSE, HelpScreen, key_lines
from mines.tui.keyline import KeyLine
from mines.tui.rulers import MapShape, Minimap, gutter_width
from mines.tui.stats import Kind, board_name, is_new_best, kind_of
from mines.tui.store import RecordStore, SavedGame
from mines.tui.themes import CELL_WIDTH, THEMES, Theme
from mines.tui.undo import without_last_move
from mines.tui.words import mines_left_shown, state_word, verdict

HintMaker = Callable[[Game, tuple[int, int]], Hint]
"""The hint for a game near a cell (the cursor): the solver's, or a test's stand-in."""
WORKING = "Working…"
THINKING = "Thinking…"


def solver_hint_near(game: Game, near: tuple[int, int]) -> Hint:
    """The solver's hint, looking near the cursor first on a big board."""
    return solver_hint(game, near=near)


GameMaker = Callable[[int, int, int], Game]
"""Makes a new game of (rows, cols, mines) on the app's clock, for `n` and the preset keys."""

SIZES = Binding.Group("Size", compact=True)
WHILE_PAUSED = frozenset({"pause", "help", "quit"})
FOOTER_FROM_WIDTH = 100
"""The least width for Textual's footer with every key (practice and resume add two): below
it the key line stands in, with as many whole entries as fit, F1 Help always among them."""
MESSAGE_LINES = (2, 3)
"""The message area's height: 2 lines, 3 on a terminal of `TALL` lines or more. It changes
only with the terminal, never with a message; a longer message is cut, F1 shows it whole."""
TALL = 24
CUT = "… (F1: all of it)"
MIN_WIDTH, MIN_HEIGHT = 40, 10
"""Below this the board, its status and the footer cannot all be shown: a notice says so."""
RULERS_FROM = (24, 8)
"""The least space (text columns, lines) in which a board bigger than it gets rulers: below,
the position line above the board says where the cursor is, and the cells keep the room."""
MAP_FRAME = 6
"""Columns the minimap takes beyond its map: its border, padding and margins (mines.tcss)."""
MINIMAP_FROM_WIDTH = 80
"""The least width for the minimap beside a board bigger than the screen."""
ABANDONING = frozenset({"new_game", "preset", "quit"})
"""Actions that would throw away a game in progress: they ask for the key a second time."""
MONO_THEME = TextualTheme(
    name="mines-mono",
    primary="#ffffff",
    secondary="#ffffff",
    accent="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    success="#000000",
    warning="#000000",
    error="#000000",
    dark=True,
)
"""The app's own colours for the mono board theme: black and white, as its description says."""


def status_text(
    game: Game, paused: bool, *, width: int = 200, busy: str = "", elapsed: float | None = None
) -> str:
    """The status line: board, mines left, time and where the game stands; compact when narrow.

    `busy` ("Working…", "Thinking…") replaces the state while a long task runs, and then
    `elapsed` stands in for the game's timer, which is locked by that task.
    """
    if paused:
        state = "Paused — p to resume"
    else:
        state = busy or state_word(game.status, started=game.started)
    left = mines_left_shown(game.status, game.mines_left)
    time = game.elapsed if elapsed is None else elapsed
    size = str(game.game_id) if game.game_id else f"{game.rows}x{game.cols}, {game.mines} mines"
    name = preset_of(game.rows, game.cols, game.mines)
    label = f"{name} · {size}" if name else size
    full = f"{label}   mines left {left}   time {time:.1f}s   {state}"
    if len(full) <= width - 2:
        return full
    return f"{left} left · {time:.0f}s · {state}"


def position_text(
    cursor: tuple[int, int], window: tuple[int, int, int, int], game: Game, width: int
) -> str:
    """Where the cursor is and which part of the board is in sight, as long as fits `width`."""
    (row, col), (top, left, height, across) = cursor, window
    sight = f"rows {top}-{top + height - 1}, cols {left}-{left + across - 1}"
    board = f"of {game.rows}x{game.cols}"
    for text in (
        f"cursor ({row}, {col}) · in sight {sight} {board}",
        f"({row}, {col}) · {sight} {board}",
        f"({row}, {col}) · {sight}",
        f"({row}, {col}) {board}",
    ):
        if len(text) <= width - 2:
            return text
    return f"({row}, {col})"


class PlayArea(Horizontal):
    """The space for the board and its minimap: its size decides whether rulers and map show."""

    class Resized(Message):
        def __init__(self, size: Size) -> None:
            super().__init__()
            self.size = size

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized(event.size))


class MinesApp(App[None]):
    """Minesweeper in the terminal. The game lives in the engine; this only draws and asks."""

    CSS_PATH = "mines.tcss"
    TITLE = "mines"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New", tooltip="New game of the same size"),
        # One footer entry for the three sizes, "123 Size", so that the footer fits 72 columns.
        Binding("1", "preset('beginner')", "9x9", tooltip="New beginner game, 9x9", group=SIZES),
        Binding(
            "2",
            "preset('intermediate')",
            "16x16",
            tooltip="New intermediate game, 16x16",
            group=SIZES,
        ),
        Binding("3", "preset('expert')", "16x30", tooltip="New expert game, 16x30", group=SIZES),
        Binding("question_mark", "hint", "Hint", key_display="?", tooltip="Hint: the safest cell"),
        Binding("p", "pause", "Pause", tooltip="Pause: stop the timer and hide the board"),
        # Two bindings for u: the footer shows Undo only where it works (practice games);
        # elsewhere the key still answers, saying what undo is for.
        Binding("u", "undo", "Undo", tooltip="Undo the last move (practice games only)"),
        Binding("u", "undo_elsewhere", "Undo", show=False),
        Binding("r", "resume", "Resume", tooltip="Resume the game left unfinished last time"),
        Binding("t", "next_theme", "Theme", tooltip="Next theme (classic, colorblind, mono)"),
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
        hint: HintMaker = solver_hint_near,
        cursor: tuple[int, int] | None = None,
        marks: bool = False,
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
        self._marks = marks
        self._unsubscribe: Callable[[], None] = game.on_status(self._game_over)
        self._status_shown = ""
        # Counts moves and new games, so that a hint arriving after either is dropped.
        self._turn = 0
        self.hint_thread: threading.Thread | None = None
        self.busy = ""
        """What runs off the UI thread ("Working…", "Thinking…"), or "" when nothing does."""
        self._elapsed_shown = 0.0
        """The game's time when last read: shown while a long move holds the game's lock."""
        self._thinking = False
        self._paused = False
        self._ended: GameStatus | None = None
        self._pending: str | None = None
        """An abandoning action asked once, waiting for its key again."""
        self.unfinished_saved = False
        """Whether quitting kept the game in progress, for `mines play` to offer next time."""
        self._resumable = store.unfinished() if store is not None else None
        self.message = ""
        """The last message, whole: the message line may show only its start."""
        self._message_lines = MESSAGE_LINES[1]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="position")
        with PlayArea(id="play"):
            with Middle(id="middle"), Center():
                yield Board(self.game, self._theme, marks=self._marks, id="board")
                yield Static("Paused. Press p to go on.", id="paused")
            yield Minimap(id="minimap")
        yield Static(id="message")
        yield Static(id="too-small")
        yield Footer()
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.register_theme(MONO_THEME)
        self._apply_theme()
        self.board.move_cursor(*(self._start_cursor or (self.game.rows // 2, self.game.cols // 2)))
        self.board.focus()
        self.update_status()
        self.say("Arrows/hjkl/WASD move, space reveals, f flags. F1 for help.")
        if self._resumable is not None:
            record = self._resumable.record
            when = self._resumable.saved_at[:16].replace("T", " ")
            self.say(
                f"A {board_name(record.rows, record.cols, record.mines)} game left unfinished"
                f"{' on ' + when if when else ''} is saved: r resumes it."
            )
        self.set_interval(0.1, self.update_status)
        self._fit(self.size.width, self.size.height)

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Below the minimum size only a notice shows; above it, the game."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        notice = self.query_one("#too-small", Static)
        notice.update(
            f"Make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT} to play "
            f"(it is {width}x{height}). q quits."
        )
        notice.display = small
        for name in ("#status", "#position", "#play", "#middle", "#message"):
            self.query_one(name).display = not small
        # Below the minimum the notice says which key quits: no footer then.
        self.query_one(Footer).display = not small and width >= FOOTER_FROM_WIDTH
        self.query_one("#keys").display = not small and width < FOOTER_FROM_WIDTH
        self._message_lines = MESSAGE_LINES[height >= TALL]
        self.query_one("#message").styles.height = self._message_lines
        self._show_message()
        if not small:
            self.update_position()
        self._status_shown = ""
        self.update_status()

    def update_status(self) -> None:
        try:
            status = self.query_one("#status", Static)
            board = self.board
        except NoMatches:  # the 0.1 s interval can outlive the screen as the app shuts down
            return
        # The board marks itself busy before its long move's thread starts, on this thread: from
        # then on the game's lock may be held for seconds, and reading the time would wait.
        if not board.busy:
            self._elapsed_shown = self.game.elapsed
        text = status_text(
            self.game, self._paused, width=self.size.width,
            busy=self.busy, elapsed=self._elapsed_shown,
        )  # fmt: skip
        if text != self._status_shown:
            self._status_shown = text
            status.update(text)
            status.set_class(self.game.status is GameStatus.WON, "-won")
            status.set_class(self.game.status is GameStatus.LOST, "-lost")
            status.set_class(bool(self.busy), "-busy")

    def on_play_area_resized(self, message: PlayArea.Resized) -> None:
        self._arrange(message.size)

    def _arrange(self, space: Size | None = None) -> None:
        """On a board bigger than its space: rulers on the board, and the minimap beside it
        when there is room for both; on a small terminal only the position line."""
        space = space or self.query_one("#play").size
        if not space.area:
            return
        game = self.game
        bigger = game.cols * CELL_WIDTH > space.width or game.rows > space.height
        shape = MapShape.of(game.rows, game.cols)
        minimap = self.query_one("#minimap", Minimap)
        minimap.display = (
            bigger and space.width >= MINIMAP_FROM_WIDTH and space.height >= shape.height + 2
        )
        room = space.width - (shape.width + MAP_FRAME if minimap.display else 0)
        wide, high = RULERS_FROM
        self.board.show_rulers(
            bigger and room - gutter_width(game.rows) >= wide and space.height >= high
        )
        self.update_position()

    def update_position(self) -> None:
        """On a board bigger than its window: where the cursor is and which part is in sight."""
        board, game = self.board, self.game
        window = board.window()
        position = self.query_one("#position", Static)
        bigger = window[2:] != (game.rows, game.cols)
        position.display = bigger and self.size.width >= MIN_WIDTH
        if bigger:
            position.update(position_text(board.cursor, window, game, self.size.width))
            minimap = self.query_one("#minimap", Minimap)
            if minimap.display:
                minimap.show(game.rows, game.cols, window, board.cursor)

    def on_minimap_jump(self, message: Minimap.Jump) -> None:
        self.board.go_to(message.row, message.col)

    def on_board_cursor_moved(self, message: Board.CursorMoved) -> None:
        # A scroll's message can arrive as the app shuts down, after its widgets are gone.
        with contextlib.suppress(NoMatches):
            self.update_position()

    def say(self, text: str) -> None:
        self.message = text
        self._show_message()

    def _show_message(self) -> None:
        """The message in its two lines; one too long for them ends in a pointer to F1."""
        width = max(1, self.size.width - 2)  # the message's padding (mines.tcss)
        lines, most = textwrap.wrap(self.message, width) or [""], self._message_lines
        if len(lines) > most:
            rest, room = " ".join(lines[most - 1 :]), width - len(CUT)
            # The last line cut at a word, with room for the pointer (on a terminal too
            # narrow for it, only the notice shows anyway: a plain cut does).
            last = rest[:room].rsplit(" ", 1)[0] + CUT if room > 0 else lines[most - 1]
            lines = [*lines[: most - 1], last]
        self.query_one("#message", Static).update("\n".join(lines))

    # --- the game ----------------------------------------------------------------------------

    def _play(self, game: Game) -> None:
        """Make `game` the one on screen, observed for its end."""
        self._unsubscribe()
        self.game = game
        self._unsubscribe = game.on_status(self._game_over)
        self._turn += 1
        self.board.show_game(game)
        self._arrange()
        self.update_status()

    def _game_over(self, status: GameStatus) -> None:
        """Noted here, told in `on_board_moved`: a long move ends the game on its own thread."""
        self._ended = status

    def _finish(self, status: GameStatus) -> None:
        best = ""
        if self._store is not None:
            try:
                earlier, _ = self._store.load()
                path = self._store.save(self.game, practice=self.practice, hints=self.hints_used)
                self.saved.append(str(path))
            except OSError as error:
                self.say(f"Could not save the record: {error}")
                return
            saved = SavedGame(
                self.game.record(),
                practice=self.practice,
                hints=self.hints_used,
                three_bv=self.game.three_bv,
            )
            if is_new_best(saved, earlier):
                board = board_name(self.game.rows, self.game.cols, self.game.mines)
                no_guess = "no-guess " if kind_of(saved) is Kind.NO_GUESS else ""
                best = f" A new best {no_guess}time for {board}!"
        undo = " u undoes the last move." if self.practice else ""
        self.say(f"{verdict(status)} {self.game.elapsed:.1f}s.{best} n for a new game.{undo}")

    def on_board_busy(self, message: Board.Busy) -> None:
        if message.busy:
            self.busy = WORKING
            self.say("Working on it: a big board takes a moment (the clock waits).")
        else:
            self.busy = ""
        self._sync_clock()
        # No refresh_bindings here: no key's availability depends on it, and the footer's
        # rebuild would cost the first and last frames of every long move tens of ms.
        self.update_status()

    def on_board_moved(self, message: Board.Moved) -> None:
        if message.error == STILL_WORKING:
            self.say(message.error)
            return
        self._turn += 1
        self._pending = None
        self._stop_thinking()
        if self._ended is not None:
            ended, self._ended = self._ended, None
            self._finish(ended)
        elif message.error is not None:
            self.say(
                "The game is over: n starts a new one."
                if self.game.status.is_over
                else message.error
            )
        elif not self.game.status.is_over:
            self.say("")
        self.update_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.practice and not self._paused
        if action == "undo_elsewhere":
            return not self.practice
        if action == "resume":
            return self._resumable is not None and not self._paused
        return not self._paused or action in WHILE_PAUSED

    def _confirmed(self, action: str, key: str) -> bool:
        """A game in progress is abandoned only when its key is pressed a second time."""
        pending, self._pending = self._pending, None
        if not (self.game.started and not self.game.status.is_over) or self.busy == WORKING:
            return True
        if pending == key:
            return True
        self._pending = key
        if action == "quit":
            then = "quit; it is kept, and offered next time" if self._store else "quit"
        else:
            then = "leave it for another game; it is not kept"
        self.say(f"This game is still going: press {key} again to {then}. Any other key plays on.")
        return False

    async def action_quit(self) -> None:
        if not self._confirmed("quit", "q"):
            return
        # During a long move the game is locked mid-move: quitting then keeps nothing (reading
        # its record would wait for the move to end).
        if (
            self._store is not None
            and not self.board.busy
            and self.game.started
            and not self.game.status.is_over
        ):
            try:
                self._store.save_unfinished(
                    self.game, practice=self.practice, hints=self.hints_used
                )
                self.unfinished_saved = True
            except OSError as error:
                self.say(f"Could not keep the game: {error}. Press q again to quit anyway.")
                self._pending = "q"
                return
        self.exit()

    def action_resume(self) -> None:
        saved = self._resumable
        if saved is None or not self._confirmed("resume", "r"):
            return
        record = saved.record
        try:
            game = replay(record, clock=self.clock, started_at=self.clock() - record.elapsed)
        except MinesError as error:
            self.say(f"The unfinished game cannot be resumed: {error}")
            return
        self._resumable = None
        if self._store is not None:
            self._store.drop_unfinished()
        self.practice, self.hints_used = saved.practice, saved.hints
        self._play(game)
        last = record.moves[-1].move if record.moves else None
        if last is not None:
            self.board.move_cursor(last.row, last.col)
        self.refresh_bindings()
        self.say("Resumed: the timer goes on from where it stood.")

    def action_new_game(self) -> None:
        if self._confirmed("new_game", "n"):
            self._new(self.game.rows, self.game.cols, self.game.mines)

    def action_preset(self, name: str) -> None:
        keys = {"beginner": "1", "intermediate": "2", "expert": "3"}
        if self._confirmed("preset", keys.get(name, name)):
            p = preset(name)
            self._new(p.rows, p.cols, p.mines)

    def _new(self, rows: int, cols: int, mines: int) -> None:
        if self.busy == WORKING:
            self.say(STILL_WORKING)
            return
        self.hints_used = 0
        self._play(self._make_game(rows, cols, mines))
        self.board.move_cursor(rows // 2, cols // 2)
        self.say("New game. Good luck!")

    def action_hint(self) -> None:
        self._pending = None
        if self.busy:
            self.say(STILL_WORKING if self.busy == WORKING else "Still thinking...")
            return
        if self.game.status.is_over:
            self.say("The game is over: n starts a new one.")
            return
        self.say("Thinking... (the clock stops while the solver thinks)")
        self._thinking = True
        self.busy = THINKING
        self._sync_clock()
        self.update_status()
        # A daemon thread, not a Textual worker: quitting must not wait for the solver.
        self.hint_thread = threading.Thread(
            target=self._find_hint, args=(self.game, self._turn, self.board.cursor), daemon=True
        )
        self.hint_thread.start()

    def _find_hint(self, game: Game, turn: int, cursor: tuple[int, int]) -> None:
        try:
            hint = self._hint(game, cursor)
        except MinesError as error:
            self._from_thread(self._no_hint, str(error), game, turn)
            return
        self._from_thread(self._show_hint, hint, game, turn)

    def _from_thread(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(callback, *args)

    def _stop_thinking(self) -> None:
        if self._thinking:
            self._thinking = False
            self.busy = ""
            self._sync_clock()

    def _sync_clock(self) -> None:
        """The clock stands still while the player pauses, while the solver thinks and while
        a long move works: the machine's time is not the player's."""
        if self._paused or self._thinking or self.busy == WORKING:
            self.clock.pause()
        else:
            self.clock.resume()

    def _no_hint(self, error: str, game: Game, turn: int) -> None:
        if game is not self.game or turn != self._turn:
            return
        self._stop_thinking()
        self.update_status()
        self.say(f"No hint: {error}.")

    def _show_hint(self, hint: Hint, game: Game, turn: int) -> None:
        if game is not self.game or turn != self._turn:
            return  # the player moved on while the solver thought
        self._stop_thinking()
        self.hints_used += 1
        self.board.move_cursor(hint.row, hint.col)
        self.update_status()
        self.say(f"Hint: {hint.reason}")

    def action_pause(self) -> None:
        self._pending = None
        paused = self._paused = not self._paused
        self._sync_clock()
        self.board.display = not paused
        self.query_one("#paused", Static).display = paused
        if not paused:
            self.board.focus()
        self.refresh_bindings()
        self.update_status()

    def action_undo(self) -> None:
        if self.busy:
            self.say(STILL_WORKING)
            return
        try:
            self._play(without_last_move(self.game, self.clock))
        except MinesError as error:
            self.say(str(error))
            return
        self.say("Undone.")

    def action_undo_elsewhere(self) -> None:
        self.say("Undo is for practice games: start one with mines play --practice.")

    def action_next_theme(self) -> None:
        names = list(THEMES)
        self._theme = THEMES[names[(names.index(self._theme.name) + 1) % len(names)]]
        self.board.set_theme(self._theme)
        self._apply_theme()
        self.say(f"Theme: {self._theme.name}")

    def _apply_theme(self) -> None:
        """The mono board theme takes the app's colours away too, as its description says."""
        self.theme = MONO_THEME.name if self._theme.name == "mono" else "textual-dark"

    def action_help(self) -> None:
        self.push_screen(
            HelpScreen(
                [
                    ("Board", key_lines(Board.BINDINGS)),
                    ("Game", key_lines(self.BINDINGS)),
                    ("Mouse", MOUSE),
                ],
                message=self.message,
            )
        )
