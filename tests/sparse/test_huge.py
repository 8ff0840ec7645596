"""The sparse engine on boards far too big for arrays: windows, floods, records and limits."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest

from mines import (
    EngineKind,
    EngineLimitError,
    FixedPlacer,
    Game,
    GameStatus,
    MoveKind,
    ViewTooLargeError,
)
from mines.engine import CellChanges
from mines.record import GameRecord
from mines.replay import replay
from mines.sparse import SparseEngine, compressed

SIDE = 1_000_000
MINES = 1000


def engine_of(game: Game) -> SparseEngine:
    engine = game._engine
    assert isinstance(engine, SparseEngine)
    return engine


def huge_game(seed: int = 7) -> Game:
    return Game(SIDE, SIDE, MINES, seed=seed, clock=lambda: 0.0)


def counts_around(layout: set[tuple[int, int]], row: int, col: int) -> int:
    return sum((row + dr, col + dc) in layout for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def test_a_huge_board_gets_the_sparse_engine_and_refuses_a_full_view() -> None:
    game = huge_game()
    assert game.engine_kind is EngineKind.SPARSE
    with pytest.raises(ViewTooLargeError, match=r"ask for a window"):
        game.view()
    assert game.view(SIDE - 3, SIDE - 4, 3, 4).to_strings() == ["HHHH"] * 3


def test_flags_before_the_first_flood_stay_hidden_and_the_rest_opens() -> None:
    game = huge_game()
    flags = [(0, 0), (123_456, 654_321), (SIDE - 1, SIDE - 1)]
    for cell in flags:
        game.toggle_flag(*cell)
    changes: list[CellChanges] = []
    game.on_cells(changes.append)
    assert game.reveal(SIDE // 2, SIDE // 2) is GameStatus.IN_PROGRESS
    flood = changes[0]
    assert len(flood) == SIDE * SIDE - MINES - len(flags)
    assert flood.bounds() == (0, 0, SIDE, SIDE)
    assert list(flood.within(0, 0, 1, 3)) == [(0, 1), (0, 2)]
    assert game.mines_left == MINES - len(flags)
    assert game.view(0, 0, 2, 2).to_strings() == ["F0", "00"]
    # What stays hidden is mines and flags: memory follows them, not the board.
    assert engine_of(game).listed_cells == MINES + len(flags)

    game.toggle_flag(0, 0)
    assert game.view(0, 0, 1, 2).to_strings() == ["H0"]
    game.reveal(0, 0)
    assert game.view(0, 0, 1, 2).to_strings() == ["00"]
    assert game.three_bv >= 1


def test_numbers_around_a_mine_and_a_chord_on_them() -> None:
    game = huge_game()
    game.toggle_flag(0, 0)  # keeps the game from being won by the first flood
    game.reveal(SIDE // 2, SIDE // 2)
    layout = set(game.record().layout or ())
    row, col = max(layout)
    top, left = row - 2, col - 2
    expected = [
        "".join(
            "H" if (r, c) in layout else str(counts_around(layout, r, c))
            for c in range(left, left + 5)
        )
        for r in range(top, top + 5)
    ]
    assert game.view(top, left, 5, 5).to_strings() == expected
    game.toggle_flag(row, col)
    assert game.chord(row - 1, col - 1) is GameStatus.IN_PROGRESS
    assert game.view(row, col, 1, 1).to_strings() == ["F"]


def test_a_huge_game_replays_from_its_record() -> None:
    game = huge_game(seed=11)
    for move in ("F5,5", "F7,7", "O400000,400000", "F5,5", "O5,5", "F7,7", "F7,7"):
        game.play(move)
    record = GameRecord.from_json(game.record().to_json())
    again = replay(record)
    assert again.engine_kind is EngineKind.SPARSE
    assert again.record().to_dict() == game.record().to_dict()
    for top, left in ((0, 0), (SIDE - 10, SIDE - 10), (400_000, 399_995)):
        assert again.view(top, left, 10, 10) == game.view(top, left, 10, 10)


def test_a_loss_shows_mines_in_a_window() -> None:
    layout = [(10, 10), (10, 11), (500_000, 500_000)]
    game = Game(SIDE, SIDE, len(layout), placer=FixedPlacer(layout))
    game.toggle_flag(11, 10)  # a wrong flag
    game.reveal(0, 0)
    game.reveal(10, 10)
    assert game.status is GameStatus.LOST
    assert game.view(9, 9, 3, 4).to_strings() == ["1221", "1XM1", "1W21"]


def test_a_long_thin_board_cut_by_its_mines_floods_one_stretch_at_a_time() -> None:
    """Each mine's numbers span all three rows, so every stretch between two is its own sea."""
    game = Game(3, 30_000_000, 3, placer=FixedPlacer([(1, 1000), (1, 2000), (1, 10_000_000)]))
    changes: list[CellChanges] = []
    game.on_cells(changes.append)
    game.reveal(1, 0)
    assert len(changes[-1]) == 3 * 999 + 3
    assert changes[-1].bounds() == (0, 0, 3, 1000)
    assert game.view(0, 997, 3, 6).to_strings() == ["001HHH"] * 3
    game.reveal(0, 5000)
    stretch = 10_000_000 - 1 - 2002
    assert len(changes[-1]) == 3 * stretch + 6
    assert changes[-1].bounds() == (0, 2001, 3, 10_000_000)
    assert sorted(changes[-1].within(0, 9_999_998, 3, 5)) == [
        (r, c) for r in range(3) for c in (9_999_998, 9_999_999)
    ]
    assert game.view(0, 1999, 3, 4).to_strings() == ["HH10"] * 3
    assert game.view(0, 9_999_997, 3, 5).to_strings() == ["001HH"] * 3
    assert game.three_bv == 4 + 6
    assert game.status is GameStatus.IN_PROGRESS


