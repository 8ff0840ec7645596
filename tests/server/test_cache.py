"""The cache of live games: least recently used dropped first within a byte budget, games in
use kept, a new game that cannot fit refused with 503, and the working memory of requests
held in the budget while they run."""

from __future__ import annotations

import gc
import random
import tracemalloc
from contextlib import suppress

import pytest

from mines.clock import PinnedClock
from mines.errors import MinesError
from mines.game import Game
from mines.moves import MoveKind
from mines.placement import placer_for_rule
from mines.server.common.errors import ServerFullError
from mines.server.db.layouts import KeepingPlacer
from mines.server.services.cache import GameCache
from mines.server.services.games import (
    SPARSE_WORK_BYTES_PER_MINE,
    WORK_BYTES_PER_CELL,
    GameSpec,
    LiveGame,
)
from mines.server.services.present import Window
from tests.server.conftest import FakeClock, Server


def live(rows: int, cols: int, mines: int) -> LiveGame:
    clock = PinnedClock(lambda: 0.0)
    placer = KeepingPlacer(placer_for_rule("opening", 1))
    return LiveGame(Game(rows, cols, mines, placer=placer, clock=clock), clock, placer)


def test_the_least_recently_used_game_goes_first() -> None:
    cache = GameCache(budget=200)
    a, b, c, d = (live(10, 10, 5) for _ in range(4))
    cache.put("a", a, 100)
    cache.put("b", b, 100)
    cache.put("c", c, 100)  # over budget: "a" is the oldest
    assert cache.get("a") is None
    assert cache.get("b") is b  # now "c" is the least recently used
    cache.put("d", d, 100)
    assert cache.get("c") is None
    assert (cache.get("b"), cache.get("d")) == (b, d)
    assert cache.used == 200
    cache.drop("b")  # a game whose stored state moved on: rebuilt on its next request
    assert (cache.get("b"), cache.get("d"), cache.used) == (None, d, 100)
    assert cache.weights() == [("d", 100)]


def test_a_game_in_play_is_not_dropped_and_a_new_one_that_cannot_fit_is_refused() -> None:
    cache = GameCache(budget=200)
    busy = live(10, 10, 5)
    cache.put("busy", busy, 150)
    with busy.lock:  # a request is playing it
        with pytest.raises(ServerFullError) as full:
            cache.put("new", live(10, 10, 5), 100, refuse=True)
        assert full.value.retry_after >= 1
        assert cache.get("new") is None
        assert cache.get("busy") is busy
    cache.put("new", live(10, 10, 5), 100, refuse=True)  # now "busy" can go
    assert cache.get("busy") is None


def test_a_game_that_grows_is_weighed_again() -> None:
    cache = GameCache(budget=300)
    old, grown = live(10, 10, 5), live(10, 10, 5)
    cache.put("old", old, 100)
    cache.put("grown", grown, 100)
    cache.reweigh("grown", grown, 250)
    assert cache.get("old") is None
    assert cache.used == 250


def test_weights_are_real_footprints() -> None:
    dense, sparse = live(1000, 1000, 1000), live(1_000_000, 1_000_000, 1000)
    assert dense.game.footprint >= 1_000_000  # a byte per cell at least
    assert sparse.game.footprint < 1_000_000  # a sparse board holds its mines, not its cells


@pytest.mark.parametrize("preset", ["beginner", "expert"])
def test_small_games_are_weighed_at_least_what_they_hold(
    preset: str, sqlite_url: str, clock: FakeClock
) -> None:
    """Many small games must not hold many times the budget: each weighs its Python objects."""
    service = Server(sqlite_url, clock).service
    rng, window = random.Random(1), Window()

    def play_one() -> None:
        game_id, token, _ = service.create(GameSpec(preset=preset), window)
        for kind in (MoveKind.OPEN, MoveKind.FLAG, MoveKind.OPEN, MoveKind.OPEN):
            cell = (rng.randrange(8), rng.randrange(8))
            with suppress(MinesError):  # a flag on an open cell, a move after a loss
                service.move(game_id, token, kind, cell, window)

    try:
        for _ in range(20):  # statements, imports and code paths, allocated once
            play_one()
        games = 100
        gc.collect()
        tracemalloc.start()
        before, weighed = tracemalloc.take_snapshot(), service.cache.used
        for _ in range(games):
            play_one()
        gc.collect()
        after, weighed = tracemalloc.take_snapshot(), service.cache.used - weighed
        tracemalloc.stop()
    finally:
        service.close()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert held / games <= weighed / games, f"{held / games:.0f} B held, weighed less"


