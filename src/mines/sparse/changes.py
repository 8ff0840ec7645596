"""What a big flood changed, without listing it: the board but a few cells, or blocks of cells."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mines.grid import Flat
from mines.sparse.blocks import Blocks
from mines.sparse.cells import in_window


def _inner_span(full: list[int], size: int) -> tuple[int, int] | None:
    """The first and one-past-last line of 0..size-1 that is not in the sorted `full` lines."""
    first = 0
    for line in full:
        if line != first:
            break
        first += 1
    if first == size:
        return None
    last = size - 1
    for line in reversed(full):
        if line != last:
            break
        last -= 1
    return first, last + 1


def _full_lines(lines: Flat, length: int) -> list[int]:
    """The lines (rows or columns) whose every cell is listed, given one line number per cell."""
    numbers, counts = np.unique(lines, return_counts=True)
    full: list[int] = numbers[counts == length].tolist()
    return full


class ComplementChanges:
    """The changed cells of a flood that opened nearly the whole board.

    It stores only the cells it did not change, so `len`, `bounds` and `within` cost
    time in proportion to those (and to the window), never to the board. Iterating
    it walks the whole board row by row: fine for small boards, impractical for huge ones.
    """

    def __init__(self, rows: int, cols: int, unchanged: Flat):
        self._rows = rows
        self._cols = cols
        self._unchanged = unchanged

    def __len__(self) -> int:
        return self._rows * self._cols - int(self._unchanged.size)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for row in range(self._rows):
            low, high = np.searchsorted(self._unchanged, [row * self._cols, (row + 1) * self._cols])
            skipped = set((self._unchanged[low:high] - row * self._cols).tolist())
            for col in range(self._cols):
                if col not in skipped:
                    yield row, col

    def bounds(self) -> tuple[int, int, int, int] | None:
        rows, cols = np.divmod(self._unchanged, self._cols)
        row_span = _inner_span(_full_lines(rows, self._cols), self._rows)
        col_span = _inner_span(_full_lines(cols, self._rows), self._cols)
        if row_span is None or col_span is None:
            return None
        return row_span[0], col_span[0], row_span[1], col_span[1]

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        # Only board cells can have changed: clip the window to the board first.
        bottom, right = min(top + height, self._rows), min(left + width, self._cols)
        top, left = max(top, 0), max(left, 0)
        height, width = max(bottom - top, 0), max(right - left, 0)
        changed = np.ones((height, width), dtype=bool)
        hits = self._unchanged[in_window(self._unchanged, self._cols, top, left, height, width)]
        rows, cols = np.divmod(hits, self._cols)
        changed[rows - top, cols - left] = False
        rows, cols = np.nonzero(changed)
        return zip((rows + top).tolist(), (cols + left).tolist(), strict=True)


class BlockChanges:
    """The changed cells of a flood across walls: blocks of cells, then single cells.

    `len`, `bounds` and `within` cost time in proportion to the blocks and cells
    listed (and to the window); iterating walks every cell of every block.
    """

    def __init__(self, blocks: Blocks, cells: Flat, cols: int):
        self._blocks = blocks
        self._cells = cells
        self._cols = cols

    def __len__(self) -> int:
        return self._blocks.area + int(self._cells.size)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for top, left, bottom, right in self._blocks:
            for row in range(top, bottom):
                for col in range(left, right):
                    yield row, col
        for cell in self._cells.tolist():
            yield divmod(cell, self._cols)

    def bounds(self) -> tuple[int, int, int, int] | None:
        rows, cols = np.divmod(self._cells, self._cols)
        tops = np.concatenate([self._blocks.top, rows])
        if not tops.size:
            return None
        return (
            int(tops.min()),
            int(np.concatenate([self._blocks.left, cols]).min()),
            int(np.concatenate([self._blocks.bottom, rows + 1]).max()),
            int(np.concatenate([self._blocks.right, cols + 1]).max()),
        )

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        changed = self._blocks.mask(top, left, height, width)
        rows, cols = np.divmod(self._cells, self._cols)
        inside = (rows >= top) & (rows < top + height) & (cols >= left) & (cols < left + width)
        changed[rows[inside] - top, cols[inside] - left] = True
        rows, cols = np.nonzero(changed)
        return zip((rows + top).tolist(), (cols + left).tolist(), strict=True)
