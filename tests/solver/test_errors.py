"""The solver's "no arrangement" is its own class, so a real `InvalidBoardError` is not hidden."""

from __future__ import annotations

from typing import Any

import pytest

from mines import InvalidBoardError
from mines.solver import Bot
from mines.solver.counting import Counter, NoArrangementError
from mines.solver.fifty import trap_weights
from tests.solver.brute import solved_position


def broken_count(self: Counter, *args: Any) -> Any:
    raise InvalidBoardError("a bug, not an impossible number")


def test_no_arrangement_is_still_an_invalid_board_for_callers_of_analyze() -> None:
    assert issubclass(NoArrangementError, InvalidBoardError)


def test_the_lookahead_skips_impossible_numbers_but_not_a_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solved = solved_position(["1HH", "HHH"], 2)
    assert Bot(0).lookahead(solved, 2)[1] == 2  # the numbers it cannot show were skipped
    monkeypatch.setattr(Counter, "count", broken_count)
    with pytest.raises(InvalidBoardError, match="a bug"):
        Bot(0).lookahead(solved, 2)


def test_trap_weights_skip_impossible_traps_but_not_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    solved = solved_position(["HH", "11", "00"], 1)
    assert sum(trap_weights(solved, 0, Counter()).values()) == 1
    monkeypatch.setattr(Counter, "count", broken_count)
    with pytest.raises(InvalidBoardError, match="a bug"):
        trap_weights(solved, 0, Counter())
