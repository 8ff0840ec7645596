"""The storage engine contract that `Game` drives: cell states, changes, refusals, engine kinds."""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum, StrEnum
from typing import Protocol

import numpy as np
import numpy.typing as npt

from mines.placement import CoordArray
from mines.status import GameStatus
from mines.symbols import Cell

Symbols = npt.NDArray[np.uint8]
"""A (height, width) array of ASCII codes of `Cell` symbols."""

_HIDDEN, _FLAG, _MINE, _EXPLODED, _WRONG_FLAG, _ZERO = (
    ord(cell.value)
    for cell in (Cell.HIDDEN, Cell.FLAG, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG, Cell.ZERO)
)


def cell_symbols(
    counts: npt.NDArray[np.uint8],
    mine: npt.NDArray[np.bool_],
    flagged: npt.NDArray[np.bool_],
    revealed: npt.NDArray[np.bool_],
    *,
    status: GameStatus,
) -> Symbols:
    """What each cell shows, from its facts and where the game stands: the one home of these
    rules for every engine and every front end.

    A revealed cell shows its count, or `EXPLODED` if it is a mine; a flag shows `FLAG`. Once
    the game is lost, hidden mines show `MINE` and flags on safe cells `WRONG_FLAG`. Once it is
    won, every mine shows `FLAG`, as in the classic game: the cells still hidden are all mines.
    Counts past 8 (an engine's border) show as 8.
    """
    out = np.full(counts.shape, _HIDDEN, dtype=np.uint8)
    if status is GameStatus.LOST:
        out[mine] = _MINE
        out[flagged] = np.where(mine[flagged], _FLAG, _WRONG_FLAG)
    else:
        out[flagged] = _FLAG
        if status is GameStatus.WON:
            out[mine] = _FLAG
    shown = np.minimum(counts[revealed], 8).astype(np.uint8)
    out[revealed] = np.where(mine[revealed], _EXPLODED, _ZERO + shown)
    return out


def mines_left(mines: int, flags: int, *, status: GameStatus) -> int:
    """The counter beside the board: mines minus flags (negative past the mines), 0 once the
    game is won, when `cell_symbols` shows a flag on every mine: the counter agrees with it."""
    return 0 if status is GameStatus.WON else mines - flags


class CellState(Enum):
    """What the player has done to a cell; the engine's answer to `state()`."""

    HIDDEN = "hidden"
    FLAGGED = "flagged"
    REVEALED = "revealed"


class EngineKind(StrEnum):
    """Which storage a game uses; `Game` picks one by board size unless told."""

    DENSE = "dense"
    SPARSE = "sparse"


class CellChanges(Protocol):
    """The cells one move changed, enumerated lazily: a flood may open a whole board."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[tuple[int, int]]: ...

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(top, left, bottom, right) with bottom and right exclusive, or None when empty."""
        ...

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        """The changed cells inside a window, so a viewport redraws only what it shows."""
        ...


class Engine(Protocol):
    """Cell storage and the mechanics of one board; `Game` owns the rules around it.

    An engine never decides whether a move is allowed: `Game` checks first, then
    calls it. Coordinates are in bounds when they reach an engine. An engine may only
    report that an open is beyond its limits (`mines.errors.EngineLimitError`), having
    changed nothing; `Game` then puts the game back as it was before the move and refuses it.
    """

    rows: int
    cols: int
    kind: EngineKind

    @property
    def footprint(self) -> int:
        """Approximate bytes the engine's state holds (what a cache of games should count)."""
        ...

    @property
    def opened(self) -> int:
        """How many safe cells are revealed."""
        ...

    @property
    def flags(self) -> int: ...

    def place(self, mines: CoordArray) -> None:
        """Lay the mines and compute every count, once, before the first reveal."""
        ...

    def restore(self, revealed: CoordArray, flagged: CoordArray) -> None:
        """Mark cells revealed or flagged as they stand, without flooding."""
        ...

    def state(self, row: int, col: int) -> CellState: ...

    def is_mine(self, row: int, col: int) -> bool: ...

    def count(self, row: int, col: int) -> int: ...

    def set_flag(self, row: int, col: int, flagged: bool) -> None: ...

    def open(self, row: int, col: int) -> CellChanges:
        """Reveal a hidden unflagged cell; a zero floods to its numbered border.

        Raises `EngineLimitError`, with nothing changed, when the flood is beyond the engine.
        """
        ...

    def open_all(self, cells: list[tuple[int, int]]) -> list[CellChanges]:
        """Open, in order, each of `cells` still hidden (an earlier flood may open a later one).

        All or nothing: on `EngineLimitError` every cell opened so far is hidden again.
        """
        ...

    def symbols(
        self, top: int, left: int, height: int, width: int, *, status: GameStatus
    ) -> Symbols:
        """The symbols of a window as `cell_symbols` says for a game at `status` (mines show
        only once it is over)."""
        ...

    def mines(self) -> CoordArray: ...

    def flagged(self) -> CoordArray: ...

    def three_bv(self) -> int:
        """The fewest left clicks that clear the board: openings plus isolated numbers."""
        ...


class PositionChanges:
    """Changed cells given as a (n, 2) array of (row, col) pairs."""

    def __init__(self, positions: CoordArray):
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return ((r, c) for r, c in self._positions.tolist())

    def bounds(self) -> tuple[int, int, int, int] | None:
        if not len(self._positions):
            return None
        low, high = self._positions.min(axis=0), self._positions.max(axis=0)
        return int(low[0]), int(low[1]), int(high[0]) + 1, int(high[1]) + 1

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        rows, cols = self._positions[:, 0], self._positions[:, 1]
        inside = (rows >= top) & (rows < top + height) & (cols >= left) & (cols < left + width)
        return ((r, c) for r, c in self._positions[inside].tolist())
