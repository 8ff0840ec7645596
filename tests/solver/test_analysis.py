"""`analyze`: exact probabilities against brute-force enumeration, certain cells and errors."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mines import BoardView, Game, InvalidBoardError
from mines.solver import analyze
from mines.solver.topology import neighbours
from tests.solver.brute import layouts, random_position, solved_position


def brute_force(lines: list[str], mines: int) -> dict[tuple[int, int], Fraction]:
    """The share of all fitting layouts that have a mine on each unrevealed cell."""
    unknown, found = layouts(lines, mines)
    assert found, "the generated position is consistent by construction"
    cols = len(lines[0])
    return {
        divmod(cell, cols): Fraction(sum(cell in layout for layout in found), len(found))
        for cell in unknown
    }


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[str], int]:
    """A real layout on a small board, with a random part of its safe cells revealed."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = rows * cols
    mines = draw(st.integers(0, min(cells - 1, 9)))
    layout = set(draw(st.permutations(range(cells)))[:mines])
    nbrs = neighbours(rows, cols)
    shown = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    flagged = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    symbols = []
    for cell in range(cells):
        if cell not in layout and shown[cell]:
            symbols.append(str(sum(n in layout for n in nbrs[cell])))
        else:
            symbols.append("F" if flagged[cell] else "H")
    lines = ["".join(symbols[r * cols : (r + 1) * cols]) for r in range(rows)]
    return lines, mines


@settings(max_examples=300, deadline=None)
@given(positions())
def test_probabilities_equal_brute_force(position: tuple[list[str], int]) -> None:
    lines, mines = position
    result = analyze(BoardView.from_strings(lines), mines=mines)
    expected = brute_force(lines, mines)
    assert dict(result.probabilities) == expected
    assert result.safe == {cell for cell, p in expected.items() if p == 0}
    assert result.certain_mines == {cell for cell, p in expected.items() if p == 1}
    assert set(result.reasons) == result.safe | result.certain_mines


def test_the_mines_off_the_numbers_can_hold_match_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(200):
        lines, mines = random_position(rng, 4, 5)
        solved = solved_position(lines, mines)
        assert solved.counts is not None
        frontier = {cell for cells, _ in solved.keys for cell in cells}
        unknown, possible = layouts(lines, mines)
        off = {cell for cell in unknown if cell not in frontier and cell not in solved.local}
        assert solved.counts.off_cells == len(off)
        expected = sorted({len(layout & off) for layout in possible})
        assert list(solved.counts.off_mines) == expected, (lines, mines)


def test_counts_match_a_hand_worked_position() -> None:
    # A 1 in a corner of a 2x2 board with 1 mine: each of the three hidden cells is 1/3.
    result = analyze(BoardView.from_strings(["1H", "HH"]), mines=1)
    assert result.arrangements == 3
    assert set(result.probabilities.values()) == {Fraction(1, 3)}


def test_off_frontier_cells_are_weighted_by_the_ways_to_place_the_rest() -> None:
    # The 1 takes one mine among its 3 cells (3 ways); the other goes on one of 6 cells.
    result = analyze(BoardView.from_strings(["1HHHH", "HHHHH"]), mines=2)
    assert result.arrangements == 18
    assert result.probability(1, 1) == Fraction(1, 3)
    assert result.probability(0, 4) == Fraction(1, 6)


def test_the_total_comes_from_the_view_and_flags_are_not_trusted() -> None:
    # One mine (no mines left on the counter, one flag); the numbers put it on (0, 1).
    view = BoardView.from_strings(["HHF", "111", "000"], mines_left=0)
    result = analyze(view)
    assert result.mines == 1
    assert result.certain_mines == {(0, 1)}
    assert result.safe == {(0, 0), (0, 2)}


def test_a_certain_mine_is_named_with_its_rule() -> None:
    result = analyze(BoardView.from_strings(["H1", "11"]), mines=1)
    assert result.certain_mines == {(0, 0)}
    assert "needs a mine in every undecided cell" in result.reasons[(0, 0)]


def test_the_global_count_decides_what_no_number_sees() -> None:
    result = analyze(BoardView.from_strings(["H1HH"]), mines=1)
    assert result.safe == {(0, 3)}
    assert "every arrangement" in result.reasons[(0, 3)]
    assert result.probability(0, 0) == Fraction(1, 2)


def test_contradictory_numbers_are_reported() -> None:
    with pytest.raises(InvalidBoardError, match="no arrangement"):
        analyze(BoardView.from_strings(["H4", "HH"]), mines=3)
    with pytest.raises(InvalidBoardError, match="no arrangement"):
        analyze(BoardView.from_strings(["H1", "H1", "HH"]), mines=0)


def test_a_window_or_a_finished_game_is_refused() -> None:
    game = Game(4, 4, 2, seed=1)
    with pytest.raises(InvalidBoardError, match="whole"):
        analyze(game.view(0, 0, 2, 2))
    with pytest.raises(InvalidBoardError, match="mine total"):
        analyze(BoardView.from_strings(["HH"]), mines=3)


def test_an_untouched_board_is_uniform() -> None:
    game = Game.from_preset("beginner", seed=3)
    result = analyze(game.view())
    assert set(result.probabilities.values()) == {Fraction(10, 81)}
