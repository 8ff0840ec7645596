"""`SparseEngine`: a board stored as its mines, counts, flags and revealed cells, never per cell."""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt

from mines import grid
from mines.engine import (
    CellChanges,
    CellState,
    EngineKind,
    PositionChanges,
    Symbols,
    cell_symbols,
)
from mines.errors import EngineLimitError
from mines.grid import Flat, neighbours
from mines.placement import CoordArray
from mines.sparse.blocks import Blocks
from mines.sparse.cells import EMPTY, CellSet, contains, in_window, union
from mines.sparse.changes import BlockChanges, ComplementChanges
from mines.sparse.compressed import SqueezedBoard
from mines.sparse.pockets import find_pockets
from mines.status import GameStatus

_INT_BYTES = 32
"""About what one Python int past the small-int cache costs, for `footprint`."""


class SparseEngine:
    """A board of any size whose memory grows with mines, flags and revealed structure.

    Counts exist only around mines. Revealed cells are kept as a set until a flood
    reaches the open sea (the one big zero region); from then on the set holds the
    hidden cells instead (`_inverted`), which are few: mines, flags, pockets and
    numbers not yet reached. On a board that walls cut into several big regions,
    a flood adds the region it opens as blocks (`_blocks`) instead.
    """

    kind = EngineKind.SPARSE

    def __init__(self, rows: int, cols: int):
        self.rows = rows
        self.cols = cols
        self._mines: CoordArray = np.zeros((0, 2), dtype=np.int64)
        self._mine_cells: Flat = EMPTY
        self._mine_set: set[int] = set()
        # Every cell next to a mine (mines included, as the dense engine counts them too).
        self._count_cells: Flat = EMPTY
        self._count_values: npt.NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self._counts: dict[int, int] = {}
        self._numbered: Flat = EMPTY
        self._flagged = CellSet(cols)
        self._marked = CellSet(cols)
        self._inverted = False
        self._blocks = Blocks.empty()
        self._opened = 0
        # While `open_all` runs: each in-place change to a revealed set, so it can be undone.
        self._journal: list[tuple[CellSet, bool, list[int]]] | None = None

    @property
    def opened(self) -> int:
        return self._opened

    @property
    def flags(self) -> int:
        return len(self._flagged)

    @property
    def footprint(self) -> int:
        arrays = (
            self._mines,
            self._mine_cells,
            self._count_cells,
            self._count_values,
            self._numbered,
            self._blocks.top,
            self._blocks.left,
            self._blocks.bottom,
            self._blocks.right,
        )
        # A set or dict holds its table plus one int object (32 bytes) per member.
        tables = (self._mine_set, self._counts, self._flagged.members, self._marked.members)
        return sum(int(a.nbytes) for a in arrays) + sum(
            sys.getsizeof(t) + _INT_BYTES * len(t) for t in tables
        )

    @property
    def sea_open(self) -> bool:
        """Whether a flood has opened the open sea, so hidden cells are the ones listed."""
        return self._inverted

    @property
    def listed_cells(self) -> int:
        """Cells stored one by one for the revealed state: memory follows this, not the board."""
        return len(self._marked)

    # --- set-up ------------------------------------------------------------------------------

    def place(self, mines: CoordArray) -> None:
        cells = mines[:, 0] * self.cols + mines[:, 1]
        self._mines = mines.copy()
        self._mines.setflags(write=False)
        self._mine_cells = np.sort(cells)
        self._mine_set = set(cells.tolist())
        around, on_board = neighbours(cells, self.rows, self.cols)
        counted, values = np.unique(around[on_board], return_counts=True)
        self._count_cells = counted.astype(np.int64)
        self._count_values = values.astype(np.uint8)
        self._counts = dict(zip(counted.tolist(), values.tolist(), strict=True))
        self._numbered = self._count_cells[~contains(self._mine_cells, self._count_cells)]

    def restore(self, revealed: CoordArray, flagged: CoordArray) -> None:
        self._mark_revealed((revealed[:, 0] * self.cols + revealed[:, 1]).tolist())
        self._flagged.update((flagged[:, 0] * self.cols + flagged[:, 1]).tolist())
        revealed_mines = sum(self._is_revealed(cell) for cell in self._mine_set)
        if self._inverted:
            self._opened = self.rows * self.cols - len(self._marked) - revealed_mines
        else:
            self._opened = len(self._marked) + self._blocks.area - revealed_mines

    # --- single cells ------------------------------------------------------------------------

    def _is_revealed(self, cell: int) -> bool:
        if (cell in self._marked) != self._inverted:
            return True
        return bool(len(self._blocks)) and self._blocks.contains(*divmod(cell, self.cols))

    def _mark_revealed(self, cells: list[int]) -> None:
        if self._journal is not None:
            self._journal.append((self._marked, self._inverted, cells))
        if self._inverted:
            self._marked.difference_update(cells)
        else:
            self._marked.update(cells)

    def state(self, row: int, col: int) -> CellState:
        cell = row * self.cols + col
        if self._is_revealed(cell):
            return CellState.REVEALED
        return CellState.FLAGGED if cell in self._flagged else CellState.HIDDEN

    def is_mine(self, row: int, col: int) -> bool:
        return row * self.cols + col in self._mine_set

    def count(self, row: int, col: int) -> int:
        return self._counts.get(row * self.cols + col, 0)

    def set_flag(self, row: int, col: int, flagged: bool) -> None:
        cell = row * self.cols + col
        if flagged:
            self._flagged.add(cell)
        else:
            self._flagged.discard(cell)

    # --- opening -----------------------------------------------------------------------------

    def open(self, row: int, col: int) -> CellChanges:
        cell = row * self.cols + col
        if cell in self._mine_set or cell in self._counts:
            self._mark_revealed([cell])
            self._opened += cell not in self._mine_set
            return PositionChanges(np.array([[row, col]], dtype=np.int64))
        walked, complete = self._walk(cell)
        if not complete:
            return self._flood_sea(cell)
        return self._open_cells(walked)

    def open_all(self, cells: list[tuple[int, int]]) -> list[CellChanges]:
        saved = (self._marked, self._inverted, self._blocks, self._opened)
        self._journal = []
        try:
            return [self.open(r, c) for r, c in cells if self.state(r, c) is CellState.HIDDEN]
        except EngineLimitError:
            # Undo the opens before the refused one: in-place changes last first, then the rest.
            for marked, inverted, touched in reversed(self._journal):
                if inverted:
                    marked.update(touched)
                else:
                    marked.difference_update(touched)
            self._marked, self._inverted, self._blocks, self._opened = saved
            raise
        finally:
            self._journal = None

    def _walk(self, start: int) -> tuple[list[int], bool]:
        """Flood cell by cell from a zero (the shared walk): the cells, and whether it finished.

        Once the sea is open every hidden cell is listed, so no budget is needed then.
        """
        rows, cols, counts = self.rows, self.cols, self._counts
        flagged, marked, inverted = self._flagged.members, self._marked.members, self._inverted
        blocks = self._blocks if len(self._blocks) else None

        def opens(there: int) -> bool:
            # A zero has no mine around it: every cell the walk reaches is safe.
            if there in flagged or (there in marked) != inverted:
                return False
            return blocks is None or not blocks.contains(*divmod(there, cols))

        return grid.walk(
            start,
            lambda here: grid.block_cells(here, rows, cols),
            opens,
            lambda there: there not in counts,
            None if inverted else grid.FLOOD_BUDGET,
        )

    def _open_cells(self, cells: list[int]) -> PositionChanges:
        self._mark_revealed(cells)
        self._opened += len(cells)
        flat = np.asarray(cells, dtype=np.int64)
        return PositionChanges(np.stack(np.divmod(flat, self.cols), axis=1))

    def _flood_sea(self, start: int) -> CellChanges:
        """Flood a region too big to walk: everything free but the pockets, by labelling."""
        revealed = self._marked.array()
        flagged = self._flagged.array()
        obstacles = union(self._count_cells, self._mine_cells, flagged, revealed)
        hidden_numbers = np.setdiff1d(self._numbered, union(flagged, revealed), assume_unique=True)
        # Revealed blocks are obstacles too big for pocket labelling.
        pockets = None if len(self._blocks) else find_pockets(self.rows, self.cols, obstacles)
        if pockets is None:
            return self._flood_across_walls(start, obstacles, hidden_numbers)
        around, on_board = neighbours(hidden_numbers, self.rows, self.cols)
        own = pockets.component_of(start)
        if own is not None:
            # The start lies in a pocket (bigger than the budget): open it like a walk.
            own = np.sort(own)
            border = hidden_numbers[(on_board & contains(own, around)).any(axis=1)]
            return self._open_cells(np.concatenate([own, border]).tolist())
        walled_off = pockets.distinct_cells()
        in_sea = on_board & ~contains(obstacles, around) & ~contains(walled_off, around)
        border_mask = in_sea.any(axis=1)
        still_hidden = union(self._mine_cells, flagged, hidden_numbers[~border_mask], walled_off)
        sea = self.rows * self.cols - obstacles.size - walled_off.size
        self._opened += sea + int(np.count_nonzero(border_mask))
        self._marked = CellSet(self.cols, still_hidden.tolist())
        self._inverted = True
        return ComplementChanges(self.rows, self.cols, union(still_hidden, revealed))

    def _flood_across_walls(self, start: int, obstacles: Flat, hidden_numbers: Flat) -> CellChanges:
        """Flood a big region on a board that walls cut up: label the squeezed grid."""
        walls = Blocks.of_cells(obstacles, self.cols).join(self._blocks)
        board = SqueezedBoard(self.rows, self.cols, walls)
        label = board.label_of(start)
        region = board.region(label)
        border = hidden_numbers[board.next_to(label, hidden_numbers)]
        self._blocks = self._blocks.join(region)
        self._mark_revealed(border.tolist())
        self._opened += region.area + int(border.size)
        return BlockChanges(region, border, self.cols)

    # --- reading -----------------------------------------------------------------------------

    def symbols(
        self, top: int, left: int, height: int, width: int, *, status: GameStatus
    ) -> Symbols:
        shape = (height, width)
        counts = np.zeros(shape, dtype=np.uint8)
        at = in_window(self._count_cells, self.cols, top, left, height, width)
        rows, cols = np.divmod(self._count_cells[at], self.cols)
        counts[rows - top, cols - left] = self._count_values[at]
        mine = np.zeros(shape, dtype=bool)
        rows, cols = np.divmod(
            self._mine_cells[in_window(self._mine_cells, self.cols, top, left, height, width)],
            self.cols,
        )
        mine[rows - top, cols - left] = True
        flag = self._flagged.mask(top, left, height, width)
        revealed = self._marked.mask(top, left, height, width) != self._inverted
        if len(self._blocks):
            revealed |= self._blocks.mask(top, left, height, width)
        return cell_symbols(counts, mine, flag, revealed, status=status)

    def mines(self) -> CoordArray:
        return self._mines

    def flagged(self) -> CoordArray:
        return np.stack(np.divmod(self._flagged.array(), self.cols), axis=1)

    def three_bv(self) -> int:
        walls = union(self._count_cells, self._mine_cells)
        pockets = find_pockets(self.rows, self.cols, walls)
        if pockets is None:
            squeezed = SqueezedBoard(self.rows, self.cols, Blocks.of_cells(walls, self.cols))
            zero_regions = squeezed.count
        else:
            zero_regions = pockets.count() + int(pockets.sea)
        around, on_board = neighbours(self._numbered, self.rows, self.cols)
        next_to_zero = (on_board & ~contains(walls, around)).any(axis=1)
        return zero_regions + int(np.count_nonzero(~next_to_zero))
