"""`Layout`: what the terminal game shows at a terminal size, decided from that size alone."""

from __future__ import annotations

from dataclasses import dataclass

from mines.tui.rulers import MapShape, gutter_width
from mines.tui.themes import CELL_WIDTH

MIN_WIDTH, MIN_HEIGHT = 40, 10
"""Below this the board, its status and the footer cannot all be shown: a notice says so."""
FOOTER_FROM_WIDTH = 108
"""The least width for Textual's footer with every key of a practice game (106 columns):
below it the key line stands in, with as many whole entries as fit, F1 Help always among
them."""
MESSAGE_LINES = (2, 3)
"""The message area's height: 2 lines, 3 on a terminal of `TALL` lines or more. It changes
only with the terminal, never with a message; a longer message is cut, F1 shows it whole."""
TALL = 24
RULERS_FROM = (24, 8)
"""The least space (text columns, lines) in which a board bigger than it gets rulers: below,
the position line above the board says where the cursor is, and the cells keep the room."""
MAP_FRAME = 6
"""Columns the minimap takes beyond its map: its border, padding and margins (mines.tcss)."""
MINIMAP_FROM_WIDTH = 80
"""The least width for the minimap beside a board bigger than the screen."""
STATUS_LINES = FOOTER_LINES = POSITION_LINES = 1


@dataclass(frozen=True)
class Layout:
    """The parts on screen and the lines they take. A function of the terminal's size and the
    board's, never of the sizes before: a resize, however it came, looks like a fresh start."""

    width: int
    height: int
    small: bool
    """Below `MIN_WIDTH` x `MIN_HEIGHT`: only the notice asking for a bigger terminal."""
    message_lines: int
    footer: bool
    """Textual's footer (True) or the key line that stands in for it on a narrow terminal."""
    bigger: bool
    """The board is bigger than its space: the position line shows above it."""
    minimap: bool
    rulers: bool

    @classmethod
    def of(cls, width: int, height: int, rows: int, cols: int) -> Layout:
        """The layout of a `rows` x `cols` board on a `width` x `height` terminal."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        message_lines = MESSAGE_LINES[height >= TALL]
        # The space between the status line on top and the message and footer below.
        space = height - STATUS_LINES - message_lines - FOOTER_LINES
        bigger = cols * CELL_WIDTH > width or rows > space
        if bigger:
            space -= POSITION_LINES
        shape = MapShape.of(rows, cols)
        minimap = bigger and width >= MINIMAP_FROM_WIDTH and space >= shape.height + 2
        room = width - (shape.width + MAP_FRAME if minimap else 0)
        wide, high = RULERS_FROM
        rulers = bigger and room - gutter_width(rows) >= wide and space >= high
        return cls(
            width=width,
            height=height,
            small=small,
            message_lines=message_lines,
            footer=width >= FOOTER_FROM_WIDTH,
            bigger=bigger and not small,
            minimap=minimap and not small,
            rulers=rulers and not small,
        )