def test_a_requests_working_memory_is_held_in_the_budget_while_it_runs() -> None:
    cache = GameCache(budget=200)
    idle, busy = live(10, 10, 5), live(10, 10, 5)
    cache.put("idle", idle, 50)
    cache.put("busy", busy, 50)
    with busy.lock, cache.working(140):  # the idle game makes room; the busy one stays
        assert cache.get("idle") is None
        assert cache.used == 190
        with pytest.raises(ServerFullError) as full:
            cache.put("new", live(10, 10, 5), 20, refuse=True)
        assert full.value.retry_after >= 1
        with pytest.raises(ServerFullError), cache.working(20):
            pass
    assert cache.used == 50


def test_a_move_whose_work_cannot_fit_now_is_refused_with_503(
    sqlite_url: str, clock: FakeClock
) -> None:
    # A 300x300 flood may need 300 * 300 * WORK_BYTES_PER_CELL bytes: about 5 MiB.
    server = Server(sqlite_url, clock, memory=8 * 2**20)
    try:
        game = server.create(rows=300, cols=300, mines=1, seed=1)
        with server.service.cache.working(4 * 2**20):  # another request's work
            refused = server.move(game, "reveal", 150, 150)
            assert refused.status_code == 503
            assert refused.json()["code"] == "server_full"
            assert int(refused.headers["retry-after"]) >= 1
            view = server.client.get(f"/api/games/{game['id']}?height=1&width=1")
            assert view.status_code == 503  # reading it would build the whole board too
        assert server.move(game, "reveal", 150, 150).status_code == 200  # and later it fits
    finally:
        server.close()
    assert 300 * 300 * WORK_BYTES_PER_CELL > 4 * 2**20


def test_a_board_whose_moves_could_never_fit_is_refused_when_it_is_asked_for(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = Server(sqlite_url, clock, memory=4 * 2**20)
    try:
        refused = server.client.post("/api/games", json={"rows": 300, "cols": 300, "mines": 1})
        assert refused.status_code == 422
        assert "with 1 mine needs about 5 MiB" in refused.json()["detail"]
        assert "budget of 4 MiB; ask for a smaller board or fewer mines" in refused.json()["detail"]
        fits = server.client.post("/api/games", json={"rows": 200, "cols": 200, "mines": 1})
        assert fits.status_code == 201
    finally:
        server.close()


def test_a_sparse_first_reveal_works_within_the_memory_held_for_it(
    sqlite_url: str, clock: FakeClock
) -> None:
    side, mines = 10_000, 10_000  # 10^8 cells: past the dense engine's limit
    server = Server(sqlite_url, clock, max_cells=side * side)
    try:
        game = server.create(rows=side, cols=side, mines=mines, seed=3)
        row = server.service.storage.load(game["id"])
        assert row is not None
        # A first flood imports scipy's labelling on first use (about 9 MiB of modules):
        # a warm-up game pays for that, so the peak below is this flood's work alone.
        warm = server.create(rows=side, cols=side, mines=10, seed=4)
        assert server.move(warm, "reveal", 0, 0).status_code == 200
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        answer = server.move(game, "reveal", side // 2, side // 2)
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        assert answer.status_code == 200, answer.text
        # The flood's part, which grows with the mines, covers it alone (the view's is extra).
        assert peak <= mines * SPARSE_WORK_BYTES_PER_MINE, f"{peak / 2**20:.1f} MiB at peak"
        assert peak <= server.service._work(row)
        assert mines * SPARSE_WORK_BYTES_PER_MINE <= 2 * peak  # and not a wild overestimate
    finally:
        server.close()
