"""The sparse engine's parts against plain arrays: blocks, pockets and the squeezed grid."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from mines import FixedPlacer, Game, grid
from mines.sparse.blocks import Blocks
from mines.sparse.compressed import SqueezedBoard
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


@given(grid=obstacle_grids())
@settings(max_examples=200)
def test_pockets_are_the_regions_that_are_not_the_sea(grid: np.ndarray) -> None:
    rows, cols = grid.shape
    pockets = find_pockets(rows, cols, flat_of(grid))
    if pockets is None:  # a cluster runs edge to edge: the squeezed grid answers instead
        return
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
