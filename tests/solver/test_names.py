"""Closed sets in the solver are enums: the rule behind a certain cell, and when to count."""

from __future__ import annotations

import pytest

from mines import BoardView
from mines.solver.analysis import Counting, Position, solve
from mines.solver.counting import Counter
from mines.solver.rules import COUNTING, DeductionRule


def position(lines: list[str], mines: int) -> Position:
    return Position.from_view(BoardView.from_strings(lines), mines)


def test_each_certain_cell_names_its_rule_as_an_enum_member() -> None:
    # The 1 in the corner sees one undecided cell: a mine by the single rule.
    single = solve(position(["1H", "11"], 1), Counter())
    assert single.reasons[1].rule is DeductionRule.SINGLE
    # The 2 sees one more cell than the 1 beside it, and needs one more mine: a pair.
    pair = solve(position(["HHH", "121"], 2), Counter())
    assert pair.reasons[2].rule is DeductionRule.PAIR
    assert COUNTING.rule is DeductionRule.COUNT


def test_when_to_count_is_an_enum_and_its_strings_still_work() -> None:
    lines = ["1H", "HH"]
    stuck = solve(position(lines, 1), Counter(), count=Counting.IF_STUCK)
    same = solve(position(lines, 1), Counter(), count="if-stuck")
    assert stuck.counts is not None  # stuck: nothing safe, so it counted anyway
    assert stuck.known == same.known
    found = solve(position(["HHH", "121"], 2), Counter(), count=Counting.IF_STUCK)
    assert found.safe_cells()
    assert found.counts is None  # a safe cell was found, so counting could wait
    assert solve(position(["HHH", "121"], 2), Counter()).counts is not None
    with pytest.raises(ValueError, match="sometimes"):
        solve(position(lines, 1), Counter(), count="sometimes")  # type: ignore[arg-type]
