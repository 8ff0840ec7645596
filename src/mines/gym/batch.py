"""`Boards`: N Minesweeper boards in one byte array, played by array operations over all of them."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from mines import cellbyte
from mines.cellbyte import FLAGGED, REVEALED, SYMBOLS
from mines.gym import streams
from mines.gym.encoding import OBSERVED
from mines.params import check_board
from mines.placement import CoordArray, FirstClick, kept_free, layouts_by_keys
from mines.status import GameStatus

Indices = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

IN_PROGRESS, WON, LOST = 0, 1, 2
"""Status codes in `Boards.status`."""
STATUSES = np.array(
    [s.value for s in (GameStatus.IN_PROGRESS, GameStatus.WON, GameStatus.LOST)], dtype=object
)
"""`GameStatus` values by status code, as Python strings (what `SyncVectorEnv` gathers)."""


_SEEN = {status: OBSERVED[table] for status, table in SYMBOLS.items()}
"""The observation of every cell byte at each status: what the dense engine shows, observed."""


class Boards:
    """N boards of one size, each a bordered grid of `mines.cellbyte` bytes, as dense boards.

    The same rules as `Game`: mines are placed at a board's first reveal, outside the cells
    the core's first-click rule keeps free (`mines.placement.kept_free`), each board from its
    own layout stream (`mines.gym.streams`: its seed, its index, its episode); counts are
    computed once; a zero floods to its numbered border and never through a flag; flags are
    toggled on unopened cells; a mine loses, opening every safe cell wins. The methods take
    the boards to act on as an index array and never loop over boards.
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
        self.cells = cellbyte.bordered(count, rows, cols)
        self.status = np.zeros(count, dtype=np.int8)
        self.started = np.zeros(count, dtype=bool)
        self.opened = np.zeros(count, dtype=np.int32)
        self.seeds = np.zeros(count, dtype=np.uint64)
        """Each board's seed: with its index and episode, it names the board's layout stream."""
        self.episodes = np.zeros(count, dtype=np.int64)
        """How many episodes each board has started since its seed was set, less one."""

    @property
    def nbytes(self) -> int:
        arrays = (self.cells, self.status, self.started, self.opened, self.seeds, self.episodes)
        return sum(array.nbytes for array in arrays)

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

    def kept_free(self, boards: Indices, rows: Indices, cols: Indices) -> Flags:
        """(k, rows, cols): the cells the first-click rule keeps free, by the core's rule."""
        return kept_free(self.first_click, self.rows, self.cols, self.mines, rows, cols)

    def draw(self, boards: Indices, excluded: Flags) -> Flags:
        """Each board's layout from its stream's keys: the mines on its smallest keys outside
        the excluded cells (`mines.placement.layouts_by_keys`)."""
        ids = streams.stream_ids(self.seeds[boards], boards, self.episodes[boards])
        return layouts_by_keys(streams.keys(ids, self.rows, self.cols), excluded, self.mines)

    def place(self, boards: Indices, rows: Indices, cols: Indices) -> None:
        """Lay each board's mines for its first click at (rows, cols)."""
        self.lay(boards, self.draw(boards, self.kept_free(boards, rows, cols)))

    def lay(self, boards: Indices, layout: Flags) -> None:
        """Put mines where `layout` (k, rows, cols) says and compute every count, once."""
        inner = self.cells[boards, 1:-1, 1:-1]
        cellbyte.lay(inner, layout)
        self.cells[boards, 1:-1, 1:-1] = inner
        self.started[boards] = True

    def layout(self, board: int) -> CoordArray:
        """Where one board's mines are, as (row, col) pairs; for tests and for after the end."""
        return np.argwhere(cellbyte.mines(self.inner[board])).astype(np.int64)

    def reveal(self, boards: Indices, rows: Indices, cols: Indices) -> Flags:
        """Open one cell on each board; returns which moves changed nothing (open or flagged)."""
        here = self.cells[boards, rows + 1, cols + 1]
        wasted: Flags = ~cellbyte.openable(here)
        acting = ~wasted
        boards, rows, cols = boards[acting], rows[acting], cols[acting]
        fresh = ~self.started[boards]
        if fresh.any():
            self.place(boards[fresh], rows[fresh], cols[fresh])
        here = self.cells[boards, rows + 1, cols + 1]
        self.cells[boards, rows + 1, cols + 1] = here | REVEALED
        mine = cellbyte.mines(here)
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
        newly = cellbyte.flood(grid, (np.arange(boards.size), rows + 1, cols + 1))
        grid |= newly.astype(np.uint8) * np.uint8(REVEALED)
        self.cells[boards] = grid
        self.opened[boards] += np.count_nonzero(newly, axis=(1, 2)).astype(np.int32)

    def toggle_flag(self, boards: Indices, rows: Indices, cols: Indices) -> Flags:
        """Flag or unflag one unopened cell on each board; returns which moves hit an open cell."""
        here = self.cells[boards, rows + 1, cols + 1]
        wasted: Flags = cellbyte.revealed(here)
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

    def masks(self, flags: bool, playing: Flags) -> npt.NDArray[np.int8]:
        """Per board, 1 for each action that changes it: open a hidden cell (or toggle a flag);
        all 0 on a board not `playing` (its episode is over)."""
        inner = self.inner.reshape(self.count, -1)
        live = playing[:, None]
        openable: Flags = cellbyte.openable(inner) & live
        if not flags:
            return openable.astype(np.int8)
        flaggable = ~cellbyte.revealed(inner) & live
        return np.concatenate([openable, flaggable], axis=1).astype(np.int8)


def statuses(codes: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    """The `GameStatus` values of status codes, as an object array of strings."""
    named: npt.NDArray[Any] = STATUSES[codes]
    return named
