"""No-guess boards on the server: size and density limits checked before any work, and each
board generated in a worker process within a time and memory budget, stopped when the budget
runs out or the client goes away."""

from __future__ import annotations

import math
import multiprocessing
import resource
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from mines.errors import MinesError
from mines.placement import Positions
from mines.server.errors import NoGuessTimeoutError, NoGuessTooLargeError, ServerFullError
from mines.server.settings import NoGuessLimits

Cell = tuple[int, int]


def check_no_guess(rows: int, cols: int, mines: int, limits: NoGuessLimits) -> None:
    """Refuse, before any work, a no-guess board past the limits, saying what would work."""
    cells = rows * cols
    if cells > limits.max_cells:
        raise NoGuessTooLargeError(
            f"no-guess boards are at most {limits.max_cells:,} cells here (50x50); "
            f"{rows}x{cols} has {cells:,}. Ask for a smaller board, or drop no_guess"
        )
    if mines > limits.max_density * cells:
        allowed = math.floor(limits.max_density * cells)
        raise NoGuessTooLargeError(
            f"no-guess boards have at most {limits.max_density:.0%} of their cells as mines "
            f"here: a {rows}x{cols} board at most {allowed:,}, not {mines:,}. Ask for fewer "
            "mines, or drop no_guess"
        )


def _generate(connection: Connection, memory: int, args: tuple[int, int, int, int, Cell]) -> None:
    """The worker: one board, sent back as a list of mines, or the error's message."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    from mines.solver.noguess import NoGuessPlacer

    seed, rows, cols, mines, first = args
    try:
        positions = NoGuessPlacer(seed).place(rows, cols, mines, first)
        connection.send(("ok", [(int(r), int(c)) for r, c in positions.tolist()]))
    except MemoryError:
        connection.send(("memory", ""))
    except MinesError as refused:
        connection.send(("error", str(refused)))


class NoGuessWorkers:
    """Runs no-guess generation in worker processes, `limits.workers` at a time."""

    def __init__(self, limits: NoGuessLimits):
        self.limits = limits
        # A fork server: workers start from a clean process with the generator imported,
        # not as forks of a server with threads and open sockets.
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["mines.solver.noguess"])
        self._slots = threading.BoundedSemaphore(limits.workers)

    def place(
        self,
        seed: int,
        rows: int,
        cols: int,
        mines: int,
        first: Cell,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> list[Cell]:
        """The mines of the board `NoGuessPlacer(seed)` makes, or a `MinesError` that says why
        not (the budget ran out, the board has no such layout, the server is busy)."""
        check_no_guess(rows, cols, mines, self.limits)
        budget = self.limits.budget
        if not self._slots.acquire(blocking=False):
            raise ServerFullError(
                "every no-guess generator is busy; try again shortly, or play without no_guess",
                retry_after=math.ceil(budget),
            )
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_generate,
            args=(sender, self.limits.memory, (seed, rows, cols, mines, first)),
            daemon=True,
            name="mines-noguess",
        )
        try:
            process.start()
            sender.close()
            answer = self._wait(receiver, process, time.monotonic() + budget, cancelled)
        finally:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()
            receiver.close()
            self._slots.release()
        kind, value = answer
        if kind == "ok":
            cells: list[Cell] = [(int(r), int(c)) for r, c in value]
            return cells
        if kind == "memory":
            raise NoGuessTimeoutError(
                f"a no-guess {rows}x{cols} board with {mines:,} mines needs more memory than "
                f"a generator may use ({self.limits.memory // 2**20:,} MiB); ask for a smaller "
                "board or fewer mines"
            )
        raise NoGuessTimeoutError(f"{value}; ask for fewer mines, or drop no_guess")

    def _wait(
        self,
        receiver: Connection,
        process: Any,
        deadline: float,
        cancelled: Callable[[], bool],
    ) -> tuple[str, Any]:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NoGuessTimeoutError(
                    f"no no-guess board was found within {self.limits.budget:g} s; boards "
                    "of Expert size and density take about a second here: ask for a smaller "
                    "board or fewer mines, or drop no_guess"
                )
            if cancelled():
                raise NoGuessTimeoutError("the client went away; generation was stopped")
            try:
                if receiver.poll(min(left, 0.1)):
                    answer: tuple[str, Any] = receiver.recv()
                    return answer
            except EOFError:
                pass
            if not process.is_alive() and not receiver.poll():
                raise NoGuessTimeoutError(
                    "the no-guess generator stopped without a board; ask for a smaller board "
                    "or fewer mines, or drop no_guess"
                )


class WorkerPlacer:
    """The `noguess` rule's placer on the server: `NoGuessPlacer(seed)`'s board, made by a
    worker; `cancelled` is set per move so that a client that goes away stops the work."""

    rule = "noguess"

    def __init__(self, seed: int, workers: NoGuessWorkers):
        self.seed = seed
        self._workers = workers
        self.cancelled: Callable[[], bool] = lambda: False

    def place(self, rows: int, cols: int, mines: int, first_click: Cell) -> Positions:
        cells = self._workers.place(self.seed, rows, cols, mines, first_click, self.cancelled)
        return np.array(cells, dtype=np.int64).reshape(-1, 2)
