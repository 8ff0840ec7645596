"""The dense engine: one byte per cell in a bordered numpy grid, for boards that fit in memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from mines import grid
from mines.cellbyte import (
    BLOCKED,
    COUNT_BITS,
    FLAGGED,
    MINE,
    REVEALED,
    SYMBOLS,
    bordered,
    lay,
    opened_around,
    zero_regions,
)
from mines.engine import CellChanges, CellState, EngineKind, Symbols
from mines.grid import COL_STEPS, EIGHT_CONNECTED, ROW_STEPS, block_around, dilate
from mines.placement import CoordArray
from mines.status import GameStatus


class DenseChanges:
    """Changed cells held as flat indices into the bordered grid."""

    def __init__(self, indices: npt.NDArray[np.int64], stride: int):
        self._indices = indices
        self._stride = stride

    def rows_cols(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        rows, cols = np.divmod(self._indices, self._stride)
        return rows - 1, cols - 1

    def __len__(self) -> int:
        return int(self._indices.size)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        rows, cols = self.rows_cols()
        return zip(rows.tolist(), cols.tolist(), strict=True)

    def bounds(self) -> tuple[int, int, int, int] | None:
        if not self._indices.size:
            return None
        rows, cols = self.rows_cols()
        return int(rows.min()), int(cols.min()), int(rows.max()) + 1, int(cols.max()) + 1

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        rows, cols = self.rows_cols()
        inside = (rows >= top) & (rows < top + height) & (cols >= left) & (cols < left + width)
        return zip(rows[inside].tolist(), cols[inside].tolist(), strict=True)


class DenseEngine:
    """Cells of a board packed one byte each, row-major, inside a one-cell border."""

    kind = EngineKind.DENSE

    def __init__(self, rows: int, cols: int):
        self.rows = rows
        self.cols = cols
        self._stride = cols + 2
        self._cells = bytearray(bordered(rows, cols).tobytes())
        # The numpy grid and the bytearray share memory: numpy for bulk work, bytes for scalar work.
        self._grid = np.frombuffer(self._cells, dtype=np.uint8).reshape(rows + 2, self._stride)
        self._offsets = tuple((ROW_STEPS * self._stride + COL_STEPS).tolist())
        self._opened = 0
        self._flags = 0
        self._mines: CoordArray = np.zeros((0, 2), dtype=np.int64)

    @property
    def _inner(self) -> npt.NDArray[np.uint8]:
        return self._grid[1:-1, 1:-1]

    def _index(self, row: int, col: int) -> int:
        return (row + 1) * self._stride + col + 1

    def _changes(self, indices: npt.ArrayLike) -> DenseChanges:
        return DenseChanges(np.asarray(indices, dtype=np.int64), self._stride)

    @property
    def opened(self) -> int:
        return self._opened

    @property
    def footprint(self) -> int:
        return len(self._cells) + int(self._mines.nbytes)

    @property
    def flags(self) -> int:
        return self._flags

    def place(self, mines: CoordArray) -> None:
        layout = np.zeros((self.rows, self.cols), dtype=bool)
        layout[mines[:, 0], mines[:, 1]] = True
        lay(self._inner, layout)
        self._mines = mines.copy()
        self._mines.setflags(write=False)

    def move_mine(self, source: tuple[int, int], target: tuple[int, int]) -> None:
        """Move a mine from a hidden cell to another, and every count around both with it.

        Not part of the `Engine` contract: the no-guess generator reshapes a layout while it
        plays it, and revealed numbers change with it.
        """
        cells, (s_row, s_col), (t_row, t_col) = self._cells, source, target
        cells[self._index(s_row, s_col)] &= ~MINE & 0xFF
        cells[self._index(t_row, t_col)] |= MINE
        for (row, col), step in ((source, -1), (target, 1)):
            for r, c in block_around(self.rows, self.cols, row, col):
                if (r, c) != (row, col):
                    cells[self._index(r, c)] += step
        flat = self._mines[:, 0] * self.cols + self._mines[:, 1]
        moved = np.where(flat == s_row * self.cols + s_col, t_row * self.cols + t_col, flat)
        self._mines = np.stack(np.divmod(np.sort(moved), self.cols), axis=1)
        self._mines.setflags(write=False)

    def restore(self, revealed: CoordArray, flagged: CoordArray) -> None:
        inner = self._inner
        inner[revealed[:, 0], revealed[:, 1]] |= REVEALED
        inner[flagged[:, 0], flagged[:, 1]] |= FLAGGED
        self._opened = int(np.count_nonzero((inner & (REVEALED | MINE)) == REVEALED))
        self._flags = int(np.count_nonzero(inner & FLAGGED))

    def state(self, row: int, col: int) -> CellState:
        byte = self._cells[self._index(row, col)]
        if byte & REVEALED:
            return CellState.REVEALED
        return CellState.FLAGGED if byte & FLAGGED else CellState.HIDDEN

    def is_mine(self, row: int, col: int) -> bool:
        return bool(self._cells[self._index(row, col)] & MINE)

    def count(self, row: int, col: int) -> int:
        return self._cells[self._index(row, col)] & COUNT_BITS

    def set_flag(self, row: int, col: int, flagged: bool) -> None:
        index = self._index(row, col)
        if flagged:
            self._cells[index] |= FLAGGED
            self._flags += 1
        else:
            self._cells[index] &= ~FLAGGED & 0xFF
            self._flags -= 1

    def open(self, row: int, col: int) -> DenseChanges:
        index = self._index(row, col)
        byte = self._cells[index]
        self._cells[index] = byte | REVEALED
        if byte & MINE:
            return self._changes([index])
        if byte & COUNT_BITS:
            self._opened += 1
            return self._changes([index])
        return self._flood(index)

    def open_all(self, cells: list[tuple[int, int]]) -> list[CellChanges]:
        # A dense flood is never refused, so all or nothing needs no undo here.
        return [self.open(r, c) for r, c in cells if self.state(r, c) is CellState.HIDDEN]

    def _flood(self, start: int) -> DenseChanges:
        """Open the zero region around `start` and its numbered border, never through flags.

        Small regions go cell by cell (the shared walk, over the bordered grid, which needs
        no bounds checks); a region that outgrows the budget is redone by array labelling.
        """
        cells, offsets = self._cells, self._offsets
        opened, complete = grid.walk(
            start,
            lambda here: [here + offset for offset in offsets],
            lambda there: not cells[there] & BLOCKED,
            lambda there: not cells[there],
            grid.FLOOD_BUDGET,
        )
        if not complete:
            return self._flood_by_labels(start, np.asarray(opened, dtype=np.int64))
        for there in opened:
            cells[there] |= REVEALED
        self._opened += len(opened)
        return self._changes(opened)

    def _flood_by_labels(self, start: int, partial: npt.NDArray[np.int64]) -> DenseChanges:
        board = self._grid
        board.reshape(-1)[start] &= np.uint8(~REVEALED & 0xFF)
        rows, cols = np.divmod(partial, self._stride)
        start_row, start_col = divmod(start, self._stride)
        top, bottom = int(rows.min()), int(rows.max()) + 1
        left, right = int(cols.min()), int(cols.max()) + 1
        while True:
            # Grow the window around what the scalar flood saw until the region fits inside.
            grow_rows, grow_cols = bottom - top, right - left
            top, bottom = max(top - grow_rows, 0), min(bottom + grow_rows, board.shape[0])
            left, right = max(left - grow_cols, 0), min(right + grow_cols, board.shape[1])
            window = board[top:bottom, left:right]
            start_at = (np.array([start_row - top]), np.array([start_col - left]))
            region = zero_regions(window, start_at)
            touches_edge = (
                region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any()
            )
            if not touches_edge:
                break
        newly = opened_around(window, region)
        np.bitwise_or(window, np.uint8(REVEALED), out=window, where=newly)
        new_rows, new_cols = np.nonzero(newly)
        indices = (new_rows.astype(np.int64) + top) * self._stride + new_cols + left
        self._opened += int(indices.size)
        return self._changes(indices)

    def symbols(
        self, top: int, left: int, height: int, width: int, *, status: GameStatus
    ) -> Symbols:
        return SYMBOLS[status][self._grid[top + 1 : top + 1 + height, left + 1 : left + 1 + width]]

    def mines(self) -> CoordArray:
        return self._mines

    def mine_mask(self) -> npt.NDArray[np.bool_]:
        """Which cells hold a mine, as a new (rows, cols) array."""
        return np.asarray((self._inner & MINE) != 0, dtype=bool)

    def revealed_mask(self) -> npt.NDArray[np.bool_]:
        """Which cells are revealed, as a new (rows, cols) array."""
        return np.asarray((self._inner & REVEALED) != 0, dtype=bool)

    def counts(self) -> npt.NDArray[np.uint8]:
        """Every cell's count of mines around it (mines have one too), as a new array."""
        return np.asarray(self._inner & COUNT_BITS, dtype=np.uint8)

    def flagged(self) -> CoordArray:
        return np.argwhere(self._inner & FLAGGED).astype(np.int64)

    def three_bv(self) -> int:
        inner = self._inner
        safe = (inner & MINE) == 0
        zero = safe & ((inner & COUNT_BITS) == 0)
        _, openings = _ndimage().label(zero, structure=EIGHT_CONNECTED)
        isolated_numbers = int(np.count_nonzero(safe & ~dilate(zero)))
        return int(openings) + isolated_numbers


def _ndimage() -> Any:
    """`scipy.ndimage`, imported on first use: the terminal game's first screen does not wait
    for scipy (most of a second of CPU), which it warms up once that screen shows."""
    from scipy import ndimage

    return ndimage
