"""Rectangles of cells: obstacles merged into blocks, and a set of revealed blocks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mines.grid import Flat
from mines.sparse.cells import EMPTY


@dataclass(frozen=True)
class Blocks:
    """Disjoint rectangles of cells, row/col ranges with exclusive ends, as parallel arrays."""

    top: Flat
    left: Flat
    bottom: Flat
    right: Flat

    @classmethod
    def empty(cls) -> Blocks:
        return cls(EMPTY, EMPTY, EMPTY, EMPTY)

    @classmethod
    def of_cells(cls, cells: Flat, cols: int) -> Blocks:
        """Sorted distinct cells as runs along rows, equal runs in rows in a row stacked."""
        if not cells.size:
            return cls.empty()
        row, col = np.divmod(cells, cols)
        starts = np.flatnonzero((np.diff(cells, prepend=cells[0] - 2) != 1) | (col == 0))
        run_row, run_left = row[starts], col[starts]
        run_right = np.append(col[starts[1:] - 1], col[-1]) + 1
        # Runs with the same columns in consecutive rows stack into one block.
        order = np.lexsort((run_row, run_right, run_left))
        run_row, run_left, run_right = run_row[order], run_left[order], run_right[order]
        same_columns = (np.diff(run_left) == 0) & (np.diff(run_right) == 0)
        new = np.flatnonzero(~(same_columns & (np.diff(run_row) == 1))) + 1
        first = np.concatenate([[0], new])
        last = np.append(new, run_row.size) - 1
        return cls(run_row[first], run_left[first], run_row[last] + 1, run_right[first])

    def __len__(self) -> int:
        return int(self.top.size)

    @property
    def area(self) -> int:
        return int(((self.bottom - self.top) * (self.right - self.left)).sum())

    def join(self, other: Blocks) -> Blocks:
        return Blocks(
            np.concatenate([self.top, other.top]),
            np.concatenate([self.left, other.left]),
            np.concatenate([self.bottom, other.bottom]),
            np.concatenate([self.right, other.right]),
        )

    def contains(self, row: int, col: int) -> bool:
        return bool(
            (
                (self.top <= row) & (row < self.bottom) & (self.left <= col) & (col < self.right)
            ).any()
        )

    def clipped(self, top: int, left: int, height: int, width: int) -> Blocks:
        """The parts of the blocks inside a window, in window coordinates."""
        t = np.maximum(self.top, top) - top
        b = np.minimum(self.bottom, top + height) - top
        lft = np.maximum(self.left, left) - left
        r = np.minimum(self.right, left + width) - left
        keep = (t < b) & (lft < r)
        return Blocks(t[keep], lft[keep], b[keep], r[keep])

    def __iter__(self) -> Iterator[tuple[int, int, int, int]]:
        """Each block as (top, left, bottom, right) in Python ints."""
        sides = (self.top, self.left, self.bottom, self.right)
        return zip(*(side.tolist() for side in sides), strict=True)

    def mask(self, top: int, left: int, height: int, width: int) -> npt.NDArray[np.bool_]:
        mask = np.zeros((height, width), dtype=bool)
        for t, lft, b, r in self.clipped(top, left, height, width):
            mask[t:b, lft:r] = True
        return mask