def test_a_flood_too_big_to_squeeze_is_refused_with_a_reason() -> None:
    game = Game(3, 30_000_000, 1, placer=FixedPlacer([(1, 1000)]))
    with (
        patch.object(compressed, "SQUEEZED_LIMIT", 2),
        pytest.raises(EngineLimitError, match=r"edge to edge.*remove flags"),
    ):
        game.reveal(1, 0)


def test_a_refused_first_reveal_leaves_the_game_unstarted() -> None:
    game = Game(3, 30_000_000, 1, placer=FixedPlacer([(1, 1000)]))
    with patch.object(compressed, "SQUEEZED_LIMIT", 2), pytest.raises(EngineLimitError):
        game.reveal(1, 0)
    assert not game.started
    assert game.record().moves == ()
    assert game.reveal(1, 0) is GameStatus.IN_PROGRESS


def test_a_chord_refused_midway_is_not_applied_at_all() -> None:
    """The chord's first target is a number that opens; its second floods and is refused."""
    game = Game(3, 30_000_000, 1, placer=FixedPlacer([(1, 1000)]), clock=lambda: 0.0)
    game.toggle_flag(1, 1000)
    game.reveal(0, 1001)
    before = (game.view(0, 997, 3, 8), game.record())
    with (
        patch.object(compressed, "SQUEEZED_LIMIT", 2),
        pytest.raises(EngineLimitError, match=r"cannot chord \(0, 1001\): .*edge to edge"),
    ):
        game.chord(0, 1001)
    assert (game.view(0, 997, 3, 8), game.record()) == before
    assert game.view(0, 1000, 1, 1).to_strings() == ["H"]
    game.chord(0, 1001)
    assert game.view(0, 999, 3, 5).to_strings() == ["H1100", "HF100", "HH100"]
    assert game.record().moves[-1].move.kind is MoveKind.CHORD


def test_a_large_board_matches_the_dense_engine() -> None:
    """Thousands of clusters on 4 million cells, the sparse labelling against dense floods."""
    rng = np.random.default_rng(5)
    flat = rng.choice(2000 * 2000, size=4000, replace=False)
    layout = sorted((int(f) // 2000, int(f) % 2000) for f in flat)
    start = next(
        (r, c)
        for r in range(1000, 2000)
        for c in (1000,)
        if counts_around(set(layout), r, c) == 0 and (r, c) not in layout
    )
    dense, sparse = (
        Game(2000, 2000, len(layout), placer=FixedPlacer(layout), engine=kind)
        for kind in ("dense", "sparse")
    )
    for game in (dense, sparse):
        game.toggle_flag(0, 1)
        game.reveal(*start)
    assert engine_of(sparse).sea_open
    assert sparse.three_bv == dense.three_bv
    assert sparse.status is dense.status
    assert sparse.view().to_strings() == dense.view().to_strings()
    assert sparse.view().to_strings() == dense.view().to_strings()
