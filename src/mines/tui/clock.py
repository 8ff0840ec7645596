"""Clocks the terminal app hands to its games: one that pauses, one that replays recorded times."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


class PausableClock:
    """A monotonic clock that stands still while paused, so a paused game's timer stops."""

    def __init__(self, source: Clock = time.monotonic):
        self._source = source
        self._paused_at: float | None = None
        self._paused_for = 0.0

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self._source()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._paused_for += self._source() - self._paused_at
            self._paused_at = None

    def __call__(self) -> float:
        now = self._source() if self._paused_at is None else self._paused_at
        return now - self._paused_for


class HeldClock:
    """Reads a held time while a game is rebuilt move by move, and its source clock after."""

    def __init__(self, source: Clock):
        self._source = source
        self.held: float | None = None

    def __call__(self) -> float:
        return self._source() if self.held is None else self.held
