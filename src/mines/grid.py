"""The geometry of a board, in one place for the engines and the no-guess generator.

Cells are `(row, col)` pairs or flat indices `row * cols + col`. The eight neighbours of
a cell are always listed in the same order: row by row, then column by column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

Flat = npt.NDArray[np.int64]
"""A one-dimensional array of flat cell indices."""

ROW_STEPS = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
COL_STEPS = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
"""The eight neighbours of a cell as steps in row and column, row by row."""

EIGHT_CONNECTED = np.ones((3, 3), dtype=bool)
"""The structure that makes `scipy.ndimage.label` join cells touching at an edge or corner."""

FLOOD_BUDGET = 2048
"""Cells a cell-by-cell flood may open before an engine redoes it over whole arrays."""


def block_around(rows: int, cols: int, row: int, col: int) -> list[tuple[int, int]]:
    """The in-bounds cells of the 3x3 block centred on (row, col), the centre included."""
    return [
        (r, c)
        for r in range(max(row - 1, 0), min(row + 2, rows))
        for c in range(max(col - 1, 0), min(col + 2, cols))
    ]


def block_cells(cell: int, rows: int, cols: int) -> list[int]:
    """`block_around` in flat indices: the in-bounds 3x3 block of a flat cell, centre included."""
    row, col = divmod(cell, cols)
    low, high = max(col - 1, 0), min(col + 2, cols)
    return [
        r * cols + c for r in range(max(row - 1, 0), min(row + 2, rows)) for c in range(low, high)
    ]


def walk(
    start: int,
    around: Callable[[int], Iterable[int]],
    opens: Callable[[int], bool],
    spreads: Callable[[int], bool],
    budget: int | None,
) -> tuple[list[int], bool]:
    """The cells a flood from the zero at `start` opens, found cell by cell, each listed once.

    This is the one cell-by-cell flood of the package (the array one, for regions past
    `budget`, is `cellbyte.flood`); each engine says what its cells are. `around`
    gives a cell's neighbours, `opens` whether the flood may open one (hidden, unflagged),
    `spreads` whether it carries on from one (a zero). It stops past `budget` cells, so an
    engine can redo a big region over whole arrays: the second value says it got to the end.
    """
    seen = {start}
    opened = [start]
    stack = [start]
    while stack:
        for there in around(stack.pop()):
            if there not in seen and opens(there):
                seen.add(there)
                opened.append(there)
                if spreads(there):
                    stack.append(there)
        if budget is not None and len(opened) > budget:
            return opened, False
    return opened, True


def neighbours(cells: Flat, rows: int, cols: int) -> tuple[Flat, npt.NDArray[np.bool_]]:
    """The eight neighbours of each cell as a (n, 8) array, and which of them are on the board."""
    row, col = np.divmod(cells, cols)
    around_rows = row[:, None] + ROW_STEPS
    around_cols = col[:, None] + COL_STEPS
    on_board = (around_rows >= 0) & (around_rows < rows) & (around_cols >= 0) & (around_cols < cols)
    return around_rows * cols + around_cols, on_board


def dilate(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Grow a mask by one cell in all eight directions (a separable 3x3 dilation).

    The last two axes are rows and columns; any axes before them are separate boards, which
    never grow into each other.
    """
    tall = mask.copy()
    tall[..., 1:, :] |= mask[..., :-1, :]
    tall[..., :-1, :] |= mask[..., 1:, :]
    wide = tall.copy()
    wide[..., 1:] |= tall[..., :-1]
    wide[..., :-1] |= tall[..., 1:]
    return wide


def count_around(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """For every cell, how many of its eight neighbours are set in `mask`.

    The last two axes are rows and columns; any axes before them are separate boards.
    """
    *boards, rows, cols = mask.shape
    padded = np.zeros((*boards, rows + 2, cols + 2), dtype=np.uint8)
    padded[..., 1:-1, 1:-1] = mask
    counts = np.zeros(mask.shape, dtype=np.uint8)
    for dr, dc in zip(ROW_STEPS.tolist(), COL_STEPS.tolist(), strict=True):
        counts += padded[..., 1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return counts
