"""`mines.reference` as a public module: its example runs, and bad input gets the core's errors."""

from __future__ import annotations

import doctest

import pytest

import mines.reference
from mines import GameStatus, IllegalMoveError, InvalidBoardError, OffBoardError
from mines.reference import ReferenceGame


def test_the_module_docstring_example_runs() -> None:
    result = doctest.testmod(mines.reference, raise_on_error=False)
    assert result.attempted >= 3
    assert result.failed == 0


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "says"),
    [
        (0, 3, set(), "rows must be at least 1"),
        (2, 2, {(0, 0), (0, 1), (1, 0), (1, 1)}, "mines must be from 0 to 3"),
        (2, 2, {(2, 0)}, "outside the 2x2 board"),
    ],
)
def test_a_board_that_cannot_exist_is_refused(
    rows: int, cols: int, mines: set[tuple[int, int]], says: str
) -> None:
    with pytest.raises(InvalidBoardError, match=says):
        ReferenceGame(rows, cols, mines)


def test_moves_are_refused_as_game_refuses_them() -> None:
    model = ReferenceGame(2, 3, {(0, 0)})
    with pytest.raises(OffBoardError, match="outside the board"):
        model.reveal(2, 0)
    assert model.toggle_flag(1, 2) is True
    with pytest.raises(IllegalMoveError, match="flagged"):
        model.reveal(1, 2)
    assert model.toggle_flag(1, 2) is False
    assert model.reveal(1, 1) is GameStatus.IN_PROGRESS  # a 1: it opens alone
    assert model.view() == ["HHH", "H1H"]
    with pytest.raises(IllegalMoveError, match="already revealed"):
        model.toggle_flag(1, 1)
    assert model.reveal(0, 0) is GameStatus.LOST
    assert model.view() == ["XHH", "H1H"]
    with pytest.raises(IllegalMoveError, match="the game is over"):
        model.chord(1, 1)
