"""LeetCode 529 `update_board`: one click on a board of M, E, B, 1-8 and X, through `Game`."""

from __future__ import annotations

from typing import TypeVar

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.symbols import Cell

LeetCodeBoard = TypeVar("LeetCodeBoard", list[str], list[list[str]])
"""A board as LeetCode gives it: rows as strings, or as lists of one-character strings."""

_UNREVEALED = {"M", "E"}
_REVEALED_SAFE = {"B", "1", "2", "3", "4", "5", "6", "7", "8"}


def update_board(board: LeetCodeBoard, click: list[int] | tuple[int, int]) -> LeetCodeBoard:
    """Apply one click with LeetCode 529's rules; returns a new board of the same shape.

    Accepts a list of strings or a list of lists of one-character strings.
    """
    grid = [list(row) for row in board]
    if not grid or not grid[0] or any(len(row) != len(grid[0]) for row in grid):
        raise InvalidBoardError("the board must be a non-empty rectangle of cells")
    allowed = _UNREVEALED | _REVEALED_SAFE | {"X"}
    if bad := sorted({ch for row in grid for ch in row} - allowed):
        raise InvalidBoardError(f"unknown cells {bad}; allowed: M, E, B, 1-8, X")
    rows, cols = len(grid), len(grid[0])
    row, col = click
    if not (0 <= row < rows and 0 <= col < cols) or grid[row][col] not in _UNREVEALED:
        raise InvalidBoardError(f"the click {list(click)} must be on an M or E cell of the board")

    def cells(symbols: set[str]) -> list[tuple[int, int]]:
        return [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] in symbols]

    if not cells({"E"}):
        # No safe cell is left to open, so no game is in progress: the click is on a mine (rule 1).
        grid[row][col] = "X"
    else:
        game = Game.from_position(rows, cols, cells({"M", "X"}), revealed=cells(_REVEALED_SAFE))
        game.reveal(row, col)
        view = game.view()
        for r, c in cells(_UNREVEALED):
            cell = view[r, c]
            if cell is Cell.EXPLODED:
                grid[r][c] = "X"
            elif (number := cell.number) is not None:
                grid[r][c] = "B" if number == 0 else str(number)
    result: LeetCodeBoard
    result = ["".join(line) for line in grid] if isinstance(board[0], str) else grid
    return result
