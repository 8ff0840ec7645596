"""The cache of live games: least recently used dropped first within a byte budget, games in
use kept, and a new game that cannot fit refused with 503."""

from __future__ import annotations

import pytest

from mines.clock import PinnedClock
from mines.game import Game
from mines.placement import placer_for_rule
from mines.server.errors import ServerFullError
from mines.server.games import GameCache, LiveGame
from mines.server.layouts import KeepingPlacer


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
