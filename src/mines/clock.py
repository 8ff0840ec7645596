"""The clock a game reads (`Clock`), and `PinnedClock`, which reads a set time while pinned."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Clock = Callable[[], float]
"""Seconds from any fixed origin that never go back; a game reads `time.monotonic` by default."""


class PinnedClock:
    """Its source clock's time, except while a time is pinned: then that time.

    A game rebuilt move by move is played with each move's recorded time pinned, so its
    timer starts and ends where it did; the server pins the wall time it stores with a
    move while it applies it, so a restarted server rebuilds the game exactly.
    """

    def __init__(self, source: Clock = time.monotonic, *, pinned: float | None = None):
        self._source = source
        self.pinned = pinned
        """The time this clock reads, or None to read the source clock."""

    def __call__(self) -> float:
        return self._source() if self.pinned is None else self.pinned

    @contextmanager
    def pinned_at(self, at: float) -> Iterator[None]:
        """Read `at` inside the `with` block, and what was read before after it."""
        before, self.pinned = self.pinned, at
        try:
            yield
        finally:
            self.pinned = before

    def __repr__(self) -> str:
        return f"PinnedClock({self._source!r}, pinned={self.pinned!r})"
