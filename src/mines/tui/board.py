"""`Board`: a scrolling window onto a game: renders windowed views, sends the moves."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from mines.engine import CellChanges
from mines.errors import IllegalMoveError
from mines.moves import Move, MoveKind
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.language import _
from mines.tui.played import PlayedGame
from mines.tui.remote import ServerError
from mines.tui.rulers import column_ruler, gutter_width, row_label
from mines.tui.themes import CELL_WIDTH, Theme
from mines.view import BoardView

MOVES = frozenset({"open", "flag", "chord"})
"""Actions that change the game; a read-only board (a replay) refuses them."""
LONG_MOVE_CELLS = 1_000_000
"""On boards of more cells, reveals and chords run off the UI thread (a flood may be long)."""
STILL_WORKING = _("Still working on the last move: a moment, please.")
GAME_OVER = _("The game is over: n starts a new one.")
_HIDDEN = ord(Cell.HIDDEN.value)


class Board(ScrollView, can_focus=True):
    """Draws only the cells in sight, fetched as a windowed view, and repaints only changed ones.

    It keeps no game state of its own beyond the cursor: every symbol comes from
    `view(top, left, height, width)` of the game it shows (a `PlayedGame`: a local `Game` or
    a game on a server) and every move goes through its `play`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k,w", "move(-1, 0)", _("Move up"), show=False),
        Binding("down,j,s", "move(1, 0)", _("Move down"), show=False),
        Binding("left,h,a", "move(0, -1)", _("Move left"), show=False),
        Binding("right,l,d", "move(0, 1)", _("Move right"), show=False),
        Binding("pageup", "page(-1)", _("Page up"), show=False),
        Binding("pagedown", "page(1)", _("Page down"), show=False),
        Binding("home", "edge(0)", _("First column"), show=False),
        Binding("end", "edge(1)", _("Last column"), show=False),
        Binding("space,enter", "open", _("Reveal"), tooltip=_("Reveal; on a number, chord")),
        Binding("f", "flag", _("Flag"), tooltip=_("Flag or unflag")),
        # Once the game is over the footer drops Reveal and Flag; the keys still answer, saying
        # so (as u does where undo is not offered).
        Binding("space,enter,f", "game_over", _("Reveal"), show=False),
        # Not in the footer: space chords a number too. The help lists it.
        Binding(
            "c",
            "chord",
            _("Chord"),
            show=False,
            tooltip=_("Chord: open around a number whose mines are flagged"),
        ),
    ]

    class Moved(Message):
        """The player made a move (or tried to: `error` says why it was not allowed).

        `move` is the move tried, if any, and `at` the game's time just before it: the time
        the game records it at."""

        def __init__(self, error: str | None, move: Move | None = None, at: float = 0.0) -> None:
            super().__init__()
            self.error = error
            self.move = move
            self.at = at

    class Busy(Message):
        """A long move started (True) or ended (False) off the UI thread."""

        def __init__(self, busy: bool) -> None:
            super().__init__()
            self.busy = busy

    class CursorMoved(Message):
        """The cursor or the window moved: for the position indicator."""

    class LongMoveDone(Message):
        """A long move's thread has finished; the rest as for `Moved`."""

        def __init__(self, game: PlayedGame, moved: Board.Moved) -> None:
            super().__init__()
            self.game = game
            self.moved = moved

    def __init__(
        self,
        game: PlayedGame,
        theme: Theme,
        *,
        read_only: bool = False,
        marks: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.read_only = read_only
        self.marks_on = marks
        """Whether `f` goes on from a flag to a question mark (the player's note, not a move)."""
        self.marks: dict[int, set[int]] = {}
        """Question marks by row: hidden cells the player is unsure of (never saved)."""
        self.busy = False
        """A long move is running off the UI thread: the game is not read until it ends."""
        self.cursor = (0, 0)
        self.rulers = False
        """Whether a row ruler (at the left) and a column ruler (on top) frame the cells."""
        self._gutter = self._ruler = 0
        self.set_theme(theme)
        self._visible: BoardView | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._game = game
        self.show_game(game)

    @property
    def game(self) -> PlayedGame:
        return self._game

    def show_game(self, game: PlayedGame) -> None:
        """Draw another game (a new one, an undo's rebuild, a replay's step) in this board."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._game = game
        self.marks = {}
        cells, status = game.on_cells(self._cells_changed), game.on_status(self._status_changed)

        def unsubscribe() -> None:
            cells()
            status()

        self._unsubscribe = unsubscribe
        self._frame()
        self.cursor = (min(self.cursor[0], game.rows - 1), min(self.cursor[1], game.cols - 1))
        self._visible = None
        self.refresh()

    def set_theme(self, theme: Theme) -> None:
        self._segments = theme.segments(cursor=False)
        self._cursor_segments = theme.segments(cursor=True)
        self._neighbour_segment = theme.neighbour_segment()
        self._mark_segments = (theme.mark_segment(cursor=False), theme.mark_segment(cursor=True))
        self.refresh()

    def show_rulers(self, on: bool) -> None:
        """Frame the cells with rulers of their row and column numbers, or take them away."""
        if on != self.rulers:
            self.rulers = on
            self._frame()
            self._follow_cursor()
            self.refresh()

    def _frame(self) -> None:
        """The scrollable size: the board's cells, and the rulers when they show.

        The rulers take the first line and the first columns of the widget and do not
        scroll; the scroll offset stays a count of the board's own lines and text columns.
        """
        game = self._game
        self._gutter = gutter_width(game.rows) if self.rulers else 0
        self._ruler = 1 if self.rulers else 0
        self.virtual_size = Size(game.cols * CELL_WIDTH + self._gutter, game.rows + self._ruler)

    # --- drawing -----------------------------------------------------------------------------

    def _sight(self) -> Size:
        """Terminal columns and lines left for the cells, beside and below the rulers."""
        region = self.scrollable_content_region
        return Size(max(0, region.width - self._gutter), max(0, region.height - self._ruler))

    def window(self) -> tuple[int, int, int, int]:
        """(top, left, height, width) in cells of the part of the board in sight."""
        region = self._sight()
        scroll_x, scroll_y = self.scroll_offset
        top = min(scroll_y, self._game.rows - 1)
        left = min(scroll_x // CELL_WIDTH, self._game.cols - 1)
        across = -(-(scroll_x % CELL_WIDTH + region.width) // CELL_WIDTH)
        height = max(1, min(region.height, self._game.rows - top))
        width = max(1, min(across, self._game.cols - left))
        return top, left, height, width

    def _view(self) -> BoardView:
        top, left, height, width = self.window()
        view = self._visible
        if self.busy and view is not None:
            return view  # the game is locked by the long move; its last picture stands
        if view is None or (view.top, view.left, view.height, view.width) != (
            top,
            left,
            height,
            width,
        ):
            view = self._visible = self._game.view(top, left, height, width)
        return view

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self._sight().width
        if y < self._ruler:
            ruler = column_ruler(scroll_x, width, self._game.cols, self.cursor[1])
            return Strip([Segment(" " * self._gutter), *ruler], self._gutter + width)
        row = scroll_y + y - self._ruler
        view = self._view()
        if not view.top <= row < view.top + view.height:
            return Strip.blank(self._gutter + width)
        codes = view.array[row - view.top].tolist()
        won = view.status is GameStatus.WON
        segments = [self._segments[code] for code in codes]
        cursor_row, cursor_col = self.cursor
        for col in self.marks.get(row, ()):
            if view.left <= col < view.left + view.width and codes[col - view.left] == _HIDDEN:
                segments[col - view.left] = self._mark_segments[(row, col) == self.cursor]
        if abs(cursor_row - row) <= 1 and not won and self._on_number(view):
            # The hidden cells a chord of the number under the cursor would open.
            for col in range(max(cursor_col - 1, view.left), cursor_col + 2):
                if col < view.left + view.width and codes[col - view.left] == _HIDDEN:
                    segments[col - view.left] = self._neighbour_segment
        if cursor_row == row and view.left <= cursor_col < view.left + view.width:
            code = codes[cursor_col - view.left]
            if code == _HIDDEN and cursor_col in self.marks.get(row, ()):
                segments[cursor_col - view.left] = self._mark_segments[True]
            else:
                segments[cursor_col - view.left] = self._cursor_segments[code]
        skip = scroll_x - view.left * CELL_WIDTH
        cells = Strip(segments, len(segments) * CELL_WIDTH).crop(skip, skip + width)
        if not self._gutter:
            return cells
        label = row_label(row, self._gutter, cursor=row == cursor_row)
        return Strip.join([Strip(label, self._gutter), cells])

    def _on_number(self, view: BoardView) -> bool:
        """Whether the cursor is on a revealed number that is in sight."""
        row, col = self.cursor
        inside = (
            view.top <= row < view.top + view.height and view.left <= col < view.left + view.width
        )
        return inside and view[row, col].is_revealed_number

    def _cursor_regions(self, row: int, col: int) -> list[Region]:
        """What to repaint when the cursor comes or goes: its cell, and the 3x3 around it when
        it is on a number, whose hidden neighbours are marked."""
        view = self._visible
        inside = view is not None and (
            view.top <= row < view.top + view.height and view.left <= col < view.left + view.width
        )
        if view is not None and inside and not view[row, col].is_revealed_number:
            return [self._cell_region(row, col)]
        return [self._cell_region(r, col - 1, 3) for r in range(row - 1, row + 2)]

    def _cell_region(self, row: int, col: int, cells: int = 1) -> Region:
        scroll_x, scroll_y = self.scroll_offset
        x = self._gutter + col * CELL_WIDTH - scroll_x
        return Region(x, self._ruler + row - scroll_y, cells * CELL_WIDTH, 1)

    def _ruler_regions(self, row: int) -> list[Region]:
        """The rulers' parts that mark the cursor: the column ruler and one row's label."""
        if not self.rulers:
            return []
        width = self.scrollable_content_region.width
        y = self._ruler + row - self.scroll_offset.y
        return [Region(0, 0, width, self._ruler), Region(0, y, self._gutter, 1)]

    def _cells_changed(self, changes: CellChanges) -> None:
        if self.busy:
            return  # called on the long move's thread: the whole window is redrawn after it
        top, left, height, width = self.window()
        bounds = changes.bounds()
        if bounds is None:
            return
        low_row, low_col, high_row, high_col = bounds
        if (
            high_row <= top
            or low_row >= top + height
            or high_col <= left
            or low_col >= left + width
        ):
            return
        # One span per changed row in sight: a flood over a huge board costs only the window.
        spans: dict[int, tuple[int, int]] = {}
        for row, col in changes.within(top, left, height, width):
            first, last = spans.get(row, (col, col))
            spans[row] = (min(first, col), max(last, col))
        self._visible = None
        for row, (first, last) in spans.items():
            self.refresh(self._cell_region(row, first, last - first + 1))

    def _status_changed(self, status: GameStatus) -> None:
        """The game ended: every cell in sight is drawn again, not only the ones the last move
        changed, for what a cell shows may depend on how the game ended (after a win, the
        mines still hidden are drawn flagged)."""
        if self.busy:
            return  # on the long move's thread: the whole window is redrawn after it anyway
        self._visible = None
        self.refresh()

    # --- cursor ------------------------------------------------------------------------------

    def move_cursor(self, row: int, col: int) -> None:
        """Put the cursor on a cell (clamped to the board) and scroll it into sight."""
        row = max(0, min(row, self._game.rows - 1))
        col = max(0, min(col, self._game.cols - 1))
        old_row, old_col = self.cursor
        self.cursor = (row, col)
        self.refresh(
            *self._cursor_regions(old_row, old_col),
            *self._cursor_regions(row, col),
            *self._ruler_regions(old_row),
            *self._ruler_regions(row),
        )
        self._follow_cursor()
        self.post_message(self.CursorMoved())

    def _follow_cursor(self) -> None:
        """Scroll when the cursor leaves the window, centring it on that axis.

        Jumping by half a screen, not by one cell, means walking along a big board
        scrolls (and so repaints the whole window) once every half screen, not every step.
        """
        region = self._sight()
        scroll_x, scroll_y = self.scroll_offset
        row, col = self.cursor
        x = col * CELL_WIDTH
        if not scroll_x <= x <= scroll_x + region.width - CELL_WIDTH:
            # Whole cells: a half cell at the left edge would sit against the row ruler.
            scroll_x = max(0, col - region.width // (2 * CELL_WIDTH)) * CELL_WIDTH
        if not scroll_y <= row < scroll_y + region.height:
            scroll_y = max(0, row - region.height // 2)
        if (scroll_x, scroll_y) != tuple(self.scroll_offset):
            self.scroll_to(scroll_x, scroll_y, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """Keep the cursor in sight when the terminal (or the board's space) changes size."""
        self._follow_cursor()
        self.post_message(self.CursorMoved())

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_x(old_value, new_value)
        if round(old_value) != round(new_value):
            self.post_message(self.CursorMoved())

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.post_message(self.CursorMoved())

    def _still_working(self) -> bool:
        """While a long move runs, keys are answered at once with a word, not queued."""
        if self.busy:
            self.post_message(self.Moved(STILL_WORKING))
        return self.busy

    def go_to(self, row: int, col: int) -> None:
        """Move the cursor to a cell (a click on the minimap), unless a long move runs."""
        if not self._still_working():
            self.move_cursor(row, col)

    def action_move(self, rows: int, cols: int) -> None:
        if self._still_working():
            return
        self.move_cursor(self.cursor[0] + rows, self.cursor[1] + cols)

    def action_page(self, direction: int) -> None:
        if self._still_working():
            return
        step = max(1, self._sight().height - 1)
        self.move_cursor(self.cursor[0] + direction * step, self.cursor[1])

    def action_edge(self, end: int) -> None:
        if self._still_working():
            return
        self.move_cursor(self.cursor[0], end * (self._game.cols - 1))

    # --- moves -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        over = self._game.status.is_over
        if action == "game_over":
            return over and not self.read_only
        if self.read_only and action in MOVES:
            return False
        return not (over and action in ("open", "flag"))

    def action_game_over(self) -> None:
        self.post_message(self.Moved(GAME_OVER))

    def _cursor_cell(self) -> Cell:
        row, col = self.cursor
        return self._game.view(row, col, 1, 1)[row, col]

    def play(self, move: Move) -> None:
        """Put the cursor on the move's cell and make it there (a redo)."""
        if self._still_working():
            return
        self.move_cursor(move.row, move.col)
        cell = self._cursor_cell()
        self._play(move.kind, long=move.kind is not MoveKind.FLAG and _may_flood(cell))

    def _play(self, kind: MoveKind, *, long: bool = False) -> None:
        """Make a move at the cursor; on a big board a reveal or chord that may flood (`long`)
        runs on its own thread. One the engine will refuse at once (the game is over) is
        answered here.

        A plain daemon thread, not a Textual thread worker: those run in asyncio's default
        executor, whose threads are joined at exit, so quitting would wait for a long flood.
        """
        game = self._game
        move = Move(kind, *self.cursor)
        at = game.elapsed  # no long move runs (`_still_working`): the game's lock is free
        big = game.rows * game.cols > LONG_MOVE_CELLS
        if long and big and not game.status.is_over:
            self.busy = True
            self.post_message(self.Busy(True))
            threading.Thread(
                target=self._play_off_thread, args=(game, move, at), daemon=True
            ).start()
            return
        self.post_message(self.Moved(_attempt(game, move), move, at))

    def _play_off_thread(self, game: PlayedGame, move: Move, at: float) -> None:
        moved = self.Moved(_attempt(game, move), move, at)
        self.post_message(self.LongMoveDone(game, moved))  # post_message is thread-safe

    def on_board_long_move_done(self, message: LongMoveDone) -> None:
        message.stop()
        self.busy = False
        self._visible = None
        self.refresh()
        self.post_message(self.Busy(False))
        if message.game is self._game:
            self.post_message(message.moved)

    def action_open(self) -> None:
        """Reveal the cursor's cell; on a revealed number, chord it (as the mouse does)."""
        if self._still_working():
            return
        cell = self._cursor_cell()
        kind = MoveKind.CHORD if cell.is_revealed_number else MoveKind.OPEN
        self._play(kind, long=_may_flood(cell))

    def action_flag(self) -> None:
        """Flag or unflag; with marks on, a flag becomes a question mark, then hidden again."""
        if self._still_working():
            return
        row, col = self.cursor
        marked = self.marks.get(row, set())
        if self.marks_on and col in marked:
            marked.discard(col)
            self.refresh(self._cell_region(row, col))
            self.post_message(self.Moved(None))
            return
        if self.marks_on and self._cursor_cell() is Cell.FLAG:
            self.marks.setdefault(row, set()).add(col)
        self._play(MoveKind.FLAG)

    def action_chord(self) -> None:
        if not self._still_working():
            self._play(MoveKind.CHORD, long=_may_flood(self._cursor_cell()))

    def on_click(self, event: events.Click) -> None:
        """Left click reveals (or chords a number), right click flags, middle click chords."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        scroll_x, scroll_y = self.scroll_offset
        x, y = offset.x - self._gutter, offset.y - self._ruler
        if x < 0 or y < 0:
            return  # on a ruler
        row, col = y + scroll_y, (x + scroll_x) // CELL_WIDTH
        if not (0 <= row < self._game.rows and 0 <= col < self._game.cols):
            return
        if self._still_working():
            return
        self.move_cursor(row, col)
        if self.read_only:
            return
        if event.button == 3:
            self.action_flag()
        elif event.button == 2:
            self.action_chord()
        else:
            self.action_open()


def _may_flood(cell: Cell) -> bool:
    """Whether a reveal or chord of this cell may open many cells: a hidden cell, or a number
    with hidden neighbours. On a 0 (its neighbours all open), a flag or a mine nothing opens,
    and the engine answers at once."""
    return cell is Cell.HIDDEN or (cell.is_revealed_number and cell is not Cell.ZERO)


def _attempt(game: PlayedGame, move: Move) -> str | None:
    """Make the move; None when it was allowed, else why not (the rules refused it, or the
    server of a game played there could not be reached: the game is kept there)."""
    try:
        game.play(move)
    except (IllegalMoveError, ServerError) as problem:
        return str(problem)
    return None
