"""Floods across walls: label a grid whose uniform runs of rows and columns are squeezed to one.

When a wall of obstacles runs from edge to edge, the board has more than one big
region and the pocket labelling cannot tell them apart. Obstacles then become
blocks (rectangles); every row or column where a block starts or ends is kept,
and the rows (columns) between two kept ones, alike by construction, shrink to a
single row (column). Eight-connected regions of the squeezed grid are those of the
board, so a region comes back as blocks: the squeezed cells it covers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy import ndimage

from mines.errors import IllegalMoveError
from mines.sparse.blocks import Blocks
from mines.sparse.cells import Flat

SQUEEZED_LIMIT = 1 << 25
"""The most cells a squeezed grid may have; beyond it a flood across walls is refused."""
EIGHT_CONNECTED = np.ones((3, 3), dtype=bool)


def _parts(size: int, kept: Flat) -> Flat:
    """Where each part of an axis starts: every kept line alone, the lines between as one."""
    starts = np.unique(np.concatenate([[0], kept, kept + 1]))
    parts: Flat = starts[starts < size]
    return parts


class SqueezedBoard:
    """The board's free cells, labelled on the squeezed grid of some obstacle blocks.

    Rows and columns of `exact` cells are kept as single lines, so that the
    neighbours of those cells on the squeezed grid are exactly their neighbours.
    """

    def __init__(self, rows: int, cols: int, walls: Blocks, exact: Flat):
        self.rows, self.cols = rows, cols
        exact_rows, exact_cols = np.divmod(exact, cols)
        self._row_starts = _parts(rows, np.concatenate([walls.top, walls.bottom - 1, exact_rows]))
        self._col_starts = _parts(cols, np.concatenate([walls.left, walls.right - 1, exact_cols]))
        height, width = self._row_starts.size, self._col_starts.size
        if height * width > SQUEEZED_LIMIT:
            raise IllegalMoveError(
                f"mines and flags wall this {rows}x{cols} board off from edge to edge, and "
                f"flooding it would take a {height}x{width} grid (the limit is "
                f"{SQUEEZED_LIMIT:,} cells); remove flags from the wall, or play a board "
                "this dense with engine='dense'"
            )
        free = np.ones((height, width), dtype=bool)
        tops, lefts = self._row_part(walls.top), self._col_part(walls.left)
        bottoms, rights = self._row_part(walls.bottom - 1) + 1, self._col_part(walls.right - 1) + 1
        for t, lft, b, r in zip(
            tops.tolist(), lefts.tolist(), bottoms.tolist(), rights.tolist(), strict=True
        ):
            free[t:b, lft:r] = False
        labels, count = ndimage.label(free, structure=EIGHT_CONNECTED)
        self._labels: npt.NDArray[np.int32] = labels
        self.count = int(count)
        """How many regions of free cells there are."""

    def _row_part(self, rows: Flat) -> Flat:
        part: Flat = np.searchsorted(self._row_starts, rows, side="right") - 1
        return part

    def _col_part(self, cols: Flat) -> Flat:
        part: Flat = np.searchsorted(self._col_starts, cols, side="right") - 1
        return part

    def label_of(self, cell: int) -> int:
        row, col = divmod(cell, self.cols)
        part_row = int(self._row_part(np.array([row]))[0])
        part_col = int(self._col_part(np.array([col]))[0])
        return int(self._labels[part_row, part_col])

    def region(self, label: int) -> Blocks:
        """The cells of one region, as blocks along each squeezed row."""
        inside = self._labels == label
        edges = np.diff(inside.astype(np.int8), axis=1, prepend=0, append=0)
        part_row, first = np.nonzero(edges == 1)
        _, after = np.nonzero(edges == -1)
        row_ends = np.append(self._row_starts[1:], self.rows)
        col_ends = np.append(self._col_starts[1:], self.cols)
        return Blocks(
            self._row_starts[part_row],
            self._col_starts[first],
            row_ends[part_row],
            col_ends[after - 1],
        )

    def next_to(self, label: int, exact: Flat) -> npt.NDArray[np.bool_]:
        """Which of the `exact` cells have a neighbour in the region `label`."""
        rows, cols = np.divmod(exact, self.cols)
        part_row, part_col = self._row_part(rows), self._col_part(cols)
        padded = np.pad(self._labels == label, 1)
        touching = np.zeros(exact.size, dtype=bool)
        for d_row in (-1, 0, 1):
            for d_col in (-1, 0, 1):
                if d_row or d_col:
                    touching |= padded[part_row + 1 + d_row, part_col + 1 + d_col]
        return touching
