"""The dense engine's own methods beyond the engine contract, and the types its answers carry."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest

from mines import grid
from mines.dense import DenseEngine
from mines.engine import CellState
from mines.sparse.engine import SparseEngine


def laid(rows: int, cols: int, mines: list[tuple[int, int]]) -> DenseEngine:
    engine = DenseEngine(rows, cols)
    engine.place(np.array(mines, dtype=np.int64).reshape(-1, 2))
    return engine


@pytest.mark.parametrize("engine_type", [DenseEngine, SparseEngine])
def test_an_engine_before_its_mines_are_laid_has_none_as_pairs_of_whole_numbers(
    engine_type: type[DenseEngine] | type[SparseEngine],
) -> None:
    mines = engine_type(3, 4).mines()
    assert mines.shape == (0, 2)
    assert mines.dtype == np.int64


@pytest.mark.parametrize(
    ("source", "target"),
    [((1, 1), (3, 2)), ((0, 0), (0, 4)), ((3, 4), (2, 0)), ((2, 2), (1, 2))],
    ids=["inside-to-edge", "corner-to-corner", "corner-to-edge", "next-door"],
)
def test_moving_a_mine_keeps_every_count_right(
    source: tuple[int, int], target: tuple[int, int]
) -> None:
    """The no-guess generator moves mines while it plays: every count around both cells moves
    with it, revealed numbers included, and nothing else about a cell changes."""
    mines = [(0, 0), (1, 1), (2, 2), (3, 4)]
    engine = laid(4, 5, mines)
    engine.open(2, 3)
    engine.set_flag(3, 0, True)
    engine.move_mine(source, target)
    after = sorted({*mines} - {source} | {target})
    fresh = laid(4, 5, after)
    assert np.array_equal(engine.counts(), fresh.counts())
    assert np.array_equal(engine.mine_mask(), fresh.mine_mask())
    assert engine.mines().tolist() == [list(cell) for cell in after]
    assert engine.mines().dtype == np.int64
    assert not engine.mines().flags.writeable
    assert not engine.is_mine(*source)
    assert engine.is_mine(*target)
    assert engine.state(2, 3) is CellState.REVEALED
    assert engine.state(3, 0) is CellState.FLAGGED
    assert engine.flags == 1


def test_the_masks_say_exactly_which_cells_are_mines_and_which_are_open() -> None:
    engine = laid(3, 4, [(0, 3), (2, 0)])
    engine.set_flag(0, 3, True)
    engine.open(0, 0)  # a zero: opens its region and the numbers around it
    engine.open(2, 0)  # the mine itself: revealed as well
    mines = engine.mine_mask()
    assert mines.dtype == np.bool_
    assert mines.tolist() == [
        [False, False, False, True],
        [False, False, False, False],
        [True, False, False, False],
    ]
    revealed = engine.revealed_mask()
    assert revealed.dtype == np.bool_
    assert revealed.tolist() == [
        [True, True, True, False],
        [True, True, True, False],
        [True, False, False, False],
    ]


def test_flags_are_listed_as_pairs_of_whole_numbers() -> None:
    engine = laid(3, 3, [(1, 1)])
    engine.set_flag(2, 1, True)
    engine.set_flag(0, 2, True)
    flagged = engine.flagged()
    assert flagged.dtype == np.int64
    assert flagged.tolist() == [[0, 2], [2, 1]]


def test_a_flood_too_big_for_the_cell_by_cell_walk_lists_whole_numbers() -> None:
    """A region past the walk's budget is opened by labelling arrays; its changes are still
    (row, col) pairs of Python ints, as every other move's (they end up in JSON answers), and
    the count of opened cells goes on from the cells opened before it."""
    side = 60
    assert side * side > grid.FLOOD_BUDGET
    engine = laid(side, side, [(side - 1, side - 1)])
    assert len(engine.open(side - 1, side - 2)) == 1  # a number: the flood counts on from it
    changes = engine.open(0, 0)
    assert len(changes) == side * side - 2
    assert engine.opened == side * side - 1
    cells = list(changes)
    assert all(type(row) is int and type(col) is int for row, col in cells)
    assert set(cells) == {(r, c) for r in range(side) for c in range(side)} - {
        (side - 1, side - 1),
        (side - 1, side - 2),
    }
    assert changes.bounds() == (0, 0, side, side)
    assert all(type(edge) is int for edge in changes.bounds() or ())


@pytest.mark.parametrize("engine_type", [DenseEngine, SparseEngine])
def test_the_mines_an_engine_hands_out_cannot_be_changed_through_it(
    engine_type: type[DenseEngine] | type[SparseEngine],
) -> None:
    """`mines()` is the engine's own array, not a copy: writing to it must fail rather than
    move a mine behind the counts' back."""
    engine = engine_type(3, 3)
    engine.place(np.array([[1, 1]], dtype=np.int64))
    with pytest.raises(ValueError, match="read-only"):
        engine.mines()[0, 0] = 0
    assert engine.mines().tolist() == [[1, 1]]


@pytest.mark.parametrize("budget", [grid.FLOOD_BUDGET, 0])
def test_a_flood_crosses_a_line_of_flags_where_two_zeros_touch_at_a_corner(budget: int) -> None:
    """Flags on one diagonal of the board leave the zeros on either side touching only at
    corners: the flood goes on through them (zeros are neighbours in eight directions), by
    the cell-by-cell walk and by labelling (a budget of 0 sends every flood there) alike."""
    side = 10
    engine = laid(side, side, [(side - 1, side - 1)])
    line = [(row, side - 1 - row) for row in range(side)]
    for row, col in line:
        engine.set_flag(row, col, True)
    with patch.object(grid, "FLOOD_BUDGET", budget):
        changes = engine.open(0, 0)
    everything = {(r, c) for r in range(side) for c in range(side)}
    assert set(changes) == everything - set(line) - {(side - 1, side - 1)}
    assert engine.opened == side * side - side - 1


@pytest.mark.parametrize(("rows", "cols"), [(12, 4), (4, 12)], ids=["tall", "wide"])
def test_a_labelled_flood_reaches_the_far_end_of_a_long_board(rows: int, cols: int) -> None:
    """The labelling's window grows along each axis by that axis's own size: on a board far
    taller than wide (or wider than tall) the flood still reaches the far end."""
    engine = laid(rows, cols, [(rows - 1, cols - 1)])
    with patch.object(grid, "FLOOD_BUDGET", 0):
        changes = engine.open(0, 0)
    assert set(changes) == {(r, c) for r in range(rows) for c in range(cols)} - {
        (rows - 1, cols - 1)
    }
