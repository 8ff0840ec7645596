"""`MoveClock`: the clock a server's `Game` reads, pinned to a move's stored time while it runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


class MoveClock:
    """Wall time, except while a move is applied or replayed: then the move's stored time.

    Moves are stored with the wall time the server gave them, so replaying a game after
    a restart puts its start and end exactly where they were, and the timer runs on.
    """

    def __init__(self, wall: Callable[[], float]):
        self._wall = wall
        self._pinned: float | None = None

    def __call__(self) -> float:
        return self._wall() if self._pinned is None else self._pinned

    @contextmanager
    def pinned(self, at: float) -> Iterator[None]:
        self._pinned = at
        try:
            yield
        finally:
            self._pinned = None
