"""A small, obviously correct Minesweeper model that the engine is checked against."""

from __future__ import annotations

from collections import deque


class ReferenceGame:
    """Sets of cells and a plain BFS: slow, short and easy to read."""

    def __init__(self, rows: int, cols: int, mines: set[tuple[int, int]]):
        self.rows, self.cols, self.mines = rows, cols, set(mines)
        self.revealed: set[tuple[int, int]] = set()
        self.flagged: set[tuple[int, int]] = set()
        self.status = "IN_PROGRESS"

    def neighbours(self, row: int, col: int) -> list[tuple[int, int]]:
        return [
            (r, c)
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if (r, c) != (row, col) and 0 <= r < self.rows and 0 <= c < self.cols
        ]

    def count(self, row: int, col: int) -> int:
        return sum(cell in self.mines for cell in self.neighbours(row, col))

    def legal(self, row: int, col: int) -> bool:
        return self.status == "IN_PROGRESS" and 0 <= row < self.rows and 0 <= col < self.cols

    def _open(self, row: int, col: int) -> None:
        self.revealed.add((row, col))
        if (row, col) in self.mines:
            self.status = "LOST"
            return
        queue = deque([(row, col)])
        while queue:
            cell = queue.popleft()
            if self.count(*cell):
                continue
            for n in self.neighbours(*cell):
                if n not in self.revealed and n not in self.flagged:
                    self.revealed.add(n)
                    queue.append(n)

    def _settle(self) -> None:
        if self.status == "IN_PROGRESS" and len(self.revealed) == self.rows * self.cols - len(
            self.mines
        ):
            self.status = "WON"

    def reveal(self, row: int, col: int) -> str:
        """Return "illegal" where the engine must raise, else the status."""
        if not self.legal(row, col) or (row, col) in self.flagged:
            return "illegal"
        if (row, col) not in self.revealed:
            self._open(row, col)
            self._settle()
        return self.status

    def toggle_flag(self, row: int, col: int) -> str:
        if not self.legal(row, col) or (row, col) in self.revealed:
            return "illegal"
        self.flagged ^= {(row, col)}
        return self.status

    def chord(self, row: int, col: int) -> str:
        if not self.legal(row, col):
            return "illegal"
        around = self.neighbours(row, col)
        if (row, col) in self.revealed and self.count(row, col) == sum(
            n in self.flagged for n in around
        ):
            for n in around:
                if n not in self.revealed and n not in self.flagged:
                    self._open(*n)
            self._settle()
        return self.status

    def view(self) -> list[str]:
        lost, won = self.status == "LOST", self.status == "WON"
        lines = []
        for r in range(self.rows):
            line = ""
            for c in range(self.cols):
                cell, mine = (r, c), (r, c) in self.mines
                if cell in self.revealed:
                    line += "X" if mine else str(self.count(r, c))
                elif cell in self.flagged:
                    line += "W" if lost and not mine else "F"
                else:
                    line += "M" if lost and mine else "F" if won and mine else "H"
            lines.append(line)
        return lines
