"""`hint`: a safe cell with its rule when there is one, else the least risky cell."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mines import BoardView, Game, InvalidBoardError
from mines.solver import Hint, analyze, hint


def test_a_certainly_safe_cell_comes_with_its_rule() -> None:
    found = hint(BoardView.from_strings(["HHH", "121", "000"], mines_left=2))
    assert found == Hint(0, 1, True, Fraction(0), found.reason)
    assert "the 1 at" in found.reason
    assert "safe" in found.reason


def test_without_a_safe_cell_the_least_risky_cell_is_named() -> None:
    # The 1 shares its mine among three cells (1/3 each); the other mine is on one of the
    # six cells out of its sight (1/6 each).
    view = BoardView.from_strings(["1HHHH", "HHHHH"], mines_left=2)
    found = hint(view)
    assert not found.safe
    assert found.mine_probability == min(analyze(view).probabilities.values())
    assert found.mine_probability == Fraction(1, 6)
    assert "lowest chance" in found.reason


def test_a_game_is_accepted_and_its_view_used() -> None:
    game = Game.from_position(3, 3, [(0, 0)], revealed=[(1, 1), (0, 1)])
    found = hint(game)
    assert found.safe
    assert game.view()[found.row, found.col].value == "H"


def test_a_finished_game_has_no_hint() -> None:
    game = Game.from_position(1, 2, [(0, 0)], revealed=[(0, 1)])
    with pytest.raises(InvalidBoardError, match="over"):
        hint(game)
