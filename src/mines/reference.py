"""The rules of Minesweeper as a short textbook model: sets of cells and a queue, read first.

`ReferenceGame` is the seed design written as plainly as Python allows, with no arrays, no
border, no budget and no lock: a set of mines, a set of revealed cells, a set of flags and a
breadth-first flood. It is slow on purpose and it is not an engine: `Game` never uses it.
Its job is to be obviously right, so that the fast engines can be checked against it
(`tests/core/test_reference_stateful.py` plays random moves on both engines and on this
model, and compares every view), and to be the first thing a learner reads
(docs/design.md walks from it to the real engines).

It follows `Game`'s public rules move for move, with one simplification: the layout is given
up front, as in the take-home's `Minesweeper(rows, cols, mines)`, because where mines go at
the first click is a placer's job (`mines.placement`), not a rule of play.

    >>> model = ReferenceGame(3, 3, {(0, 0)})
    >>> model.toggle_flag(0, 0)
    True
    >>> model.reveal(2, 2)          # a zero: the flood opens every safe cell, so the game is won
    <GameStatus.WON: 'WON'>
    >>> model.view()
    ['F10', '110', '000']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from mines.errors import IllegalMoveError, InvalidBoardError, OffBoardError
from mines.params import check_board
from mines.status import GameStatus

Cell = tuple[int, int]
"""A (row, col) pair."""


class ReferenceGame:
    """One game on a given layout, with `Game`'s moves, statuses, errors and symbols."""

    def __init__(self, rows: int, cols: int, mines: Iterable[Cell]):
        self.mines: set[Cell] = set(mines)
        self.rows, self.cols, _ = check_board(rows, cols, len(self.mines))
        outside = sorted(cell for cell in self.mines if not self.on_board(*cell))
        if outside:
            raise InvalidBoardError(f"mines {outside} are outside the {rows}x{cols} board")
        self.revealed: set[Cell] = set()
        self.flagged: set[Cell] = set()
        self.status = GameStatus.IN_PROGRESS

    # --- geometry and counts: computed when asked, never stored ----------------------------

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def neighbours(self, row: int, col: int) -> list[Cell]:
        """The up to eight cells around (row, col): diagonals count, the board's edge stops."""
        return [
            (r, c)
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if (r, c) != (row, col) and self.on_board(r, c)
        ]

    def count(self, row: int, col: int) -> int:
        """How many of the cell's neighbours are mines: the number a revealed cell shows."""
        return sum(cell in self.mines for cell in self.neighbours(row, col))

    # --- moves --------------------------------------------------------------------------------

    def reveal(self, row: int, col: int) -> GameStatus:
        """Open a cell: a mine loses, a number opens itself, a zero floods to its border.

        Revealing a revealed cell changes nothing; a flagged one is refused, as is any move
        off the board or after the game is over.
        """
        self._check("reveal", row, col)
        if (row, col) in self.flagged:
            raise IllegalMoveError(f"cannot reveal ({row}, {col}): it is flagged")
        if (row, col) not in self.revealed:
            self._open(row, col)
            self._settle()
        return self.status

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag a hidden cell or unflag a flagged one; True when it is now flagged.

        A flag is the player's note: it never decides a win, it only keeps reveals out.
        """
        self._check("flag", row, col)
        if (row, col) in self.revealed:
            raise IllegalMoveError(f"cannot flag ({row}, {col}): it is already revealed")
        self.flagged ^= {(row, col)}
        return (row, col) in self.flagged

    def chord(self, row: int, col: int) -> GameStatus:
        """On a revealed number with exactly that many flags around it, open the other hidden
        neighbours (a wrong flag makes that lose); anything else changes nothing."""
        self._check("chord", row, col)
        around = self.neighbours(row, col)
        flags = sum(cell in self.flagged for cell in around)
        if (row, col) in self.revealed and flags == self.count(row, col):
            for cell in around:
                if cell not in self.revealed and cell not in self.flagged:
                    self._open(*cell)
            self._settle()
        return self.status

    # --- what the player sees -----------------------------------------------------------------

    def view(self) -> list[str]:
        """One string per row in the symbols of `mines.Cell`, as `Game.view().to_strings()`."""
        lost, won = self.status is GameStatus.LOST, self.status is GameStatus.WON
        lines = []
        for r in range(self.rows):
            line = ""
            for c in range(self.cols):
                cell, mine = (r, c), (r, c) in self.mines
                if cell in self.revealed:
                    line += "X" if mine else str(self.count(r, c))
                elif cell in self.flagged:
                    line += "W" if lost and not mine else "F"
                elif lost and mine:
                    line += "M"
                else:
                    # Once won, every cell still hidden is a mine, and shows a flag.
                    line += "F" if won and mine else "H"
            lines.append(line)
        return lines

    # --- internals ----------------------------------------------------------------------------

    def _check(self, verb: str, row: int, col: int) -> None:
        if self.status.is_over:
            raise IllegalMoveError(f"cannot {verb}: the game is over ({self.status.value})")
        if not self.on_board(row, col):
            raise OffBoardError(f"cannot {verb} ({row}, {col}): outside the board")

    def _open(self, row: int, col: int) -> None:
        """Reveal one cell and, from a zero, flood breadth-first through zeros.

        A cell is marked revealed when it is queued, not when it is taken off the queue, so
        a cell next to several zeros is queued once: the flood costs what it opens.
        """
        self.revealed.add((row, col))
        if (row, col) in self.mines:
            self.status = GameStatus.LOST
            return
        queue = deque([(row, col)])
        while queue:
            cell = queue.popleft()
            if self.count(*cell):
                continue  # a number is the flood's border: it opens, it does not spread
            for there in self.neighbours(*cell):
                if there not in self.revealed and there not in self.flagged:
                    self.revealed.add(there)
                    queue.append(there)

    def _settle(self) -> None:
        """Won when every safe cell is revealed: counted, never judged from the flags."""
        safe_cells = self.rows * self.cols - len(self.mines)
        if self.status is GameStatus.IN_PROGRESS and len(self.revealed) == safe_cells:
            self.status = GameStatus.WON
