"""Board themes: the glyph and style of every cell symbol, and of the cursor."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.color import Color
from rich.color_triplet import ColorTriplet
from rich.segment import Segment
from rich.style import Style

from mines.symbols import Cell

CELL_WIDTH = 2
"""Terminal columns per board cell: a glyph and a space, so cells come out about square."""


@dataclass(frozen=True)
class Theme:
    """How each `Cell` is drawn: one glyph and one style per symbol, plus the cursor overlay."""

    name: str
    glyphs: dict[Cell, str]
    styles: dict[Cell, Style]
    cursor: Style
    neighbour: Style = field(default_factory=lambda: Style(underline=True))
    """Added to the hidden cells around the number under the cursor: the cells a chord opens."""

    def segments(self, *, cursor: bool) -> dict[int, Segment]:
        """Segments keyed by the ASCII code of each symbol, as `BoardView.array` holds them."""
        table = {}
        for cell in Cell:
            style = self.cursor_style(cell) if cursor else self.styles[cell]
            table[ord(cell.value)] = Segment(self.glyphs[cell].ljust(CELL_WIDTH), style)
        return table

    def mark_segment(self, *, cursor: bool) -> Segment:
        """A hidden cell the player marked with a question mark."""
        style = self.cursor_style(Cell.HIDDEN) if cursor else self.styles[Cell.HIDDEN]
        return Segment("?".ljust(CELL_WIDTH), style + Style(bold=True))

    def neighbour_segment(self) -> Segment:
        """A hidden cell beside the number under the cursor."""
        glyph = self.glyphs[Cell.HIDDEN].ljust(CELL_WIDTH)
        return Segment(glyph, self.styles[Cell.HIDDEN] + self.neighbour)

    def cursor_style(self, cell: Cell) -> Style:
        """The cell under the cursor: the cursor's colour, and a glyph colour that reads on it.

        The exploded mine keeps its own background (its red is the news of the game) and
        shows the cursor by underlining. A glyph colour with less than `MIN_CONTRAST`
        against the background gives way to black or white, whichever reads better.
        """
        base = self.styles[cell]
        style = base + self.cursor
        if cell is Cell.EXPLODED and base.bgcolor is not None:
            style = base + Style(underline=True)
        if style.bgcolor is None:
            return style  # no colours (mono): the terminal's own, reversed
        background = style.bgcolor.get_truecolor()
        if style.color and contrast(style.color.get_truecolor(), background) >= MIN_CONTRAST:
            return style
        readable = max(("#000000", "#ffffff"), key=lambda c: contrast(_rgb(c), background))
        return style + Style(color=readable)


MIN_CONTRAST = 4.5
"""WCAG's minimum contrast ratio for text, which every cell under the cursor meets."""


def _rgb(hex_colour: str) -> ColorTriplet:
    colour = Color.parse(hex_colour).triplet
    assert colour is not None
    return colour


def _luminance(colour: ColorTriplet) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = colour
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(first: ColorTriplet, second: ColorTriplet) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _numbers(colours: list[str], background: str) -> dict[Cell, Style]:
    styles = {Cell.ZERO: Style(bgcolor=background)}
    for n, colour in enumerate(colours, start=1):
        styles[Cell.from_count(n)] = Style(color=colour, bgcolor=background, bold=True)
    return styles


_GLYPHS = {
    Cell.HIDDEN: "▪",
    Cell.FLAG: "⚑",
    Cell.ZERO: " ",
    **{Cell.from_count(n): str(n) for n in range(1, 9)},
    Cell.MINE: "*",
    Cell.EXPLODED: "*",
    Cell.WRONG_FLAG: "✗",
}

CLASSIC = Theme(
    name="classic",
    glyphs=_GLYPHS,
    styles={
        Cell.HIDDEN: Style(color="#9eacba", bgcolor="#7a8a9a"),
        Cell.FLAG: Style(color="#e00000", bgcolor="#7a8a9a", bold=True),
        # The colours of the Windows game: 1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal...
        **_numbers(
            [
                "#0000ff",
                "#007b00",
                "#ff0000",
                "#00007b",
                "#7b0000",
                "#007b7b",
                "#000000",
                "#7b7b7b",
            ],
            "#c6c6c6",
        ),
        Cell.MINE: Style(color="#000000", bgcolor="#c6c6c6", bold=True),
        Cell.EXPLODED: Style(color="#000000", bgcolor="#ff0000", bold=True),
        Cell.WRONG_FLAG: Style(color="#ff0000", bgcolor="#c6c6c6", bold=True),
    },
    cursor=Style(bgcolor="#ffd75f"),
)

COLORBLIND = Theme(
    name="colorblind",
    glyphs={**_GLYPHS, Cell.MINE: "●", Cell.EXPLODED: "✹"},
    styles={
        Cell.HIDDEN: Style(color="#808080", bgcolor="#5a5a5a"),
        Cell.FLAG: Style(color="#ffffff", bgcolor="#5a5a5a", bold=True),
        # Okabe and Ito's palette, told apart under every common colour-vision deficiency.
        **_numbers(
            [
                "#0072b2",
                "#009e73",
                "#d55e00",
                "#cc79a7",
                "#9a6b00",
                "#3d8fbf",
                "#000000",
                "#666666",
            ],
            "#ececec",
        ),
        Cell.MINE: Style(color="#000000", bgcolor="#ececec", bold=True),
        Cell.EXPLODED: Style(color="#ffffff", bgcolor="#000000", bold=True),
        Cell.WRONG_FLAG: Style(color="#d55e00", bgcolor="#ececec", bold=True),
    },
    cursor=Style(bgcolor="#f0e442", underline=True),
)

MONO = Theme(
    name="mono",
    # No colour at all: every symbol has its own ASCII glyph, the cursor is reversed.
    glyphs={
        **_GLYPHS,
        Cell.HIDDEN: ".",
        Cell.FLAG: "F",
        Cell.MINE: "*",
        Cell.EXPLODED: "X",
        Cell.WRONG_FLAG: "x",
    },
    styles={
        **{cell: Style() for cell in Cell},
        Cell.HIDDEN: Style(dim=True),
        Cell.FLAG: Style(bold=True),
        Cell.EXPLODED: Style(bold=True, underline=True),
    },
    cursor=Style(reverse=True),
)

THEMES = {theme.name: theme for theme in (CLASSIC, COLORBLIND, MONO)}
