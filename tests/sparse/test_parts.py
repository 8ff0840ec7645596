"""The sparse engine's parts against plain arrays: blocks, pockets and the squeezed grid."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import ndimage

from mines import FixedPlacer, Game, grid
from mines.dense import DenseEngine
from mines.engine import Engine
from mines.sparse.blocks import Blocks
from mines.sparse.changes import BlockChanges, ComplementChanges
from mines.sparse.compressed import SqueezedBoard
from mines.sparse.engine import SparseEngine
from mines.sparse.pockets import find_pockets

EIGHT = np.ones((3, 3), dtype=bool)


@st.composite
def obstacle_grids(draw: st.DrawFn) -> np.ndarray:
    rows, cols = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    cells = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    return np.array(cells, dtype=bool).reshape(rows, cols)


def flat_of(grid: np.ndarray) -> np.ndarray:
    return np.flatnonzero(grid).astype(np.int64)


@given(grid=obstacle_grids())
def test_blocks_cover_exactly_the_cells(grid: np.ndarray) -> None:
    rows, cols = grid.shape
    blocks = Blocks.of_cells(flat_of(grid), cols)
    covered = np.zeros(grid.shape, dtype=int)
    for t, lft, b, r in zip(blocks.top, blocks.left, blocks.bottom, blocks.right, strict=True):
        covered[t:b, lft:r] += 1
    assert (covered == grid).all()
    assert blocks.area == int(grid.sum())
    assert (blocks.mask(0, 0, rows, cols) == grid).all()


@given(grid=obstacle_grids())
@settings(max_examples=200)
def test_squeezed_regions_are_the_board_regions(grid: np.ndarray) -> None:
    rows, cols = grid.shape
    labels, count = ndimage.label(~grid, structure=EIGHT)
    squeezed = SqueezedBoard(rows, cols, Blocks.of_cells(flat_of(grid), cols))
    assert squeezed.count == count
    for label in range(1, count + 1):
        cell = int(np.flatnonzero(labels == label)[0])
        region = squeezed.region(squeezed.label_of(cell))
        assert (region.mask(0, 0, rows, cols) == (labels == label)).all()


@st.composite
def clumped_grids(draw: st.DrawFn) -> np.ndarray:
    """A few small clumps of obstacles on a board up to 24 a side: rings, walls against an
    edge or in a corner, the shapes that wall pockets off without spanning the board (half
    of `obstacle_grids`' cells are obstacles, so most of its boards span it)."""
    rows, cols = draw(st.integers(3, 24)), draw(st.integers(3, 24))
    grid = np.zeros((rows, cols), dtype=bool)
    for _ in range(draw(st.integers(1, 4))):
        height, width = draw(st.integers(1, min(5, rows))), draw(st.integers(1, min(5, cols)))
        # Clumps are drawn against the edges and corners as often as inland.
        top = draw(st.sampled_from([0, rows - height, draw(st.integers(0, rows - height))]))
        left = draw(st.sampled_from([0, cols - width, draw(st.integers(0, cols - width))]))
        cells = draw(st.lists(st.booleans(), min_size=height * width, max_size=height * width))
        clump = np.array(cells, dtype=bool).reshape(height, width)
        if draw(st.booleans()):  # a ring: the surest pocket
            clump[:] = False
            clump[[0, -1], :] = clump[:, [0, -1]] = True
        grid[top : top + height, left : left + width] |= clump
    return grid


def check_pockets(grid: np.ndarray) -> bool:
    """Whether `find_pockets` answered for `grid`; if it did, that its pockets are exactly the
    free regions that are not the one sea."""
    rows, cols = grid.shape
    pockets = find_pockets(rows, cols, flat_of(grid))
    if pockets is None:  # a cluster runs edge to edge: the squeezed grid answers instead
        return False
    labels, count = ndimage.label(~grid, structure=EIGHT)
    listed = set(pockets.distinct_cells().tolist())
    sizes = [int((labels == label).sum()) for label in range(1, count + 1)]
    # Every region is either entirely a pocket or the one sea.
    regions = [set(np.flatnonzero(labels == label).tolist()) for label in range(1, count + 1)]
    seas = [region for region in regions if not region <= listed]
    assert len(seas) == int(pockets.sea) <= 1
    assert all(region.isdisjoint(listed) for region in seas)
    assert pockets.count() == count - len(seas)
    assert sum(sizes) - sum(len(sea) for sea in seas) == len(listed)
    for region in regions:
        cell = min(region)
        own = pockets.component_of(cell)
        if region in seas:
            assert own is None
        else:
            assert own is not None
            assert set(own.tolist()) == region
    return True


@given(grid=obstacle_grids())
@settings(max_examples=200)
def test_pockets_are_the_regions_that_are_not_the_sea(grid: np.ndarray) -> None:
    check_pockets(grid)


@given(grid=clumped_grids())
@settings(max_examples=300)
def test_pockets_walled_off_by_clumps_inland_on_edges_and_in_corners(grid: np.ndarray) -> None:
    assume(check_pockets(grid))


@pytest.mark.parametrize(
    ("rows", "cols", "wall"),
    [
        (8, 9, [(0, 6), (1, 6), (2, 6), (2, 7), (2, 8)]),  # the top right corner
        (8, 9, [(0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]),  # the top left corner
        (8, 9, [(5, 0), (5, 1), (5, 2), (6, 2), (7, 2)]),  # the bottom left corner
        (8, 9, [(5, 8), (5, 7), (5, 6), (6, 6), (7, 6)]),  # the bottom right corner
        (8, 9, [(0, 3), (1, 3), (2, 3), (2, 4), (2, 5), (1, 5), (0, 5)]),  # against the top edge
        (8, 9, [(3, 3), (3, 4), (3, 5), (4, 3), (4, 5), (5, 3), (5, 4), (5, 5)]),  # inland
    ],
    ids=["top-right", "top-left", "bottom-left", "bottom-right", "top-edge", "inland"],
)
def test_a_pocket_against_each_corner_and_edge(
    rows: int, cols: int, wall: list[tuple[int, int]]
) -> None:
    """One wall (a 4-connected chain: the free cells meet across corners), one pocket, with
    each side of the wall's box the board's edge in turn (a box's open sides are where what
    it holds may reach the sea)."""
    grid = np.zeros((rows, cols), dtype=bool)
    grid[tuple(np.array(wall).T)] = True
    assert check_pockets(grid)
    pockets = find_pockets(rows, cols, flat_of(grid))
    assert pockets is not None
    assert pockets.count() == 1
    assert pockets.sea


def test_a_box_against_two_edges_finds_the_sea_through_its_other_sides() -> None:
    """A board a search over random boards found: one cluster's box lies against the top and
    right edges, so only its bottom and left sides are open, and the sea must be found through
    those (a check that looked there only at the bottom left corner took the sea for a
    pocket)."""
    mines = [(0, 6), (0, 10), (1, 10), (2, 2), (2, 9), (3, 3), (3, 7), (3, 9)]
    mines += [(7, 12), (8, 4), (8, 6), (11, 12), (12, 0), (12, 1), (12, 2), (12, 7)]
    grid = np.zeros((15, 13), dtype=bool)
    grid[tuple(np.array(mines).T)] = True
    assert check_pockets(grid)
    pockets = find_pockets(15, 13, flat_of(grid))
    assert pockets is not None
    assert pockets.count() == 0


def test_a_pocket_bigger_than_the_budget_opens_alone() -> None:
    square = [(10 + dr, 10 + dc) for dr in range(9) for dc in range(9)]
    ring = [(r, c) for r, c in square if r in (10, 18) or c in (10, 18)]
    dense, sparse = (
        Game(30, 30, len(ring), placer=FixedPlacer(ring), engine=kind)
        for kind in ("dense", "sparse")
    )
    budget = grid.FLOOD_BUDGET
    grid.FLOOD_BUDGET = 0
    try:
        for game in (dense, sparse):
            game.reveal(14, 14)
    finally:
        grid.FLOOD_BUDGET = budget
    assert sparse.view().to_strings() == dense.view().to_strings()
    assert sparse.view(13, 13, 1, 3).to_strings() == ["000"]
    assert sparse.view(0, 0, 1, 1).to_strings() == ["H"]


@given(
    rows=st.integers(1, 9),
    cols=st.integers(1, 9),
    data=st.data(),
)
@settings(max_examples=300)
def test_complement_changes_list_bound_and_window_the_cells_they_changed(
    rows: int, cols: int, data: st.DataObject
) -> None:
    """A flood that opened nearly the whole board keeps only the cells it did not change;
    what it answers is checked against the changed cells listed plainly. Whole rows and
    columns left unchanged at the board's edges are drawn often: they move the bounds."""
    unchanged = np.array(
        data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)), dtype=bool
    ).reshape(rows, cols)
    for axis, size in ((0, rows), (1, cols)):
        for line in data.draw(st.sets(st.sampled_from([0, 1, size - 2, size - 1]), max_size=3)):
            if 0 <= line < size:
                unchanged[(line, slice(None)) if axis == 0 else (slice(None), line)] = True
    changes = ComplementChanges(rows, cols, flat_of(unchanged))
    changed = ~unchanged
    listed = [(int(r), int(c)) for r, c in np.argwhere(changed)]
    assert len(changes) == len(listed)
    assert list(changes) == listed
    if listed:
        (top, left), (bottom, right) = np.argwhere(changed).min(0), np.argwhere(changed).max(0)
        assert changes.bounds() == (top, left, bottom + 1, right + 1)
    else:
        assert changes.bounds() is None
    top, left = data.draw(st.integers(-2, rows)), data.draw(st.integers(-2, cols))
    height, width = data.draw(st.integers(0, rows + 2)), data.draw(st.integers(0, cols + 2))
    inside = [(r, c) for r, c in listed if top <= r < top + height and left <= c < left + width]
    assert sorted(changes.within(top, left, height, width)) == inside


