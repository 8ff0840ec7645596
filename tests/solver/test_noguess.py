"""`NoGuessPlacer`: the first click opens, deduction clears the board, the seed fixes it."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from mines import (
    FixedPlacer,
    Game,
    GameId,
    InvalidBoardError,
    MinesError,
    NoGuessTooLargeError,
    placer_for_rule,
)
from mines.solver import NoGuessPlacer
from mines.solver.bench import verify_no_guess
from mines.solver.noguess import CELL_LIMIT, clears_without_guessing

BOARDS = [(9, 9, 10, (4, 4)), (16, 16, 40, (3, 3)), (16, 30, 99, (3, 3)), (8, 8, 20, (0, 0))]


@pytest.mark.parametrize(("rows", "cols", "mines", "first"), BOARDS)
@pytest.mark.parametrize("seed", range(3))
def test_boards_solve_without_guessing(
    rows: int, cols: int, mines: int, first: tuple[int, int], seed: int
) -> None:
    layout = NoGuessPlacer(seed).place(rows, cols, mines, first)
    assert layout.shape == (mines, 2)
    assert layout.dtype == np.int64
    cells = {(int(r), int(c)) for r, c in layout.tolist()}
    assert len(cells) == mines
    assert all(abs(r - first[0]) > 1 or abs(c - first[1]) > 1 for r, c in cells)
    game = Game(rows, cols, mines, placer=FixedPlacer(sorted(cells)))
    assert verify_no_guess(game, first)


def test_a_random_board_usually_needs_a_guess() -> None:
    # The check itself must be able to fail: most random expert boards need a guess.
    needs_guess = 0
    for seed in range(10):
        layout = Game.from_preset("expert", seed=seed).placer.place(16, 30, 99, (3, 3))
        cells = {int(r) * 30 + int(c) for r, c in layout.tolist()}
        needs_guess += not clears_without_guessing(16, 30, cells, (3, 3))
    assert needs_guess >= 5


def test_the_seed_fixes_the_layout() -> None:
    first = NoGuessPlacer(7).place(16, 30, 99, (3, 3))
    assert np.array_equal(first, NoGuessPlacer(7).place(16, 30, 99, (3, 3)))
    assert not np.array_equal(first, NoGuessPlacer(8).place(16, 30, 99, (3, 3)))


def test_the_rule_is_registered_for_game_ids() -> None:
    placer = placer_for_rule("noguess", 5)
    assert isinstance(placer, NoGuessPlacer)
    assert (placer.rule, placer.seed) == ("noguess", 5)
    game = Game.from_id("16x30n99:noguess#5")
    game.reveal(3, 3)
    assert game.view()[3, 3].value == "0"
    assert str(game.game_id) == str(GameId.parse("16x30n99:noguess#5"))


def test_too_many_mines_for_an_opening_is_refused() -> None:
    with pytest.raises(InvalidBoardError, match="at most 16"):
        NoGuessPlacer(1).place(5, 5, 17, (2, 2))


@pytest.mark.parametrize(
    ("board", "seed", "digest"),
    [
        ((16, 30, 99, (3, 3)), 5, "d35cdd95b77930f5"),
        ((9, 9, 10, (4, 4)), 0, "4a4bb5a4179747af"),
        ((30, 30, 240, (15, 15)), 3, "5f005faa4973a394"),
    ],
)
def test_a_seed_keeps_its_board_across_versions(
    board: tuple[int, int, int, tuple[int, int]], seed: int, digest: str
) -> None:
    """Game IDs name boards: these layouts are the ones the generator made before it moved
    onto the engine's arrays, and must not change."""
    layout = NoGuessPlacer(seed).place(*board)
    assert hashlib.sha256(layout.tobytes()).hexdigest()[:16] == digest


def test_a_board_too_big_to_generate_is_refused_before_any_work() -> None:
    with pytest.raises(NoGuessTooLargeError, match=r"at most 4,000,000 cells.*smaller board"):
        Game.from_id("20000x20000n10:noguess#1")
    assert issubclass(NoGuessTooLargeError, MinesError)
    assert issubclass(NoGuessTooLargeError, InvalidBoardError)
    with pytest.raises(NoGuessTooLargeError):
        NoGuessPlacer(1).place(CELL_LIMIT + 1, 1, 1, (0, 0))
    Game.from_id("2000x2000n10:noguess#1")  # the limit itself is allowed
