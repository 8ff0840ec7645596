"""The packed cell byte and the grid's array functions, over one board or a stack of them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mines import Game
from mines.cellbyte import (
    BLOCKED,
    BORDER,
    FLAGGED,
    bordered,
    flagged,
    flood,
    lay,
    mines,
    openable,
    revealed,
    symbol_table,
)
from mines.dense import DenseEngine
from mines.engine import cell_symbols
from mines.grid import count_around, dilate, walk
from mines.status import GameStatus


def test_counts_and_dilation_of_a_stack_are_each_boards_own() -> None:
    rng = np.random.default_rng(0)
    stack = rng.random((7, 5, 6)) < 0.3
    counts, grown = count_around(stack), dilate(stack)
    for board in range(7):
        assert np.array_equal(counts[board], count_around(stack[board]))
        assert np.array_equal(grown[board], dilate(stack[board]))
    # A mine in a corner counts for its own board's three neighbours and no one else's.
    corner = np.zeros((2, 3, 3), dtype=bool)
    corner[0, 2, 2] = True
    assert count_around(corner)[1].sum() == 0
    assert count_around(corner)[0].sum() == 3


def test_laid_boards_show_as_the_dense_engine_shows_them() -> None:
    layout = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]], dtype=bool)
    cells = bordered(2, 3, 4)
    assert (cells[:, 0] == BORDER).all()
    assert (cells[:, :, -1] == BORDER).all()
    inner = cells[:, 1:-1, 1:-1]
    lay(inner, np.stack([layout, np.zeros_like(layout)]))
    assert np.array_equal(mines(inner[0]), layout)
    assert not mines(inner[1]).any()
    game = Game.from_position(3, 4, [(0, 0), (1, 2)], revealed=[(2, 0)])
    engine = DenseEngine(3, 4)
    engine.place(np.argwhere(layout))
    assert np.array_equal(engine.counts(), inner[0] & 0x0F)
    inner[0, 2, 0] |= 0x40  # reveal (2, 0) by hand, as from_position does
    assert np.array_equal(symbol_table(GameStatus.IN_PROGRESS)[inner[0]], game.view().array)
    assert openable(inner[0]).sum() == 11
    assert revealed(inner[0]).sum() == 1
    assert not flagged(inner).any()


def test_the_symbol_table_is_cell_symbols_of_every_byte() -> None:
    for status in GameStatus:
        table = symbol_table(status)
        byte = np.arange(256, dtype=np.uint8)
        shown = (byte & 0x40) != 0
        direct = cell_symbols(
            byte & np.uint8(0x0F),
            (byte & 0x10) != 0,
            ((byte & 0x20) != 0) & ~shown,
            shown,
            status=status,
        )
        assert np.array_equal(table, direct)


def test_the_array_flood_is_the_walks_flood_on_one_board_and_on_a_stack() -> None:
    """One label-and-dilate flood (`cellbyte.flood`) for the dense engine and the batched env:
    on a stack it opens each board's own cells, and on a board what `grid.walk` opens."""
    rng = np.random.default_rng(7)
    boards, rows, cols = 12, 9, 11
    stack = bordered(boards, rows, cols)
    lay(stack[:, 1:-1, 1:-1], rng.random((boards, rows, cols)) < 0.12)
    stack[:, 1:-1, 1:-1] |= np.where(rng.random((boards, rows, cols)) < 0.05, FLAGGED, 0).astype(
        np.uint8
    )
    starts = [tuple(np.argwhere(stack[b] == 0)[0]) for b in range(boards)]
    together = flood(
        stack,
        (
            np.arange(boards),
            np.array([r for r, _ in starts]),
            np.array([c for _, c in starts]),
        ),
    )
    stride = cols + 2
    steps = (-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1)
    for b, (row, col) in enumerate(starts):
        alone = flood(stack[b], (np.array([row]), np.array([col])))
        assert np.array_equal(together[b], alone)
        assert set(np.flatnonzero(alone).tolist()) == walked(stack[b].reshape(-1), steps, row, col)


def walked(cells: npt.NDArray[np.uint8], steps: tuple[int, ...], row: int, col: int) -> set[int]:
    """The cells `grid.walk`, the cell-by-cell flood, opens from (row, col) of a bordered board."""

    def around(here: int) -> list[int]:
        return [here + step for step in steps]

    def opens(there: int) -> bool:
        return not cells[there] & BLOCKED

    def spreads(there: int) -> bool:
        return not cells[there]

    stride = steps[-2]
    opened, complete = walk(int(row) * stride + int(col), around, opens, spreads, None)
    assert complete
    return set(opened)
