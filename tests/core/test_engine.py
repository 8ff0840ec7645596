"""The engine contract's shared parts: `cell_symbols` (what a cell shows) and `PositionChanges`."""

from __future__ import annotations

import numpy as np
import pytest

from mines import EngineKind, GameStatus, InvalidBoardError, engine_choice
from mines.engine import PositionChanges, cell_symbols
from mines.engine_choice import choose_engine


def symbols_of(status: GameStatus) -> list[str]:
    """One row of every kind of cell: hidden safe, hidden mine, flag on a mine, flag on a safe
    cell, revealed 0, revealed 3, a revealed count past 8 (an engine's border), a revealed mine."""
    counts = np.array([[1, 2, 0, 0, 0, 3, 15, 2]], dtype=np.uint8)
    mine = np.array([[0, 1, 1, 0, 0, 0, 0, 1]], dtype=bool)
    flagged = np.array([[0, 0, 1, 1, 0, 0, 0, 0]], dtype=bool)
    revealed = np.array([[0, 0, 0, 0, 1, 1, 1, 1]], dtype=bool)
    out = cell_symbols(counts, mine, flagged, revealed, status=status)
    assert out.dtype == np.uint8
    return [bytes(row).decode("ascii") for row in out]


def test_what_each_cell_shows_in_play_after_a_win_and_after_a_loss() -> None:
    assert symbols_of(GameStatus.IN_PROGRESS) == ["HHFF038X"]
    assert symbols_of(GameStatus.WON) == ["HFFF038X"]
    assert symbols_of(GameStatus.LOST) == ["HMFW038X"]


def test_position_changes_list_bound_and_window_their_cells() -> None:
    cells = np.array([[2, 5], [0, 1], [3, 3]], dtype=np.int64)
    changes = PositionChanges(cells)
    assert len(changes) == 3
    assert list(changes) == [(2, 5), (0, 1), (3, 3)]
    assert changes.bounds() == (0, 1, 4, 6)
    assert sorted(changes.within(0, 1, 3, 5)) == [(0, 1), (2, 5)]
    assert sorted(changes.within(1, 2, 3, 2)) == [(3, 3)]
    assert list(changes.within(0, 2, 2, 3)) == []
    # Each edge: the first row and column are in, the row and column past the end are out.
    assert sorted(changes.within(0, 1, 3, 4)) == [(0, 1)]
    assert sorted(changes.within(0, 0, 3, 6)) == [(0, 1), (2, 5)]
    assert sorted(changes.within(2, 0, 2, 6)) == [(2, 5), (3, 3)]
    empty = PositionChanges(np.zeros((0, 2), dtype=np.int64))
    assert (len(empty), empty.bounds(), list(empty)) == (0, None, [])


def test_a_board_gets_the_engine_that_fits_and_a_named_one_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine_choice, "DENSE_CELL_LIMIT", 12)
    assert choose_engine(3, 4, None).kind is EngineKind.DENSE  # at the limit
    assert choose_engine(3, 5, None).kind is EngineKind.SPARSE
    assert choose_engine(2, 6, "dense").kind is EngineKind.DENSE
    with pytest.raises(InvalidBoardError) as too_big:
        choose_engine(3, 5, "dense")
    assert str(too_big.value) == "a dense board holds at most 12 cells; 3x5 needs engine='sparse'"
    with pytest.raises(InvalidBoardError) as unknown:
        choose_engine(3, 3, "quantum")
    assert str(unknown.value) == "unknown engine 'quantum'; allowed: dense, sparse"
