"""Heavy work in worker processes, outside the server's GIL: each job in a fresh process from a
fork server, within a time and memory budget, stopped when the budget runs out or the client
goes away; a few at a time, the others refused with 503."""

from __future__ import annotations

import multiprocessing
import os
import resource
import threading
import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from multiprocessing.connection import Connection
from typing import Any

from mines.errors import MinesError
from mines.server.common.errors import InvalidRequestError, ServerFullError

_preload: list[str] = []
"""What the fork server imports once, so that a job's process starts with it loaded: the
modules of every pool's jobs, named by the pools themselves (this module names none, so it
depends on none of them)."""
POLL_SECONDS = 0.1
NICE = 10
"""How much lower a worker's CPU priority is than the server's: on a busy machine the moves of
every other game come first."""


class Stopped(StrEnum):
    """Why a job ended without an answer."""

    BUDGET = "budget"
    """It ran past its time budget."""
    GONE = "gone"
    """The client went away."""
    MEMORY = "memory"
    """It needed more memory than a worker may use."""
    DIED = "died"
    """The process ended without an answer."""


class JobStoppedError(Exception):
    """A job was stopped; the caller says what that means for its request."""

    def __init__(self, why: Stopped):
        super().__init__(why.value)
        self.why = why


def _run(
    connection: Connection, memory: int, job: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    """In the worker: the job's value, or the `MinesError` that refused it, sent back once."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    os.nice(NICE)
    try:
        answer: tuple[str, Any] = ("ok", job(*args))
    except MemoryError:
        answer = ("memory", None)
    except MinesError as refused:
        answer = ("error", refused)
    try:
        connection.send(answer)
    except Exception:  # an error that does not pickle: its message still goes back
        connection.send(("error", InvalidRequestError(str(answer[1]))))


class Workers:
    """Runs jobs in worker processes, `slots` at a time."""

    def __init__(self, slots: int, *, memory: int, name: str, preload: Sequence[str] = ()):
        self.memory = memory
        self.name = name
        # A fork server: workers start from a clean process with the job's modules imported,
        # not as forks of a server with threads and open sockets.
        self._context = multiprocessing.get_context("forkserver")
        _preload.extend(module for module in preload if module not in _preload)
        self._context.set_forkserver_preload(_preload)
        self.slots = slots
        self._slots = threading.BoundedSemaphore(slots)

    @property
    def busy(self) -> int:
        """Workers running now (for the metrics)."""
        return self.slots - self._slots._value

    def run(
        self,
        job: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        budget: float,
        busy: str,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> Any:
        """`job(*args)` in a worker: its value, or the `MinesError` it raised; past the budget,
        when `cancelled()` turns true, or when the worker dies, `JobStoppedError`. When every
        slot is taken, `ServerFullError` with the message `busy`."""
        if not self._slots.acquire(blocking=False):
            raise ServerFullError(busy, retry_after=max(1, round(budget)))
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_run, args=(sender, self.memory, job, args), daemon=True, name=self.name
        )
        try:
            process.start()
            sender.close()
            kind, value = self._wait(receiver, process, time.monotonic() + budget, cancelled)
        finally:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()
            receiver.close()
            self._slots.release()
        if kind == "memory":
            raise JobStoppedError(Stopped.MEMORY)
        if kind == "error":
            raise value
        return value

    def _wait(
        self, receiver: Connection, process: Any, deadline: float, cancelled: Callable[[], bool]
    ) -> tuple[str, Any]:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise JobStoppedError(Stopped.BUDGET)
            if cancelled():
                raise JobStoppedError(Stopped.GONE)
            try:
                if receiver.poll(min(left, POLL_SECONDS)):
                    answer: tuple[str, Any] = receiver.recv()
                    return answer
            except EOFError:  # the worker's end closed without an answer
                raise JobStoppedError(Stopped.DIED) from None
            if not process.is_alive() and not receiver.poll():
                raise JobStoppedError(Stopped.DIED)
