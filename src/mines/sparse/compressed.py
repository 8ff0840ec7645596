"""Floods across walls: label a grid whose uniform runs of rows and columns are squeezed to one.

When a wall of obstacles runs from edge to edge, the board has more than one big
region and the pocket labelling cannot tell them apart. Obstacles then become
blocks (rectangles), and the rows where blocks start or end cut the rows into
runs whose rows are all alike; each run shrinks to one row, and the same for
columns. Eight-connected regions of the squeezed grid are those of the board, so
a region comes back as blocks: the squeezed cells it covers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mines.errors import EngineLimitError
from mines.grid import EIGHT_CONNECTED, Flat, neighbours
from mines.sparse.blocks import Blocks
from mines.sparse.cells import distinct

SQUEEZED_LIMIT = 1 << 25
"""The most cells a squeezed grid may have; beyond it a flood across walls is refused."""


def _parts(size: int, cuts: Flat) -> Flat:
    """Where each part of an axis starts, given the lines where some block starts or ends."""
    starts = distinct(np.concatenate([[0], cuts]).astype(np.int64))
    parts: Flat = starts[starts < size]
    return parts


class SqueezedBoard:
    """The board's free cells, labelled on the squeezed grid of some obstacle blocks."""

    def __init__(self, rows: int, cols: int, walls: Blocks):
        self.rows, self.cols = rows, cols
        self._row_starts = _parts(rows, np.concatenate([walls.top, walls.bottom]))
        self._col_starts = _parts(cols, np.concatenate([walls.left, walls.right]))
        height, width = self._row_starts.size, self._col_starts.size
        if height * width > SQUEEZED_LIMIT:
            raise EngineLimitError(
                f"mines and flags wall this {rows}x{cols} board off from edge to edge, and "
                f"flooding it would take a {height}x{width} grid (the limit is "
                f"{SQUEEZED_LIMIT:,} cells); remove flags from the wall, or play a board "
                "this dense with engine='dense'"
            )
        free = np.ones((height, width), dtype=bool)
        squeezed = Blocks(
            self._row_part(walls.top),
            self._col_part(walls.left),
            self._row_part(walls.bottom - 1) + 1,
            self._col_part(walls.right - 1) + 1,
        )
        for t, lft, b, r in squeezed:
            free[t:b, lft:r] = False
        from scipy import ndimage  # on first use: see `mines.dense._ndimage`

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

    def next_to(self, label: int, cells: Flat) -> npt.NDArray[np.bool_]:
        """Which of `cells` have a neighbour in the region `label`."""
        around, on_board = neighbours(cells, self.rows, self.cols)
        rows, cols = np.divmod(around[on_board], self.cols)
        in_region = np.zeros(around.shape, dtype=bool)
        in_region[on_board] = self._labels[self._row_part(rows), self._col_part(cols)] == label
        return np.asarray(in_region.any(axis=1), dtype=bool)
