"""The packed cell byte and the grid's array functions, over one board or a stack of them."""

from __future__ import annotations

import numpy as np

from mines import Game
from mines.cellbyte import BORDER, bordered, flagged, lay, mines, openable, revealed, symbol_table
from mines.dense import DenseEngine
from mines.engine import cell_symbols
from mines.grid import count_around, dilate
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
