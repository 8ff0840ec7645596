"""Sets of cells as flat indices (row * cols + col): sorted-array queries and a mutable set."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from mines.grid import Flat

EMPTY: Flat = np.zeros(0, dtype=np.int64)


def distinct(values: npt.NDArray[np.int64]) -> Flat:
    """The sorted distinct values (by sorting: numpy's hashing `unique` is many times slower)."""
    ordered = np.sort(values.reshape(-1))
    keep = np.ones(ordered.size, dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    result: Flat = ordered[keep]
    return result


def distinct_with_inverse(values: Flat) -> tuple[Flat, Flat]:
    """The sorted distinct values, and for each value its position among them."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first = np.ones(ordered.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(values.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ordered[first], inverse


def union(*parts: Flat) -> Flat:
    """The sorted distinct cells of all parts."""
    return distinct(np.concatenate([EMPTY, *parts]))


def contains(sorted_cells: Flat, cells: Flat) -> npt.NDArray[np.bool_]:
    """Which of `cells` are in `sorted_cells` (sorted and distinct)."""
    if not sorted_cells.size:
        return np.zeros(cells.shape, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_cells, cells), sorted_cells.size - 1)
    found: npt.NDArray[np.bool_] = sorted_cells[at] == cells
    return found


def expand_ranges(starts: Flat, lengths: Flat) -> Flat:
    """starts[i], starts[i] + 1, ..., starts[i] + lengths[i] - 1 for every i, concatenated."""
    lengths = lengths.astype(np.int64)
    total = int(lengths.sum())
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts.astype(np.int64) - before, lengths) + np.arange(total, dtype=np.int64)


def in_window(
    sorted_cells: Flat, cols: int, top: int, left: int, height: int, width: int
) -> npt.NDArray[np.intp]:
    """Positions in `sorted_cells` of the cells inside a window, found row by row."""
    starts = np.arange(top, top + height, dtype=np.int64) * cols + left
    low = np.searchsorted(sorted_cells, starts)
    high = np.searchsorted(sorted_cells, starts + width)
    return expand_ranges(low, high - low).astype(np.intp)


class CellSet:
    """A mutable set of flat cells that also answers window queries.

    Membership is a Python set; a sorted array snapshot, rebuilt only when a window
    is asked for after a change, serves windows in O(height log n + hits).
    """

    def __init__(self, cols: int, cells: Iterable[int] = ()):
        self._cols = cols
        self._set: set[int] = set(cells)
        self._sorted: Flat | None = None

    def __len__(self) -> int:
        return len(self._set)

    @property
    def members(self) -> set[int]:
        """The live set, for tight loops that only test membership."""
        return self._set

    def __contains__(self, cell: int) -> bool:
        return cell in self._set

    def add(self, cell: int) -> None:
        self._set.add(cell)
        self._sorted = None

    def discard(self, cell: int) -> None:
        self._set.discard(cell)
        self._sorted = None

    def update(self, cells: Iterable[int]) -> None:
        self._set.update(cells)
        self._sorted = None

    def difference_update(self, cells: Iterable[int]) -> None:
        self._set.difference_update(cells)
        self._sorted = None

    def array(self) -> Flat:
        """The cells as a sorted array (cached until the next change)."""
        if self._sorted is None:
            self._sorted = np.sort(np.fromiter(self._set, dtype=np.int64, count=len(self._set)))
        return self._sorted

    def mask(self, top: int, left: int, height: int, width: int) -> npt.NDArray[np.bool_]:
        """A (height, width) mask of the window's cells that are in the set."""
        mask = np.zeros((height, width), dtype=bool)
        if self._sorted is None and len(self._set) > 4 * height * width:
            # A small window of a big set that just changed: look cells up instead of sorting.
            for r in range(height):
                base = (top + r) * self._cols + left
                row = [base + c in self._set for c in range(width)]
                mask[r] = row
            return mask
        cells = self.array()
        hits = cells[in_window(cells, self._cols, top, left, height, width)]
        rows, cols = np.divmod(hits, self._cols)
        mask[rows - top, cols - left] = True
        return mask