@pytest.mark.parametrize(
    ("rows", "cols", "changes"),
    [(9, 10, BlockChanges), (20, 20, ComplementChanges)],
    ids=["walls-cut-the-board", "one-sea"],
)
def test_a_position_restored_after_a_flood_counts_its_opened_cells_as_the_dense_engine(
    rows: int, cols: int, changes: type
) -> None:
    """`restore` marks cells as they stand, also on an engine a big flood has opened: after a
    flood across walls (the sparse engine keeps blocks) and after a flood of the sea (it lists
    the cells still hidden instead). Revealed mines are not opened cells."""
    mines = np.array([[2, 2], [2, 3], [7, 8], [8, 1]], dtype=np.int64)
    revealed = np.array([[2, 2], [1, 2], [3, 3], [8, 0]], dtype=np.int64)  # one is a mine
    flagged = np.array([[7, 8], [8, 2]], dtype=np.int64)
    engines: list[Engine] = [DenseEngine(rows, cols), SparseEngine(rows, cols)]
    # No walk cell by cell: the sparse engine floods as on a huge board.
    with patch.object(grid, "FLOOD_BUDGET", 0):
        for engine in engines:
            engine.place(mines)
            flood = engine.open(5, 5)
            engine.restore(revealed, flagged)
    assert isinstance(flood, changes)
    dense, sparse = engines
    assert sparse.opened == dense.opened
    assert sparse.flags == dense.flags == 2
    assert [[sparse.state(r, c) for c in range(cols)] for r in range(rows)] == [
        [dense.state(r, c) for c in range(cols)] for r in range(rows)
    ]
