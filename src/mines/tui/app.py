"""`MinesApp`: the terminal game around a `Board`: status, timer, hints, pause, undo, saving."""

from __future__ import annotations

import contextlib
import importlib
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Middle
from textual.css.query import NoMatches
from textual.theme import Theme as TextualTheme
from textual.widgets import Footer, Static

from mines.errors import MinesError
from mines.moves import Move
from mines.presets import preset, preset_of
from mines.status import GameStatus
from mines.tui.autosave import Autosave, resume
from mines.tui.board import GAME_OVER, STILL_WORKING, Board
from mines.tui.clock import PausableClock
from mines.tui.help import MOUSE, HelpScreen, key_lines
from mines.tui.keyline import KeyLine
from mines.tui.language import _
from mines.tui.layout import MIN_HEIGHT, MIN_WIDTH, Layout
from mines.tui.played import PlayedGame, local
from mines.tui.remote import RemoteGame
from mines.tui.resume import ResumeScreen
from mines.tui.rulers import Minimap
from mines.tui.stats import Kind, is_new_best, kind_of
from mines.tui.store import RecordStore, SavedGame, Unfinished
from mines.tui.themes import THEMES, Theme
from mines.tui.undo import rebuilt
from mines.tui.words import (
    board_name,
    describe,
    mines_left_shown,
    plural,
    state_word,
    verdict,
)

if TYPE_CHECKING:
    # The solver (and scipy under it) loads when first asked, for a hint, a search or a
    # review: the first screen does not wait for it.
    from mines.solver import Hint, Search

CUT = _("… (F1: all of it)")
HintMaker = Callable[[PlayedGame, tuple[int, int]], "Hint"]
"""The hint for a game near a cell (the cursor): the solver's (the server's for a game played
there), or a test's stand-in."""
FinderMaker = Callable[[PlayedGame, tuple[int, int], int], "Search"]
"""The search for the nearest cell still to decide from a cell, beyond a distance already
searched: the solver's, or a test's stand-in."""
_SAVE_FAILED = _("Could not save the game: {error}.").split("{")[0]
"""How every save failure's message starts, in the language shown (the three share it)."""
WORKING = _("Working…")
THINKING = _("Thinking…")
SEARCHING = _("Searching…")


def warm_up() -> None:
    """Load scipy's image module off the UI thread, once the first screen shows: the engine
    floods a reveal with it (imported on first use, it is most of a second of CPU), and the
    first screen did not wait for it; the first reveal should not either."""
    threading.Thread(target=importlib.import_module, args=("scipy.ndimage",), daemon=True).start()


def solver_hint_near(game: PlayedGame, near: tuple[int, int]) -> Hint:
    """The solver's hint, looking near the cursor first on a big board; for a game on a
    server, the server's (which marks the game assisted: the solver here would be help the
    server does not know of)."""
    if isinstance(game, RemoteGame):
        return game.hint()
    from mines.solver import hint

    return hint(local(game), near=near)


def solver_find_from(game: PlayedGame, near: tuple[int, int], beyond: int) -> Search:
    """The solver's search for the nearest cell still to decide, past `beyond` cells away."""
    from mines.solver import find_undecided

    return find_undecided(local(game), near, beyond=beyond, skip=near)


GameMaker = Callable[[int, int, int], PlayedGame]
"""Makes a new game of (rows, cols, mines) on the app's clock, for `n` and the preset keys
(on the server for a game played there)."""
NOT_ON_A_SERVER = {
    "pause": _("A game on a server cannot pause: its clock runs on the server."),
    "find": _(
        "g is off for a game on a server: the solver reading your board is help the server would "
        "not know of. ? asks the server for a hint (the game then does not rank)."
    ),
    "undo": _("Undo is not offered on a server: a game there is played as it falls."),
}
"""What the keys that only a game played here offers say on a server's game."""

