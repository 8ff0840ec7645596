"""Readiness: whether each dependency (the database, Redis) answers, one check of each at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 1.0
"""Seconds a dependency has to answer before the probe calls it failing."""

Check = Callable[[], Coroutine[Any, Any, None]]
"""Returns once the dependency answered; raises when it answered with an error."""


class Readiness:
    """Runs the named checks for a readiness probe.

    A check still running when the next probe comes is joined, not started again: a database
    or Redis that hangs holds one thread and one connection however many probes ask, and each
    probe still answers within `timeout`.
    """

    def __init__(self, checks: Mapping[str, Check], timeout: float = CHECK_TIMEOUT):
        self._checks = dict(checks)
        self._timeout = timeout
        self._running: dict[str, asyncio.Task[None]] = {}
        self._failing: set[str] = set()

    @property
    def names(self) -> list[str]:
        return list(self._checks)

    async def check(self) -> dict[str, str]:
        """Each dependency's state: `ok`, `timeout` (no answer within the timeout) or `error`."""
        states = await asyncio.gather(*(self._one(name) for name in self._checks))
        return dict(zip(self._checks, states, strict=True))

    async def _one(self, name: str) -> str:
        task = self._running.get(name)
        # A task of another event loop (each request of a test client has its own) is not joined.
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.create_task(self._checks[name]())
            task.add_done_callback(_retrieve)
            self._running[name] = task
        try:
            # Shielded: a probe that gives up leaves the check running for the next probe.
            await asyncio.wait_for(asyncio.shield(task), self._timeout)
        except TimeoutError:
            self._note(name, "timeout", f"no answer within {self._timeout:g} s")
            return "timeout"
        except Exception as failure:
            self._note(name, "error", str(failure) or type(failure).__name__)
            return "error"
        self._note(name, "ok", "")
        return "ok"

    def _note(self, name: str, state: str, why: str) -> None:
        """Log a dependency's change of state once, when it happens (driver text goes here, not
        to the client)."""
        if state == "ok":
            if name in self._failing:
                self._failing.discard(name)
                log.warning("readiness: %s answers again", name)
        elif name not in self._failing:
            self._failing.add(name)
            log.warning("readiness: %s is failing (%s): %s", name, state, why)


def _retrieve(task: asyncio.Task[None]) -> None:
    # A check's error is read by the probes that awaited it; one no probe awaited any more
    # (they all timed out) would otherwise be reported as never retrieved.
    if not task.cancelled():
        task.exception()
