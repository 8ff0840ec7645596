"""`Boards`: N Minesweeper boards in one byte array, played by array operations over all of them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy import ndimage

from mines import grid
from mines.dense import BLOCKED, BORDER, FLAGGED, MINE, REVEALED, SYMBOLS
from mines.gym.encoding import OBSERVED
from mines.params import check_board
from mines.placement import CoordArray, FirstClick
from mines.status import GameStatus

Indices = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

IN_PROGRESS, WON, LOST = 0, 1, 2
"""Status codes in `Boards.status`."""
STATUSES = np.array([s.value for s in (GameStatus.IN_PROGRESS, GameStatus.WON, GameStatus.LOST)])
"""`GameStatus` values by status code."""


_SEEN = {status: OBSERVED[table] for status, table in SYMBOLS.items()}
"""The observation of every cell byte at each status: what the dense engine shows, observed."""


_WITHIN_A_BOARD = np.zeros((3, 3, 3), dtype=bool)
_WITHIN_A_BOARD[1] = True
"""Eight-connected cells of one board; no connection from one board to the next."""
_NEIGHBOURS = _WITHIN_A_BOARD[1:2].astype(np.uint8)
_NEIGHBOURS[0, 1, 1] = 0
"""The eight neighbours of a cell on its own board, as correlation weights."""


def dilate(mask: Flags) -> Flags:
    """Grow each board's mask by one cell in all eight directions, with the dense engine's own
    dilation: with the board axis moved last, its row and column shifts leave boards apart."""
    grown: Flags = grid.dilate(mask.transpose(1, 2, 0)).transpose(2, 0, 1)
    return grown


class Boards:
    """N boards of one size, each a bordered grid of bytes packed as the dense engine packs them.

    The same rules as `Game`: mines are placed at a board's first reveal, as `RandomPlacer`'s
    first-click rule promises; counts are computed once; a zero floods to its numbered border
    and never through a flag; flags are toggled on unopened cells; a mine loses, opening every
    safe cell wins. The methods take the boards to act on as an index array and never loop
    over boards: a flood loops over its rings, all boards at once.
    """

    def __init__(self, count: int, rows: int, cols: int, mines: int, first_click: FirstClick | str):
        self.rows, self.cols, self.mines = check_board(rows, cols, mines)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"the number of boards must be a positive integer, got {count!r}")
        try:
            self.first_click = FirstClick(first_click)
        except ValueError:
            allowed = ", ".join(repr(rule.value) for rule in FirstClick)
            raise ValueError(
                f"the batched env places mines by a first-click rule, one of {allowed}; got "
                f"{first_click!r} (other rules such as no-guess boards need the single env: "
                "make_vec(..., vectorization_mode='sync'))"
            ) from None
        self.count = count
        self.safe_cells = rows * cols - mines
        self.cells = np.zeros((count, rows + 2, cols + 2), dtype=np.uint8)
        self.cells[:, 0, :] = self.cells[:, -1, :] = BORDER
        self.cells[:, :, 0] = self.cells[:, :, -1] = BORDER
        self.status = np.zeros(count, dtype=np.int8)
        self.started = np.zeros(count, dtype=bool)
        self.opened = np.zeros(count, dtype=np.int32)
        self._row_grid = np.arange(rows)[None, :, None]
        self._col_grid = np.arange(cols)[None, None, :]

    @property
    def nbytes(self) -> int:
        return self.cells.nbytes + self.status.nbytes + self.started.nbytes + self.opened.nbytes

    @property
    def inner(self) -> npt.NDArray[np.uint8]:
        """The cells without their border, (count, rows, cols); a view, not a copy."""
        return self.cells[:, 1:-1, 1:-1]

    def clear(self, boards: Indices | Flags) -> None:
        """Start these boards again: nothing placed, opened or flagged."""
        self.cells[boards, 1:-1, 1:-1] = 0
        self.status[boards] = IN_PROGRESS
        self.started[boards] = False
        self.opened[boards] = 0

    def _excluded(self, rows: Indices, cols: Indices) -> Flags:
        """The cells each board's rule keeps free for its first click, as `RandomPlacer`."""
        click: Flags = (self._row_grid == rows[:, None, None]) & (
            self._col_grid == cols[:, None, None]
        )
        if self.first_click is FirstClick.ANY:
            return np.zeros(click.shape, dtype=bool)
        if self.first_click is FirstClick.SAFE:
            return click
        block = (np.abs(self._row_grid - rows[:, None, None]) <= 1) & (
            np.abs(self._col_grid - cols[:, None, None]) <= 1
        )
        block_size = (np.minimum(rows + 2, self.rows) - np.maximum(rows - 1, 0)) * (
            np.minimum(cols + 2, self.cols) - np.maximum(cols - 1, 0)
        )
        # Where the block leaves too few cells for the mines, only the click is kept free.
        fits = self.mines <= self.rows * self.cols - block_size
        excluded: Flags = np.where(fits[:, None, None], block, click)
        return excluded

    def place(
        self, boards: Indices, rows: Indices, cols: Indices, rng: np.random.Generator
    ) -> None:
        """Lay each board's mines uniformly at random outside its first click's excluded cells."""
        cells = self.rows * self.cols
        keys = rng.random((boards.size, cells))
        # Excluded cells sort after every drawn key, so the `mines` smallest keys avoid them.
        keys[self._excluded(rows, cols).reshape(boards.size, cells)] = 2.0
        layout = np.zeros((boards.size, cells), dtype=bool)
        if self.mines:
            chosen = np.argpartition(keys, self.mines - 1, axis=1)[:, : self.mines]
            np.put_along_axis(layout, chosen, True, axis=1)
        self.lay(boards, layout.reshape(boards.size, self.rows, self.cols))

    def lay(self, boards: Indices, layout: Flags) -> None:
        """Put mines where `layout` (k, rows, cols) says and compute every count, once."""
        mines = layout.astype(np.uint8)
        counts = ndimage.correlate(mines, _NEIGHBOURS, mode="constant")
        self.cells[boards, 1:-1, 1:-1] |= counts | (mines * np.uint8(MINE))
        self.started[boards] = True

    def layout(self, board: int) -> CoordArray:
        """Where one board's mines are, as (row, col) pairs; for tests and for after the end."""
        return np.argwhere(self.inner[board] & MINE).astype(np.int64)

    def reveal(
        self, boards: Indices, rows: Indices, cols: Indices, rng: np.random.Generator
    ) -> Flags:
        """Open one cell on each board; returns which moves changed nothing (open or flagged)."""
        here = self.cells[boards, rows + 1, cols + 1]
        wasted: Flags = (here & (REVEALED | FLAGGED)) != 0
        acting = ~wasted
        boards, rows, cols = boards[acting], rows[acting], cols[acting]
        fresh = ~self.started[boards]
        if fresh.any():
            self.place(boards[fresh], rows[fresh], cols[fresh], rng)
        here = self.cells[boards, rows + 1, cols + 1]
        self.cells[boards, rows + 1, cols + 1] = here | REVEALED
        mine = (here & MINE) != 0
        self.status[boards[mine]] = LOST
        self.opened[boards[~mine]] += 1
        zero = here == 0
        if zero.any():
            self._flood(boards[zero], rows[zero], cols[zero])
        finished = boards[~mine]
        self.status[finished[self.opened[finished] == self.safe_cells]] = WON
        return wasted

    def _flood(self, boards: Indices, rows: Indices, cols: Indices) -> None:
        """Open the zero regions around the given (already opened) zero cells and their borders.

        As the dense engine's flood: a cell opens when it touches the start's region of zeros
        and is neither a mine, flagged nor open; that region spreads only through such zeros.
        One labelling of all boards' zeros finds every region at once.
        """
        grid = self.cells[boards]
        starts = (np.arange(boards.size), rows + 1, cols + 1)
        zero = grid == 0
        zero[starts] = True
        labels, regions = ndimage.label(zero, structure=_WITHIN_A_BOARD)
        flooded = np.zeros(regions + 1, dtype=bool)
        flooded[labels[starts]] = True
        newly = dilate(flooded[labels]) & ((grid & BLOCKED) == 0)
        grid |= newly.astype(np.uint8) * np.uint8(REVEALED)
        self.cells[boards] = grid
        self.opened[boards] += np.count_nonzero(newly, axis=(1, 2)).astype(np.int32)

    def toggle_flag(self, boards: Indices, rows: Indices, cols: Indices) -> Flags:
        """Flag or unflag one unopened cell on each board; returns which moves hit an open cell."""
        here = self.cells[boards, rows + 1, cols + 1]
        wasted: Flags = (here & REVEALED) != 0
        self.cells[boards, rows + 1, cols + 1] = np.where(wasted, here, here ^ FLAGGED)
        return wasted

    def observe(self) -> npt.NDArray[np.int8]:
        """What each player sees, as `MinesEnv` observations; mines only on ended boards."""
        # `take` over the whole bordered grid, then the slice, is a few times quicker than
        # fancy indexing of the non-contiguous inner cells.
        seen: npt.NDArray[np.int8] = np.ascontiguousarray(
            _SEEN[GameStatus.IN_PROGRESS].take(self.cells)[:, 1:-1, 1:-1]
        )
        for code, status in ((WON, GameStatus.WON), (LOST, GameStatus.LOST)):
            ended = np.flatnonzero(self.status == code)
            if ended.size:
                seen[ended] = _SEEN[status].take(self.inner[ended])
        return seen

    def masks(self, flags: bool) -> npt.NDArray[np.int8]:
        """Per board, 1 for each action that changes it: open a hidden cell (or toggle a flag)."""
        inner = self.inner.reshape(self.count, -1)
        playing = (self.status == IN_PROGRESS)[:, None]
        openable: Flags = ((inner & (REVEALED | FLAGGED)) == 0) & playing
        if not flags:
            return openable.astype(np.int8)
        flaggable = ((inner & REVEALED) == 0) & playing
        return np.concatenate([openable, flaggable], axis=1).astype(np.int8)
