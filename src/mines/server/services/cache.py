"""`GameCache`: the live games and race rooms a server process keeps, within a memory budget."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from mines.server.common.errors import ServerFullError

FULL_RETRY_AFTER = 5
"""Seconds a client refused for memory is asked to wait: games in play finish their moves."""


class Held(Protocol):
    """What the cache keeps: a live game, or a race room (`mines.server.services.rooms.Room`), each
    with the lock its requests hold while they use it."""

    @property
    def lock(self) -> threading.Lock: ...


class GameCache:
    """Live games by ID within a memory budget (bytes, by `LiveGame.weight`); race rooms share
    it under their own keys (by `Race.footprint`).

    Past the budget the least recently used games are dropped (storage rebuilds them on
    their next request), except those a request is using right now. Weights are measured by
    the request that owns the game, never under the cache's lock, so a slow move on one game
    never holds up the cache for the others.
    """

    def __init__(self, budget: int):
        self._games: OrderedDict[str, tuple[Held, int]] = OrderedDict()
        self._bytes = 0
        self.budget = budget
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        return self._bytes

    def weights(self) -> list[tuple[str, int]]:
        """The key and weight of every entry, for the metrics."""
        with self._lock:
            return [(key, weight) for key, (_, weight) in self._games.items()]

    def get(self, game_id: str) -> Held | None:
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return None
            self._games.move_to_end(game_id)
            return entry[0]

    def put(self, game_id: str, live: Held, weight: int, *, refuse: bool = False) -> None:
        """Keep `live`, weighing `weight` bytes, dropping others to make room; with `refuse`,
        raise `ServerFullError` (and keep nothing) when even that does not make room."""
        with self._lock:
            self._drop(game_id)
            self._make_room(weight)
            if refuse:
                self._check_room(weight)
            self._games[game_id] = (live, weight)
            self._bytes += weight

    @contextmanager
    def working(self, weight: int) -> Iterator[None]:
        """Hold `weight` bytes of the budget while a request works (a flood's arrays), dropping
        games to make room; `ServerFullError` when the games in play and the work already
        running leave too little."""
        with self._lock:
            self._make_room(weight)
            self._check_room(weight)
            self._bytes += weight
        try:
            yield
        finally:
            with self._lock:
                self._bytes -= weight

    def _check_room(self, weight: int) -> None:
        if self._bytes + weight > self.budget:
            raise ServerFullError(
                f"this server's memory budget ({self.budget // 2**20:,} MiB) is taken by the "
                "games being played right now; try again in a moment",
                retry_after=FULL_RETRY_AFTER,
            )

    def reweigh(self, game_id: str, live: Held, weight: int) -> None:
        """A move changed the game's footprint (a sparse flood grows it): account it again."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or entry[0] is not live:
                return
            self._bytes += weight - entry[1]
            self._games[game_id] = (live, weight)
            self._make_room(0)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._drop(game_id)

    def _make_room(self, weight: int) -> None:
        if self._bytes + weight <= self.budget:
            return
        for game_id in list(self._games):
            if self._bytes + weight <= self.budget:
                return
            live, _ = self._games[game_id]
            if not live.lock.locked():
                self._drop(game_id)

    def _drop(self, game_id: str) -> None:
        entry = self._games.pop(game_id, None)
        if entry is not None:
            self._bytes -= entry[1]
