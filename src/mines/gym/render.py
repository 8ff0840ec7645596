"""Board pictures as RGB arrays, drawn with numpy alone (no display, no pygame)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mines.symbols import Cell

TILE = 16
"""Pixels per cell side."""

Image = npt.NDArray[np.uint8]

_HIDDEN = (189, 189, 189)
_OPEN = (222, 222, 222)
_LIGHT = (255, 255, 255)
_DARK = (123, 123, 123)
_RED = (230, 30, 30)
_BLACK = (0, 0, 0)
_DIGIT_COLOURS = {
    1: (0, 0, 255),
    2: (0, 123, 0),
    3: (255, 0, 0),
    4: (0, 0, 123),
    5: (123, 0, 0),
    6: (0, 123, 123),
    7: (0, 0, 0),
    8: (123, 123, 123),
}
# 3x5 glyphs of the digits 1-8, one string of 15 pixels each, row by row.
_GLYPHS = {
    1: "010110010010111",
    2: "111001111100111",
    3: "111001011001111",
    4: "101101111001001",
    5: "111100111001111",
    6: "111100111101111",
    7: "111001010010010",
    8: "111101111101111",
}


def _tile(colour: tuple[int, int, int]) -> Image:
    return np.broadcast_to(np.array(colour, dtype=np.uint8), (TILE, TILE, 3)).copy()


def _open_tile() -> Image:
    tile = _tile(_OPEN)
    tile[0, :] = tile[:, 0] = _DARK
    return tile


def _raised_tile() -> Image:
    tile = _tile(_HIDDEN)
    tile[:2, :] = tile[:, :2] = _LIGHT
    tile[-2:, :] = tile[:, -2:] = _DARK
    return tile


_YY, _XX = np.mgrid[0:TILE, 0:TILE]
_CENTRE = (TILE - 1) / 2


def _disc(tile: Image, radius: float, colour: tuple[int, int, int]) -> None:
    tile[np.hypot(_YY - _CENTRE, _XX - _CENTRE) <= radius] = colour


def _flag(tile: Image) -> None:
    tile[3:12, 8] = _BLACK  # the pole
    tile[12:14, 4:12] = _BLACK  # its foot
    for row in range(3, 8):  # a pennant narrowing to the left
        width = 4 - abs(row - 5)
        tile[row, 8 - width : 8] = _RED


def _digit(tile: Image, number: int) -> None:
    glyph = np.array([int(bit) for bit in _GLYPHS[number]], dtype=bool).reshape(5, 3)
    big = np.kron(glyph, np.ones((2, 2), dtype=bool))  # 10 x 6
    top, left = (TILE - 10) // 2 + 1, (TILE - 6) // 2 + 1
    tile[top : top + 10, left : left + 6][big] = _DIGIT_COLOURS[number]


def _tiles() -> dict[Cell, Image]:
    tiles: dict[Cell, Image] = {Cell.HIDDEN: _raised_tile(), Cell.ZERO: _open_tile()}
    for number in range(1, 9):
        tiles[Cell.from_count(number)] = _open_tile()
        _digit(tiles[Cell.from_count(number)], number)
    tiles[Cell.FLAG] = _raised_tile()
    _flag(tiles[Cell.FLAG])
    tiles[Cell.WRONG_FLAG] = tiles[Cell.FLAG].copy()
    diagonal = np.arange(2, TILE - 2)
    tiles[Cell.WRONG_FLAG][diagonal, diagonal] = _BLACK
    tiles[Cell.WRONG_FLAG][diagonal, TILE - 1 - diagonal] = _BLACK
    tiles[Cell.MINE] = _open_tile()
    _disc(tiles[Cell.MINE], 4.5, _BLACK)
    tiles[Cell.EXPLODED] = _tile(_RED)
    _disc(tiles[Cell.EXPLODED], 4.5, _BLACK)
    return tiles


def _tile_table() -> Image:
    table = np.zeros((256, TILE, TILE, 3), dtype=np.uint8)
    for cell, tile in _tiles().items():
        table[ord(cell.value)] = tile
    return table


TILES = _tile_table()
"""The picture of each `Cell`, indexed by the ASCII code of its symbol."""


def draw(symbols: npt.NDArray[np.uint8]) -> Image:
    """The (rows*16, cols*16, 3) picture of a (rows, cols) array of `Cell` symbol codes."""
    rows, cols = symbols.shape
    cells = TILES[symbols]  # (rows, cols, TILE, TILE, 3)
    return np.ascontiguousarray(cells.transpose(0, 2, 1, 3, 4).reshape(rows * TILE, cols * TILE, 3))
