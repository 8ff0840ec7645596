"""Validation of board parameters, shared by games, game IDs and records."""

from __future__ import annotations

from mines.errors import InvalidBoardError


def check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidBoardError(f"{name} must be an integer, got {value!r}")
    return value


def check_board(rows: object, cols: object, mines: object) -> tuple[int, int, int]:
    """Return (rows, cols, mines) if they make a board, else say which value is wrong."""
    rows, cols, mines = check_int("rows", rows), check_int("cols", cols), check_int("mines", mines)
    if rows < 1:
        raise InvalidBoardError(f"rows must be at least 1, got {rows}")
    if cols < 1:
        raise InvalidBoardError(f"cols must be at least 1, got {cols}")
    if not 0 <= mines < rows * cols:
        raise InvalidBoardError(
            f"mines must be from 0 to {rows * cols - 1} on a {rows}x{cols} board "
            f"(fewer than its {rows * cols} cells), got {mines}"
        )
    return rows, cols, mines
