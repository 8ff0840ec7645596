"""`PausableClock`: the clock the terminal app gives its games, which stands still when paused."""

from __future__ import annotations

import time

from mines.clock import Clock


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
