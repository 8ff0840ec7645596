"""The byte a dense board keeps per cell (a count and mine, flag, revealed bits), over arrays.

The dense engine keeps one board of these bytes, the batched Gymnasium env a stack of them;
both build, read and show them through this module. A board is kept inside a one-cell border
of `BORDER` bytes, which look revealed and numbered, so a flood stops there by itself.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mines.engine import Symbols, cell_symbols
from mines.grid import count_around, dilate
from mines.status import GameStatus

Cells = npt.NDArray[np.uint8]
"""Cell bytes: (rows, cols), or (boards, rows, cols) for a stack of boards."""
Flags = npt.NDArray[np.bool_]

COUNT_BITS = 0x0F
"""The low nibble: how many of the cell's neighbours are mines."""
MINE = 0x10
FLAGGED = 0x20
REVEALED = 0x40
BLOCKED = MINE | FLAGGED | REVEALED
"""A flood opens a cell only when none of these is set."""
BORDER = REVEALED | COUNT_BITS
"""The border ring: it looks revealed with a non-zero count, so floods stop there unchecked."""


def zero_regions(cells: Cells, starts: tuple[npt.NDArray[np.intp], ...]) -> Flags:
    """The regions of zeros (eight-connected, never from one board of a stack to the next)
    that hold the `starts` (index arrays into `cells`; each start counts as a zero): the
    first half of the array flood (`flood`), which the dense engine checks against its window."""
    from scipy import ndimage  # on first use: see `mines.dense._ndimage`

    zero = cells == 0
    zero[starts] = True
    structure = np.zeros((3,) * cells.ndim, dtype=bool)
    structure[(1,) * (cells.ndim - 2)] = True  # eight neighbours on a board, none across boards
    labels, regions = ndimage.label(zero, structure=structure)
    flooded = np.zeros(regions + 1, dtype=bool)
    flooded[labels[starts]] = True
    region: Flags = flooded[labels]
    return region


def flood(cells: Cells, starts: tuple[npt.NDArray[np.intp], ...]) -> Flags:
    """The cells a flood from the zero cells `starts` opens, by labelling and dilating over
    whole arrays: every cell touching their regions of zeros that is neither a mine, flagged
    nor open. The one array flood of the dense engine and the batched env (the cell-by-cell
    one is `grid.walk`; the sparse engine's, over pockets and squeezed grids, is its own)."""
    return opened_around(cells, zero_regions(cells, starts))


def opened_around(cells: Cells, region: Flags) -> Flags:
    """What a region of zeros opens: itself and its border, less the blocked cells."""
    free: Flags = (cells & BLOCKED) == 0
    return dilate(region) & free


def bordered(*shape: int) -> Cells:
    """Fresh boards of `shape` (..., rows, cols) inside a border: (..., rows + 2, cols + 2)."""
    *boards, rows, cols = shape
    cells = np.zeros((*boards, rows + 2, cols + 2), dtype=np.uint8)
    cells[..., 0, :] = cells[..., -1, :] = BORDER
    cells[..., :, 0] = cells[..., :, -1] = BORDER
    return cells


def lay(inner: Cells, layout: Flags) -> None:
    """Put mines on `inner` (a view inside the border) where `layout` says, and every count.

    The counts are computed once, here, for every board of a stack at a time.
    """
    inner |= count_around(layout) | (layout.astype(np.uint8) * np.uint8(MINE))


def mines(cells: Cells) -> Flags:
    answer: Flags = (cells & MINE) != 0
    return answer


def revealed(cells: Cells) -> Flags:
    answer: Flags = (cells & REVEALED) != 0
    return answer


def flagged(cells: Cells) -> Flags:
    answer: Flags = (cells & FLAGGED) != 0
    return answer


def openable(cells: Cells) -> Flags:
    """Cells a reveal may open: neither revealed nor flagged."""
    answer: Flags = (cells & (REVEALED | FLAGGED)) == 0
    return answer


def symbol_table(status: GameStatus) -> Symbols:
    """The `Cell` symbol of every possible byte in a game at `status`, so showing a board is one
    lookup per cell."""
    byte = np.arange(256, dtype=np.uint8)
    shown = revealed(byte)
    return cell_symbols(
        (byte & COUNT_BITS).astype(np.uint8),
        mines(byte),
        flagged(byte) & ~shown,
        shown,
        status=status,
    )


SYMBOLS = {status: symbol_table(status) for status in GameStatus}
"""The symbol of every cell byte in a game at each status (the dense engine and the batched
gym env show boards through it)."""
