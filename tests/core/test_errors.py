"""Each kind of wrong has its own error class: unreadable text, a refused move, a bad view."""

from __future__ import annotations

import pytest

import mines
import mines.errors
from mines import (
    EngineLimitError,
    FixedPlacer,
    Game,
    GameInProgressError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    InvalidViewError,
    MinesError,
    MinesNotPlacedError,
    Move,
    ViewTooLargeError,
)


@pytest.mark.parametrize("text", ["Z1,1", "O3", "O-1,2", "", "open 3 4", "O3,4;F1,1"])
def test_unreadable_move_text_is_an_invalid_move_not_an_illegal_one(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="write O, F or C") as caught:
        Move.parse(text)
    assert not isinstance(caught.value, IllegalMoveError)


def test_a_readable_move_the_rules_refuse_is_illegal_not_invalid() -> None:
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]))
    game.toggle_flag(1, 1)
    with pytest.raises(IllegalMoveError, match="flagged") as caught:
        game.play("O1,1")
    assert not isinstance(caught.value, InvalidMoveError)
    with pytest.raises(IllegalMoveError, match="outside the board"):
        game.play("O7,7")


def test_bad_view_windows_are_view_errors_not_move_errors() -> None:
    game = Game(4, 4, 1, seed=0)
    for window in [(3, 0, 2, 2), (-1, 0, 1, 1), (0, 0, 0, 1)]:
        with pytest.raises(InvalidViewError) as caught:
            game.view(*window)
        assert not isinstance(caught.value, IllegalMoveError | ViewTooLargeError)
    with pytest.raises(InvalidViewError, match="must be an integer"):
        game.view(0, 0, 1.5, 1)  # type: ignore[arg-type]


def test_a_view_too_large_is_a_view_error_that_asks_for_a_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("mines.game.VIEW_CELL_LIMIT", 10)
    with pytest.raises(ViewTooLargeError, match=r"ask for a window") as caught:
        Game(4, 4, 1, seed=0).view()
    assert isinstance(caught.value, InvalidViewError)
    assert not isinstance(caught.value, IllegalMoveError)


def test_three_bv_before_the_first_reveal_is_its_own_kind() -> None:
    game = Game(3, 3, 1, seed=0)
    with pytest.raises(MinesNotPlacedError, match="first reveal") as caught:
        _ = game.three_bv
    assert not isinstance(caught.value, IllegalMoveError)


def test_an_engine_limit_is_a_refused_move() -> None:
    # The game refuses the move and stays as it was, so handlers of refused moves keep working.
    assert issubclass(EngineLimitError, IllegalMoveError)
    assert not issubclass(GameInProgressError, IllegalMoveError)


def test_every_error_is_a_mines_error_and_a_value_error_exported_from_mines() -> None:
    """Every class of mines.errors, found by looking, not by a list that could miss one."""
    kinds = [
        kind
        for kind in vars(mines.errors).values()
        if isinstance(kind, type) and issubclass(kind, MinesError) and kind is not MinesError
    ]
    assert {InvalidBoardError, InvalidMoveError, IllegalMoveError, EngineLimitError} < set(kinds)
    assert {InvalidViewError, ViewTooLargeError, MinesNotPlacedError, GameInProgressError} < set(
        kinds
    )
    for kind in kinds:
        assert issubclass(kind, MinesError)
        assert issubclass(kind, ValueError)
        assert getattr(mines, kind.__name__) is kind
        assert kind.__name__ in mines.__all__
