"""`ReviewScreen`: a finished game move by move, the board as it was shaded by each cell's chance
of a mine, and the solver's verdict in words."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Static

from mines.errors import MinesError
from mines.moves import MoveKind
from mines.record import GameRecord
from mines.solver import MoveReview, Review, review
from mines.solver.game_review import Chances, percent
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.language import _
from mines.tui.themes import CELL_WIDTH, Theme, contrast
from mines.tui.words import describe
from mines.view import BoardView

SHADES = ((Fraction(1, 5), "░"), (Fraction(1, 2), "▒"), (Fraction(1), "▓"))
"""The glyph of an undecided hidden cell by its chance of a mine (up to each bound): the shade
reads without colour (the mono theme, a screen reader's braille line)."""
SAFE, MINE = "✓", "!"
"""Hidden cells the player could know for certain: safe, or a mine."""
MOVED = "◂"
"""Drawn after the glyph of the cell the move was made on."""
DANGER = Color.parse("#c80000")


def chance_words(chances: Chances | None, board: BoardView, row: int, col: int) -> str:
    """What a cell was at a position, in words: its chance of a mine, or what it showed."""
    symbol = board[row, col]
    if symbol not in (Cell.HIDDEN, Cell.FLAG):
        return "open"
    if chances is None:
        return "hidden" if symbol is Cell.HIDDEN else "flagged"
    chance = chances.chance(row, col)
    flagged = _(", flagged") if symbol is Cell.FLAG else ""
    if chance == 0:
        return _("certainly safe{flagged}").format(flagged=flagged)
    if chance == 1:
        return _("certainly a mine{flagged}").format(flagged=flagged)
    return _("a {chance} chance of a mine{flagged}").format(chance=percent(chance), flagged=flagged)


def is_guess(moved: MoveReview) -> bool:
    """A reveal or chord that risked a mine (a guess, or a certain mine): worth a look."""
    return moved.move.kind is not MoveKind.FLAG and moved.risk > 0


class ReviewBoard(ScrollView, can_focus=True):
    """The board at one position of the review, each unrevealed cell shaded by its chance."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k,w", "move(-1, 0)", _("Move up"), show=False),
        Binding("down,j,s", "move(1, 0)", _("Move down"), show=False),
        Binding("left,h,a", "move(0, -1)", _("Move left"), show=False),
        Binding("right,l,d", "move(0, 1)", _("Move right"), show=False),
    ]

    class CursorMoved(Message):
        """The cursor is on another cell."""

    def __init__(self, theme: Theme, board: BoardView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.palette = theme
        self.board = board
        self.chances: Chances | None = None
        self.moved: tuple[int, int] | None = None
        self.cursor = (0, 0)
        self.virtual_size = Size(board.cols * CELL_WIDTH, board.rows)

    def show(
        self, board: BoardView, chances: Chances | None, moved: tuple[int, int] | None
    ) -> None:
        """Draw another position: the board then, its chances (none at the end) and the move."""
        self.board, self.chances, self.moved = board, chances, moved
        if moved is not None:
            self.move_cursor(*moved)
        self.refresh()

    def move_cursor(self, row: int, col: int) -> None:
        board = self.board
        self.cursor = (max(0, min(board.rows - 1, row)), max(0, min(board.cols - 1, col)))
        row, col = self.cursor
        self.scroll_to_region(Region(col * CELL_WIDTH, row, CELL_WIDTH, 1), animate=False)
        self.refresh()
        self.post_message(self.CursorMoved())

    def action_move(self, rows: int, cols: int) -> None:
        self.move_cursor(self.cursor[0] + rows, self.cursor[1] + cols)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        scroll_x, scroll_y = self.scroll_offset
        self.move_cursor(scroll_y + offset.y, (scroll_x + offset.x) // CELL_WIDTH)

    def cell(self, row: int, col: int) -> Segment:
        """One cell as drawn: the theme's, shaded by its chance when it was unrevealed."""
        board, theme = self.board, self.palette
        symbol = board[row, col]
        style = theme.styles[symbol]
        glyph = theme.glyphs[symbol]
        chances = self.chances
        if chances is not None and symbol in (Cell.HIDDEN, Cell.FLAG):
            chance = chances.chance(row, col)
            if symbol is Cell.HIDDEN:
                glyph = shade_glyph(chance)
            if style.bgcolor is not None:
                style = shaded(style, chance)
        if (row, col) == self.cursor:
            style = style + theme.cursor
        second = MOVED if (row, col) == self.moved else " "
        return Segment(glyph + second * (CELL_WIDTH - 1), style)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        row = scroll_y + y
        if row >= self.board.rows:
            return Strip.blank(width)
        segments = [self.cell(row, col) for col in range(self.board.cols)]
        return Strip(segments, self.board.cols * CELL_WIDTH).crop(scroll_x, scroll_x + width)


def shade_glyph(chance: Fraction) -> str:
    """An unrevealed cell's glyph by its chance of a mine (`SAFE`, `MINE` or a shade)."""
    if chance == 0:
        return SAFE
    if chance == 1:
        return MINE
    return next(glyph for bound, glyph in SHADES if chance <= bound)


def shaded(style: Style, chance: Fraction) -> Style:
    """The cell's background blended towards red by its chance, its glyph in black or white,
    whichever reads better on it."""
    assert style.bgcolor is not None
    base = style.bgcolor.get_truecolor()
    red = DANGER.get_truecolor()
    share = float(chance) * 0.8
    mixed = tuple(round(a + (b - a) * share) for a, b in zip(base, red, strict=True))
    background = Color.from_rgb(*mixed)
    triplet = background.get_truecolor()
    readable = max(
        ("#000000", "#ffffff"), key=lambda c: contrast(Color.parse(c).get_truecolor(), triplet)
    )
    return style + Style(bgcolor=background, color=readable)


class ReviewScreen(ModalScreen[None]):
    """Steps through a finished game's review; escape or r goes back to the game.

    Modal: only its own keys work (and its footer lists only them); the game's keys do not
    reach the game behind it, which the review never changes."""

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; background: $background; }
    #review-summary { height: auto; padding: 0 1; background: $primary-background; }
    #review-move { height: auto; min-height: 2; padding: 0 1; text-style: bold; }
    #review-board { height: 1fr; width: 1fr; scrollbar-size: 0 0; }
    #review-cell { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,full_stop", "step(1)", _("Next move")),
        Binding("b,comma", "step(-1)", _("Back")),
        Binding("home", "jump(0)", _("Start")),
        Binding("end", "jump(1)", _("End")),
        Binding("g", "guess(1)", _("Next guess"), tooltip=_("The next move that took a risk")),
        Binding(
            "G", "guess(-1)", _("Previous guess"), tooltip=_("The move before that took a risk")
        ),
        Binding("escape,r", "close", _("Back to the game")),
    ]

    def __init__(self, record: GameRecord, theme: Theme) -> None:
        super().__init__()
        self.record = record
        self._theme = theme
        self.review: Review | None = None
        self.position = 0
        """Moves made before the board shown (0: the first move's board; the last: the end)."""

    def compose(self) -> ComposeResult:
        record = self.record
        blank = BoardView.from_strings(["H" * record.cols] * record.rows)
        yield Static(_("Reviewing: the solver judges every move…"), id="review-summary")
        yield Static(id="review-move")
        yield ReviewBoard(self._theme, blank, id="review-board")
        yield Static(id="review-cell")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ReviewBoard).focus()
        self._judge()

    @work(thread=True, exclusive=True)
    def _judge(self) -> None:
        """The review, off the UI thread: a big game takes seconds."""
        try:
            found = review(self.record)
        except MinesError as error:
            self.app.call_from_thread(self._refused, str(error))
            return
        self.app.call_from_thread(self._judged, found)

    def _refused(self, why: str) -> None:
        if self.is_attached:  # not closed while the solver worked
            self.query_one("#review-summary", Static).update(_("No review: {why}").format(why=why))

    def _judged(self, found: Review) -> None:
        if not self.is_attached:  # closed while the solver worked: nothing to show it on
            return
        self.review = found
        self.query_one("#review-summary", Static).update(found.summary())
        self.show(0)

    @property
    def length(self) -> int:
        return 0 if self.review is None else len(self.review.moves)

    def show(self, position: int) -> None:
        """Draw the board after `position` moves, with the move made from it."""
        found = self.review
        if found is None:
            return
        self.position = position = max(0, min(self.length, position))
        board = self.query_one(ReviewBoard)
        text = self.query_one("#review-move", Static)
        if position == self.length:
            board.show(found.final, None, None)
            result = "won" if found.status is GameStatus.WON else "lost"
            text.update(
                _("The end ({length} moves): {result} in {elapsed:.2f}s.").format(
                    length=self.length, result=result, elapsed=found.elapsed
                )
            )
            return
        moved = found.moves[position]
        board.show(moved.board, moved.chances, (moved.move.row, moved.move.col))
        # The solver's sentence says the verdict: its words are the browser's and `mines
        # review`'s (one source, `mines.solver.game_review`).
        where = _("Move {position} of {length}: {move}").format(
            position=position + 1, length=self.length, move=describe(moved.move)
        )
        text.update(f"{where}. {moved.comment}")

    def on_review_board_cursor_moved(self, message: ReviewBoard.CursorMoved) -> None:
        board = self.query_one(ReviewBoard)
        row, col = board.cursor
        words = chance_words(board.chances, board.board, row, col)
        self.query_one("#review-cell", Static).update(f"({row}, {col}): {words}")

    def action_step(self, direction: int) -> None:
        self.show(self.position + direction)

    def action_jump(self, end: int) -> None:
        self.show(self.length if end else 0)

    def action_guess(self, direction: int) -> None:
        """To the next (1) or previous (-1) move that took a risk."""
        if self.review is None:
            return
        moves = self.review.moves
        order = (
            range(self.position + 1, len(moves))
            if direction > 0
            else range(min(self.position, len(moves)) - 1, -1, -1)
        )
        for index in order:
            if is_guess(moves[index]):
                self.show(index)
                return
        self.query_one("#review-cell", Static).update(
            _("No guess after this move.") if direction > 0 else _("No guess before this move.")
        )

    def action_close(self) -> None:
        self.dismiss(None)
