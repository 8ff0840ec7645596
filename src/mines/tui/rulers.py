"""Where the window is on a board bigger than the screen: the rulers' text and the minimap."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from mines.tui.themes import CELL_WIDTH

LABEL_EVERY = 5
"""Rows and columns whose number is a multiple of this are labelled; the others get a tick.
With two terminal columns a cell, five cells leave room for a label of up to 9 digits."""
TICK = "·"
LABEL_STYLE = Style(dim=True)
CURSOR_STYLE = Style(reverse=True, bold=True)
"""The cursor's own row and column number, always shown, whatever the thinning."""


def gutter_width(rows: int) -> int:
    """Columns of the row ruler: the longest row number and a space."""
    return len(str(rows - 1)) + 1


def row_label(row: int, width: int, *, cursor: bool) -> list[Segment]:
    """The row ruler's text on one row: its number every few rows, on the cursor's row always."""
    if cursor:
        return [Segment(f"{row:>{width - 1}}", CURSOR_STYLE), Segment(" ")]
    text = str(row) if row % LABEL_EVERY == 0 else TICK
    return [Segment(f"{text:>{width - 1}} ", LABEL_STYLE)]


def column_ruler(scroll_x: int, width: int, cols: int, cursor_col: int) -> list[Segment]:
    """The column ruler over `width` terminal columns from `scroll_x` (in the board's columns of
    text): labels at multiples of `LABEL_EVERY` where they fit whole, a tick on the other
    cells, and the cursor's column number over its cell, in reverse."""
    chars = [" "] * width
    owner = [False] * width
    """Which characters a label already holds: a later label or tick may not overwrite them."""

    def x_of(col: int) -> int:
        return col * CELL_WIDTH - scroll_x

    def place(text: str, x: int) -> bool:
        # A label is placed whole or not at all: a cut "50" of "500" would lie.
        if x < 0 or x + len(text) > width or any(owner[max(0, x - 1) : x + len(text) + 1]):
            return False
        chars[x : x + len(text)] = text
        owner[x : x + len(text)] = [True] * len(text)
        return True

    cursor_text = str(cursor_col)
    cursor_x = x_of(cursor_col)
    if 0 <= cursor_x < width:
        # Shifted left when it would run past the edge: it still starts over the cursor's cell
        # or covers it.
        cursor_x = max(0, min(cursor_x, width - len(cursor_text)))
        place(cursor_text, cursor_x)
    else:
        cursor_x = -1
    first = max(0, scroll_x // CELL_WIDTH)
    last = min(cols - 1, (scroll_x + width - 1) // CELL_WIDTH)
    for col in range(first, last + 1):
        x = x_of(col)
        if col % LABEL_EVERY == 0 and place(str(col), x):
            continue
        if 0 <= x < width and not any(owner[max(0, x - 1) : x + 2]):
            chars[x] = TICK
    text = "".join(chars)
    if cursor_x < 0:
        return [Segment(text, LABEL_STYLE)]
    end = cursor_x + len(cursor_text)
    return [
        Segment(text[:cursor_x], LABEL_STYLE),
        Segment(text[cursor_x:end], CURSOR_STYLE),
        Segment(text[end:], LABEL_STYLE),
    ]


@dataclass(frozen=True)
class MapShape:
    """The minimap's size in characters for a board: its proportions, at most `WIDTH` x
    `HEIGHT` (a character is about twice as tall as wide, a cell about square)."""

    width: int
    height: int

    WIDTH = 16
    HEIGHT = 8

    @classmethod
    def of(cls, rows: int, cols: int) -> MapShape:
        # A map character stands for a block twice as tall as wide, in cells.
        height = rows / 2
        scale = min(cls.WIDTH / cols, cls.HEIGHT / height)
        return cls(
            max(1, min(cls.WIDTH, round(cols * scale))),
            max(1, min(cls.HEIGHT, round(height * scale))),
        )


def minimap_lines(
    rows: int, cols: int, window: tuple[int, int, int, int], cursor: tuple[int, int]
) -> list[str]:
    """The board in a few characters: `█` where the window is, `·` elsewhere.

    Proportional: each character stands for an equal block of the board. A window smaller
    than a block (a screen on a 10^6 x 10^6 board) still shows, as the block that holds the
    cursor.
    """
    shape = MapShape.of(rows, cols)
    top, left, height, width = window

    def span(start: int, size: int, total: int, chars: int) -> range:
        first = start * chars // total
        last = max(first, ((start + size) * chars - 1) // total)
        return range(first, min(chars - 1, last) + 1)

    map_rows = span(top, height, rows, shape.height)
    map_cols = span(left, width, cols, shape.width)
    cursor_at = (cursor[0] * shape.height // rows, cursor[1] * shape.width // cols)
    lines = []
    for y in range(shape.height):
        line = []
        for x in range(shape.width):
            inside = (y in map_rows and x in map_cols) or (y, x) == cursor_at
            line.append("█" if inside else TICK)
        lines.append("".join(line))
    return lines


class Minimap(Widget):
    """A small map of the whole board with the window on it; a click there moves the cursor."""

    DEFAULT_CSS = """
    Minimap {
        width: auto;
        height: auto;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
    }
    """

    class Jump(Message):
        """The player clicked a place on the map: the cell at the middle of that block."""

        def __init__(self, row: int, col: int) -> None:
            super().__init__()
            self.row, self.col = row, col

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board_size = (1, 1)
        self.lines: list[str] = ["·"]
        self.border_title = "map"

    def show(
        self, rows: int, cols: int, window: tuple[int, int, int, int], cursor: tuple[int, int]
    ) -> None:
        lines = minimap_lines(rows, cols, window, cursor)
        if (rows, cols) != self.board_size or lines != self.lines:
            resized = len(lines) != len(self.lines) or len(lines[0]) != len(self.lines[0])
            self.board_size, self.lines = (rows, cols), lines
            self.refresh(layout=resized)

    def render(self) -> Text:
        return Text("\n".join(self.lines), no_wrap=True)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.lines:
            return
        height, width = len(self.lines), len(self.lines[0])
        if not (0 <= offset.y < height and 0 <= offset.x < width):
            return
        rows, cols = self.board_size
        row = (2 * offset.y + 1) * rows // (2 * height)
        col = (2 * offset.x + 1) * cols // (2 * width)
        self.post_message(self.Jump(row, col))
