"""The engine benchmark's baseline plays by the same rules, so its ratios compare like with like."""

from __future__ import annotations

import pytest

from benchmarks.engine import BaselineBoard, lattice_game
from mines import FixedPlacer, Game


@pytest.mark.parametrize("seed", range(5))
def test_baseline_opens_what_the_engine_opens(seed: int) -> None:
    baseline = BaselineBoard(40, 50, 150, (20, 25), seed)
    mines = [(c.row, c.col) for row in baseline.cells for c in row if c.is_mine]
    opened = baseline.reveal(20, 25)
    game = Game(40, 50, 150, placer=FixedPlacer(mines))
    game.reveal(20, 25)
    assert opened == sum(50 - line.count("H") for line in game.view().to_strings())


def test_lattice_cells_are_all_numbers() -> None:
    game = lattice_game(30)
    game.reveal(1, 1)
    assert sum(30 - line.count("H") for line in game.view().to_strings()) == 1
