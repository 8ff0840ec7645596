"""`BoardView`: an immutable snapshot of what a player may see, safe to hand to anyone."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from mines.errors import InvalidBoardError
from mines.status import GameStatus
from mines.symbols import Cell


@dataclass(frozen=True, slots=True)
class BoardView:
    """The visible state of a board, or of a window of it, at one moment.

    It holds only symbols, never the mine layout: until the game is lost every
    unrevealed cell reads `H` or `F`, so it can be sent to untrusted clients.
    Cells are addressed with board coordinates, also in a window.
    """

    rows: int
    cols: int
    status: GameStatus
    mines_left: int
    top: int
    left: int
    height: int
    width: int
    _symbols: bytes = field(repr=False)

    @classmethod
    def from_symbols(
        cls,
        symbols: npt.NDArray[np.uint8],
        *,
        rows: int,
        cols: int,
        status: GameStatus,
        mines_left: int,
        top: int = 0,
        left: int = 0,
    ) -> BoardView:
        height, width = symbols.shape
        return cls(rows, cols, status, mines_left, top, left, height, width, symbols.tobytes())

    @classmethod
    def from_strings(
        cls, lines: list[str], *, status: GameStatus = GameStatus.IN_PROGRESS, mines_left: int = 0
    ) -> BoardView:
        """Parse rows of symbols (as `to_strings` prints them) into a view of a whole board."""
        if not lines or any(len(line) != len(lines[0]) for line in lines) or not lines[0]:
            raise InvalidBoardError("a board needs at least one row, and every row the same length")
        allowed = {cell.value for cell in Cell}
        bad = sorted({ch for line in lines for ch in line} - allowed)
        if bad:
            raise InvalidBoardError(f"unknown symbols {bad}; allowed: {''.join(sorted(allowed))}")
        data = "".join(lines).encode("ascii")
        rows, cols = len(lines), len(lines[0])
        return cls(rows, cols, status, mines_left, 0, 0, rows, cols, data)

    @property
    def array(self) -> npt.NDArray[np.uint8]:
        """The symbols as a read-only (height, width) array of ASCII codes."""
        return np.frombuffer(self._symbols, dtype=np.uint8).reshape(self.height, self.width)

    def contains(self, row: int, col: int) -> bool:
        return (
            self.top <= row < self.top + self.height and self.left <= col < self.left + self.width
        )

    def symbol(self, row: int, col: int) -> str:
        if not self.contains(row, col):
            raise IndexError(
                f"({row}, {col}) is outside this view (rows {self.top}.."
                f"{self.top + self.height - 1}, cols {self.left}..{self.left + self.width - 1})"
            )
        index = (row - self.top) * self.width + (col - self.left)
        return chr(self._symbols[index])

    def __getitem__(self, cell: tuple[int, int]) -> Cell:
        return Cell(self.symbol(*cell))

    def cells(self) -> Iterator[tuple[int, int, Cell]]:
        """Every cell of the view as (row, col, cell), row by row."""
        for r, line in enumerate(self.to_strings(), start=self.top):
            for c, ch in enumerate(line, start=self.left):
                yield r, c, Cell(ch)

    def to_strings(self) -> list[str]:
        """One string per row of the view, in the symbols of `Cell`."""
        text = self._symbols.decode("ascii")
        return [text[i : i + self.width] for i in range(0, len(text), self.width)]

    def __str__(self) -> str:
        return "\n".join(self.to_strings())
