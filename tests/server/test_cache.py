"""The cache of live games: least recently used dropped first, sparse boards weighed by mines."""

from __future__ import annotations

from mines.clock import PinnedClock
from mines.game import Game
from mines.server.games import GameCache, LiveGame


def live(rows: int, cols: int, mines: int) -> LiveGame:
    clock = PinnedClock(lambda: 0.0)
    return LiveGame(Game(rows, cols, mines, seed=1, clock=clock), clock)


def test_the_least_recently_used_game_goes_first() -> None:
    cache = GameCache(cell_budget=200)
    a, b, c, d = (live(10, 10, 5) for _ in range(4))
    cache.put("a", a)
    cache.put("b", b)
    cache.put("c", c)  # over budget: "a" is the oldest
    assert cache.get("a") is None
    assert cache.get("b") is b  # now "c" is the least recently used
    cache.put("d", d)
    assert cache.get("c") is None
    assert (cache.get("b"), cache.get("d")) == (b, d)


def test_a_huge_sparse_board_does_not_empty_the_cache() -> None:
    cache = GameCache(cell_budget=5_000)
    small = live(10, 10, 5)
    cache.put("small", small)
    cache.put("huge", live(1_000_000, 1_000_000, 1000))
    assert cache.get("small") is small
    assert cache.get("huge") is not None