SIZES = Binding.Group(_("Size"), compact=True)
WHILE_PAUSED = frozenset({"pause", "help", "quit"})
OVER = frozenset({"hint", "find", "pause"})
"""Actions of a game still going: a finished game's footer does not list them."""
PRACTICE = frozenset({"undo", "redo"})
"""Actions of practice games only: elsewhere `u` says what undo is for."""
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
    game: PlayedGame,
    paused: bool,
    *,
    width: int = 200,
    busy: str = "",
    elapsed: float | None = None,
) -> str:
    """The status line: board, mines left, time and where the game stands; compact when narrow.

    `busy` ("Working…", "Thinking…") replaces the state while a long task runs, and then
    `elapsed` stands in for the game's timer, which is locked by that task.
    """
    if paused:
        state = _("Paused — p to resume")
    else:
        state = busy or state_word(game.status, started=game.started)
    left = mines_left_shown(game.status, game.mines_left)
    time = game.elapsed if elapsed is None else elapsed
    size = (
        str(game.game_id)
        if game.game_id
        else plural(
            game.mines,
            "{rows}x{cols}, {n} mine",
            "{rows}x{cols}, {n} mines",
            rows=game.rows,
            cols=game.cols,
        )
    )
    name = preset_of(game.rows, game.cols, game.mines)
    label = f"{name} · {size}" if name else size
    full = _("{label}   mines left {left}   time {time:.1f}s   {state}").format(
        label=label, left=left, time=time, state=state
    )
    if len(full) <= width - 2:
        return full
    return _("{left} left · {time:.0f}s · {state}").format(left=left, time=time, state=state)


def position_text(
    cursor: tuple[int, int], window: tuple[int, int, int, int], game: PlayedGame, width: int
) -> str:
    """Where the cursor is and which part of the board is in sight, as long as fits `width`."""
    (row, col), (top, left, height, across) = cursor, window
    sight = _("rows {top}-{height}, cols {left}-{across}").format(
        top=top, height=top + height - 1, left=left, across=left + across - 1
    )
    board = _("of {rows}x{cols}").format(rows=game.rows, cols=game.cols)
    for text in (
        _("cursor ({row}, {col}) · in sight {sight} {board}").format(
            row=row, col=col, sight=sight, board=board
        ),
        f"({row}, {col}) · {sight} {board}",
        f"({row}, {col}) · {sight}",
        f"({row}, {col}) {board}",
    ):
        if len(text) <= width - 2:
            return text
    return f"({row}, {col})"


class MinesApp(App[None]):
    """Minesweeper in the terminal. The game lives in the engine; this only draws and asks."""

    CSS_PATH = "mines.tcss"
    TITLE = "mines"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", _("New"), tooltip=_("New game of the same size")),
        # One footer entry for the three sizes, "123 Size", so that the footer fits 72 columns.
        Binding("1", "preset('beginner')", "9x9", tooltip=_("New beginner game, 9x9"), group=SIZES),
        Binding(
            "2",
            "preset('intermediate')",
            "16x16",
            tooltip=_("New intermediate game, 16x16"),
            group=SIZES,
        ),
        Binding("3", "preset('expert')", "16x30", tooltip=_("New expert game, 16x30"), group=SIZES),
        Binding(
            "question_mark", "hint", _("Hint"), key_display="?", tooltip=_("Hint: the safest cell")
        ),
        # g and p twice, as u below: the footer shows them where they work (games played
        # here); on a server's game the key still answers, saying why not.
        Binding(
            "g",
            "find",
            _("Find"),
            tooltip=_("Go to the nearest cell still to decide (again: look further)"),
        ),
        Binding("g", "not_on_a_server('find')", _("Find"), show=False),
        Binding("p", "pause", _("Pause"), tooltip=_("Pause: stop the timer and hide the board")),
        Binding("p", "not_on_a_server('pause')", _("Pause"), show=False),
        # Two bindings for u: the footer shows Undo only where it works (practice games);
        # elsewhere the key still answers, saying what undo is for. The help lists u once.
        Binding("u", "undo", _("Undo"), tooltip=_("Undo the last move (practice games only)")),
        Binding("u", "undo_elsewhere", _("Undo"), show=False),
        Binding(
            "U,ctrl+r", "redo", _("Redo"), tooltip=_("Redo the move undone (practice games only)")
        ),
        Binding("t", "next_theme", _("Theme"), tooltip=_("Next theme (classic, colorblind, mono)")),
        # Not in the footer (a finished practice game's keys fill it): the end message says it.
        Binding(
            "r", "review", _("Review"), show=False, tooltip=_("Review a finished game move by move")
        ),
        Binding("f1,i", "help", _("Help")),
        Binding(
            "q", "quit", _("Quit"), tooltip=_("Quit; a game in progress is kept for next time")
        ),
        # Ctrl-C quits as q does, as terminal users expect (Textual's own only says how to quit).
        Binding("ctrl+c", "quit", _("Quit"), show=False, priority=True),
    ]

    def __init__(
        self,
        game: PlayedGame,
        *,
        make_game: GameMaker,
        clock: PausableClock,
        theme: Theme,
        store: RecordStore | None = None,
        practice: bool = False,
        hint: HintMaker = solver_hint_near,
        find: FinderMaker = solver_find_from,
        cursor: tuple[int, int] | None = None,
        marks: bool = False,
    ) -> None:
        """`cursor` is where the cursor starts: the middle of the board unless given. With a
        `store`, games are kept there after every move, and those left unfinished offered.
        A game on a server (`RemoteGame`) needs no store: the server keeps it."""
        super().__init__()
        self.game = game
        self.clock = clock
        self.practice = practice
        self.saved: list[str] = []
        """The files of the games finished in this run."""
        self._make_game = make_game
        self._theme = theme
        self._store = store
        self._hint = hint
        self._find = find
        self._start_cursor = cursor
        self._marks = marks
        self.autosave = Autosave(store, game, practice=practice)
        self._unsubscribe: Callable[[], None] = game.on_status(self._game_over)
        self._status_shown = ""
        # Counts moves and new games, so that a hint arriving after either is dropped.
        self._turn = 0
        self.hint_thread: threading.Thread | None = None
        self.busy = ""
        """What runs off the UI thread (Working…, Thinking…, Searching…), or "" if nothing."""
        self._elapsed_shown = 0.0
        """The game's time when last read: shown while a long move holds the game's lock."""
        self._paused = False
        self._ended: GameStatus | None = None
        self._pending: str | None = None
        """An action that asks for its key a second time, waiting for it."""
        self._redo: list[Move] = []
        """Moves undone, the next to redo last."""
        self._searched: tuple[tuple[int, int], int] | None = None
        """Where `g` last searched from and how far, to search further on the next press."""
        self.unfinished_saved = False
        """Whether the game was in progress at quit, and so is kept for next time."""
        self.message = ""
        """The last message, whole: the message line may show only its start."""
        self.layout = Layout.of(80, 24, game.rows, game.cols)
        """What shows at the terminal's size: set by `_fit` as the app starts and on resizes."""

    @property
    def hints_used(self) -> int:
        return self.autosave.hints

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="position")
        with Horizontal(id="play"):
            with Middle(id="middle"), Center():
                yield Board(self.game, self._theme, marks=self._marks, id="board")
                yield Static(_("Paused. Press p to go on."), id="paused")
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
        keys = _("Arrows/hjkl/WASD move, space reveals, f flags. F1 for help.")
        server = self.server_game
        self.say(keys if server is None else f"{server.introduction()} {keys}")
        self.set_interval(0.1, self.update_status)
        self._fit(self.size.width, self.size.height)
        self._offer_kept_games()
        self.call_after_refresh(warm_up)

    @property
    def server_game(self) -> RemoteGame | None:
        """The game on screen when it is played on a server, else None."""
        return self.game if isinstance(self.game, RemoteGame) else None

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Show what `Layout` says for this terminal size: below the minimum only a notice."""
        self.layout = layout = Layout.of(width, height, self.game.rows, self.game.cols)
        small = layout.small
        notice = self.query_one("#too-small", Static)
        notice.update(
            _(
                "Make the terminal at least {min_width}x{min_height} to play (it is "
                "{width}x{height}). q quits."
            ).format(min_width=MIN_WIDTH, min_height=MIN_HEIGHT, width=width, height=height)
        )
        notice.display = small
        for name in ("#status", "#play", "#middle", "#message"):
            self.query_one(name).display = not small
        # Below the minimum the notice says which key quits: no footer then.
        self.query_one(Footer).display = not small and layout.footer
        self.query_one("#keys").display = not small and not layout.footer
        self.query_one("#message").styles.height = layout.message_lines
        self._show_message()
        self._arrange()
        self._sync_clock()  # the notice hides the board: the time is not the player's
        self._status_shown = ""
        self.update_status()
        if not small and not self._paused and self.screen is self.board.screen:
            # The notice hid the board, and with it the focus: keys go to the board again.
            self.board.focus()

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
            self.game, self._paused, width=self.layout.width,
            busy=self.busy, elapsed=self._elapsed_shown,
        )  # fmt: skip
        if text != self._status_shown:
            self._status_shown = text
            status.update(text)
            status.set_class(self.game.status is GameStatus.WON, "-won")
            status.set_class(self.game.status is GameStatus.LOST, "-lost")
            status.set_class(bool(self.busy), "-busy")

    def _arrange(self) -> None:
        """The parts around a board bigger than its space, as the layout says: the position
        line, rulers on the board, and the minimap beside it when there is room."""
        layout = self.layout
        self.query_one("#position").display = layout.bigger
        self.query_one("#minimap", Minimap).display = layout.minimap
        self.board.show_rulers(layout.rulers)
        self.update_position()

    def update_position(self) -> None:
        """On a board bigger than its space: where the cursor is and which part is in sight."""
        if not self.layout.bigger:
            return
        board, game = self.board, self.game
        window = board.window()
        position = self.query_one("#position", Static)
        position.update(position_text(board.cursor, window, game, self.layout.width))
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
        width = max(1, self.layout.width - 2)  # the message's padding (mines.tcss)
        lines, most = textwrap.wrap(self.message, width) or [""], self.layout.message_lines
        if len(lines) > most:
            rest, room = " ".join(lines[most - 1 :]), width - len(CUT)
            # The last line cut at a word, with room for the pointer (on a terminal too
            # narrow for it, only the notice shows anyway: a plain cut does).
            last = rest[:room].rsplit(" ", 1)[0] + CUT if room > 0 else lines[most - 1]
            lines = [*lines[: most - 1], last]
        self.query_one("#message", Static).update("\n".join(lines))

    # --- the game ----------------------------------------------------------------------------

    def _in_progress(self) -> bool:
        return self.game.started and not self.game.status.is_over

    def _play(self, game: PlayedGame, autosave: Autosave | None = None) -> None:
        """Make `game` the one on screen, observed for its end; `autosave` keeps it (else the
        one that kept the game before, which goes on with it: an undo's rebuild)."""
        self._unsubscribe()
        if autosave is not None:
            self.autosave.close()  # the game before stays on disk if it was in progress
            self.autosave = autosave
        self.game = game
        self._unsubscribe = game.on_status(self._game_over)
        self._turn += 1
        self._searched = None
        self.board.show_game(game)
        self._fit(self.layout.width, self.layout.height)  # the board's size may have changed
        self.refresh_bindings()  # what applies to a game going on, or over (an undo's)

    def _keep(self) -> Path | None:
        """Save the game as it stands (`Autosave.keep`), the cursor too; a failure is told,
        not fatal."""
        self.autosave.cursor = self.board.cursor
        try:
            return self.autosave.keep()
        except OSError as error:
            self.say(
                _("Could not save the game: {error}. It goes on; saving is tried again.").format(
                    error=error
                )
            )
            return None

    def _game_over(self, status: GameStatus) -> None:
        """Noted here, told in `on_board_moved`: a long move ends the game on its own thread."""
        self._ended = status

    def _finish(self, status: GameStatus, path: Path | None, earlier: list[SavedGame]) -> None:
        best = ""
        if (server := self.server_game) is not None:
            try:
                best = f" {server.standing()}"
            except MinesError as error:
                best = _(" Whether it ranks, the server did not say: {error}.").format(error=error)
        if path is not None:
            game = local(self.game)
            self.saved.append(str(path))
            saved = SavedGame(
                game.record(),
                practice=self.practice,
                hints=self.hints_used,
                three_bv=game.three_bv,
            )
            if is_new_best(saved, earlier):
                board = board_name(game.rows, game.cols, game.mines)
                if kind_of(saved) is Kind.NO_GUESS:
                    best = _(" A new best no-guess time for {board}!").format(board=board)
                else:
                    best = _(" A new best time for {board}!").format(board=board)
        undo = _(" u undoes the last move.") if self.practice else ""
        said = self.message if self.message.startswith(_SAVE_FAILED) else ""
        self.say(
            _(
                "{status} {elapsed:.1f}s.{best} r reviews every move, n starts a new game.{undo} "
                "{said}"
            ).format(
                status=verdict(status), elapsed=self.game.elapsed, best=best, undo=undo, said=said
            )
        )

    def on_board_busy(self, message: Board.Busy) -> None:
        if message.busy:
            self.busy = WORKING
            self.say(_("Working on it: a big board takes a moment (the clock waits)."))
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
        ended, self._ended = self._ended, None
        path = None
        earlier: list[SavedGame] = []
        if message.move is not None and self.autosave.note(message.move, message.at):
            self._searched = None
            # The move undone last, made again, is its redo; any other move starts a new line.
            if self._redo and self._redo[-1] == message.move:
                self._redo.pop()
            else:
                self._redo.clear()
            if ended is not None and self._store is not None:
                earlier = self._store.load()[0]
            path = self._keep()
        if ended is not None:
            self._finish(ended, path, earlier)
            self.refresh_bindings()  # a finished game's footer: only the keys that apply
        elif message.error is not None:
            self.say(GAME_OVER if self.game.status.is_over else message.error)
        elif not self.game.status.is_over and not self.message.startswith(_SAVE_FAILED):
            self.say("")
        self.update_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in OVER and self.game.status.is_over:
            return False
        if action in PRACTICE:
            return self.practice and not self._paused
        if action == "undo_elsewhere":
            return not self.practice
        if action in ("find", "pause") and self.server_game is not None:
            return False
        if action == "not_on_a_server":
            return self.server_game is not None
        return not self._paused or action in WHILE_PAUSED

    def _confirmed(self, key: str, then: str) -> bool:
        """A game in progress is left only when its key is pressed a second time."""
        pending, self._pending = self._pending, None
        if not self._in_progress() or self.busy == WORKING or pending == key:
            return True
        self._pending = key
        self.say(
            _(
                "This game is still going: press {key} again to {then}. Any other key plays on."
            ).format(key=key, then=then)
        )
        return False

    def _leave(self) -> str:
        """What becomes of the game in progress when the player leaves it."""
        if self.server_game is not None:
            return _("it is left unfinished on the server")
        if self._store is None:
            return _("it is not kept")
        return _("it is kept, and offered when mines play starts")

    async def action_quit(self) -> None:
        """Quit. With a store the game in progress is on disk already (it is saved after every
        move), so q and Ctrl-C quit at once; without one they ask first. A game on a server
        is kept there: mines play --server goes on with it."""
        local_only = self._store is None and self.server_game is None
        if local_only and not self._confirmed("q", _("quit ({leave})").format(leave=self._leave())):
            return
        if self.board.busy:
            # The game is locked mid-move: what is kept is the game before that move.
            self.unfinished_saved = self.autosave.path is not None
        elif self._in_progress():
            self._keep()
            self.unfinished_saved = self.autosave.path is not None
        self.autosave.close()
        self.exit()

    # --- kept games --------------------------------------------------------------------------

    def _offer_kept_games(self) -> None:
        """As the app starts: the games left unfinished, to go on with one or play the new."""
        if self._store is None:
            return
        kept = self._store.unfinished()
        if not kept:
            return
        game = self.game
        fresh = f"{board_name(game.rows, game.cols, game.mines)}" + (
            f" {game.game_id}" if game.game_id else ""
        )
        self.push_screen(ResumeScreen(kept, fresh=fresh, forget=self._store.forget), self._resume)

    def _resume(self, chosen: Unfinished | None) -> None:
        if chosen is None or self._store is None:
            return
        try:
            autosave = resume(self._store, chosen, self.clock)
        except MinesError as error:
            self.say(_("The game left unfinished cannot be resumed: {error}").format(error=error))
            return
        if autosave is None:
            self.say(_("That game is being played in another terminal: here is a new one."))
            return
        game, record = autosave.game, chosen.saved.record
        self.practice = autosave.practice
        self._redo.clear()
        self._play(game, autosave)
        last = record.moves[-1].move if record.moves else None
        if chosen.saved.cursor is not None:  # where it was when the game was left
            self.board.move_cursor(*chosen.saved.cursor)
        elif last is not None:  # a file from before the cursor was kept
            self.board.move_cursor(last.row, last.col)
        self.refresh_bindings()
        self.say(_("Resumed: the timer goes on from where it stood."))

    # --- new games ---------------------------------------------------------------------------

    def action_new_game(self) -> None:
        if self._confirmed("n", _("start a new game ({leave})").format(leave=self._leave())):
            self._new(self.game.rows, self.game.cols, self.game.mines)

    def action_preset(self, name: str) -> None:
        keys = {"beginner": "1", "intermediate": "2", "expert": "3"}
        if self._confirmed(
            keys.get(name, name), _("start a new game ({leave})").format(leave=self._leave())
        ):
            p = preset(name)
            self._new(p.rows, p.cols, p.mines)

    def _new(self, rows: int, cols: int, mines: int) -> None:
        if self.busy == WORKING:
            self.say(STILL_WORKING)
            return
        try:
            game = self._make_game(rows, cols, mines)
        except MinesError as error:  # a server's game: the server may be away
            self.say(_("No new game: {error}.").format(error=error))
            return
        self._redo.clear()
        self._play(game, Autosave(self._store, game, practice=self.practice))
        self.board.move_cursor(rows // 2, cols // 2)
        self.say(_("New game. Good luck!"))

    # --- thinking: hints and the search for what is left -------------------------------------

    def _think(
        self,
        kind: str,
        said: str,
        work: Callable[[], object],
        done: Callable[..., None],
        refusal: str,
    ) -> bool:
        """Run `work` off the UI thread with the state `kind` (the clock stopped: the machine's
        time is not the player's), then `done(result)` on it, unless the game moved meanwhile."""
        self._pending = None
        if self.busy:
            self.say(
                STILL_WORKING
                if self.busy == WORKING
                else _("Still busy: {busy}").format(busy=self.busy)
            )
            return False
        if self.game.status.is_over:
            self.say(GAME_OVER)
            return False
        self.say(said)
        self.busy = kind
        self._sync_clock()
        self.update_status()
        game, turn = self.game, self._turn

        def run() -> None:
            try:
                result: object = work()
            except MinesError as error:
                self._from_thread(self._thought, game, turn, None, f"{refusal}: {error}.")
                return
            self._from_thread(self._thought, game, turn, lambda: done(result), "")

        # A daemon thread, not a Textual worker: quitting must not wait for the solver.
        self.hint_thread = threading.Thread(target=run, daemon=True)
        self.hint_thread.start()
        return True

    def _thought(
        self, game: PlayedGame, turn: int, then: Callable[[], None] | None, error: str
    ) -> None:
        if game is not self.game or turn != self._turn:
            return  # the player moved on while the solver thought
        self._stop_thinking()
        self.update_status()
        if then is None:
            self.say(error)
        else:
            then()

    def _from_thread(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(callback, *args)

    def _stop_thinking(self) -> None:
        if self.busy in (THINKING, SEARCHING):
            self.busy = ""
            self._sync_clock()

    def _sync_clock(self) -> None:
        """The clock stands still while the player pauses, while the terminal is too small to
        show the board, while the solver thinks and while a long move works: the machine's
        time is not the player's."""
        if self._paused or self.busy or self.layout.small:
            self.clock.pause()
        else:
            self.clock.resume()

    def action_hint(self) -> None:
        game, cursor = self.game, self.board.cursor
        server = self.server_game
        if server is not None and server.ranks and not server.status.is_over:
            pending, self._pending = self._pending, None
            if pending != "?":
                self._pending = "?"
                self.say(_("A hint takes this game off the leaderboard: press ? again for one."))
                return
        self._think(
            THINKING,
            _("Thinking... (the clock stops while the solver thinks)"),
            lambda: self._hint(game, cursor),
            self._show_hint,
            _("No hint"),
        )

    def _show_hint(self, hint: Hint) -> None:
        self.board.move_cursor(hint.row, hint.col)
        self.autosave.cursor = self.board.cursor
        try:
            self.autosave.hinted()
        except OSError as error:
            self.say(_("Could not save the game: {error}.").format(error=error))
        self.say(_("Hint: {reason}").format(reason=hint.reason))

    def action_not_on_a_server(self, name: str) -> None:
        """A key that only a game played here offers, pressed in a server's game: why not."""
        self._pending = None
        self.say(NOT_ON_A_SERVER[name])

    def action_find(self) -> None:
        """Go to the nearest cell still to decide; pressed again where nothing was found
        (the cursor has not moved), it searches on beyond where it stopped."""
        game, cursor = self.game, self.board.cursor
        beyond = 0
        if self._searched is not None and self._searched[0] == cursor:
            beyond = self._searched[1]
        self._think(
            SEARCHING,
            _("Searching for the nearest cell still to decide (the clock waits)..."),
            lambda: self._find(game, cursor, beyond),
            lambda search: self._found(cursor, search),
            _("Nothing found"),
        )

    def _found(self, start: tuple[int, int], search: Search) -> None:
        if search.cell is None:
            self._searched = (start, search.radius)
            self.say(
                _(
                    "Nothing still to decide within {radius:,} cells of {start}: g searches "
                    "further."
                ).format(radius=search.radius, start=start)
            )
            return
        self._searched = None
        row, col = search.cell
        self.board.move_cursor(row, col)
        self.say(f"({row}, {col}): {search.reason}")

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
            self.say(
                STILL_WORKING
                if self.busy == WORKING
                else _("Still busy: {busy}").format(busy=self.busy)
            )
            return
        journal = self.autosave.journal
        if not journal.moves:
            self.say(_("Nothing to undo: no move has been made."))
            return
        record = journal.record()
        *kept, undone = journal.moves
        try:
            placer = local(self.game).placer
            game = rebuilt(record, len(kept), self.clock, self.game.elapsed, placer)
        except MinesError as error:
            self.say(_("Cannot undo: {error}").format(error=error))
            return
        self._redo.append(undone.move)
        self._play(game)
        try:
            withdrawn = self.autosave.follow(game, kept)
        except OSError as error:
            self.say(_("Could not save the game: {error}.").format(error=error))
        else:
            if withdrawn is not None and str(withdrawn) in self.saved:
                self.saved.remove(str(withdrawn))
        move = undone.move
        self.board.move_cursor(move.row, move.col)
        again = "" if kept else _(" The board is dealt again at the next first click.")
        self.say(_("Undone: {move}. U redoes it.{again}").format(move=describe(move), again=again))

    def action_redo(self) -> None:
        if self.busy:
            self.say(
                STILL_WORKING
                if self.busy == WORKING
                else _("Still busy: {busy}").format(busy=self.busy)
            )
            return
        if not self._redo:
            self.say(_("Nothing to redo: no move has been undone since the last one made."))
            return
        self.board.play(self._redo[-1])

    def action_undo_elsewhere(self) -> None:
        if self.server_game is not None:
            self.say(NOT_ON_A_SERVER["undo"])
            return
        self.say(_("Undo is for practice games: start one with mines play --practice."))

    def action_review(self) -> None:
        """The finished game's review on a screen of its own; none while the game is on (its
        chances would tell what the player does not see)."""
        if not self.game.status.is_over:
            self.say(_("The review opens once the game is over."))
            return
        try:
            record = self.game.record()  # a game on a server: read from the server
        except MinesError as error:
            self.say(_("No review: {error}.").format(error=error))
            return
        from mines.tui.review_screen import ReviewScreen  # with the solver: on first use

        self.push_screen(ReviewScreen(record, self._theme))

    def action_next_theme(self) -> None:
        names = list(THEMES)
        self._theme = THEMES[names[(names.index(self._theme.name) + 1) % len(names)]]
        self.board.set_theme(self._theme)
        self._apply_theme()
        self.say(_("Theme: {name}").format(name=self._theme.name))

    def _apply_theme(self) -> None:
        """The mono board theme takes the app's colours away too, as its description says."""
        self.theme = MONO_THEME.name if self._theme.name == "mono" else "textual-dark"

    def action_help(self) -> None:
        self.push_screen(
            HelpScreen(
                [
                    (_("Board"), key_lines(Board.BINDINGS)),
                    (_("Game"), key_lines(self.BINDINGS)),
                    (_("Mouse"), MOUSE),
                ],
                message=self.message,
            )
        )
