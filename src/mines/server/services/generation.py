"""No-guess boards on the server: size and density limits checked before any work, and each
board generated in a worker process within a time and memory budget, stopped when the budget
runs out or the client goes away."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from mines.errors import MinesError, NoGuessTooLargeError
from mines.placement import CoordArray, PlacementRule
from mines.server.common.errors import NoGuessTimeoutError, ServerFullError
from mines.server.common.settings import NoGuessLimits
from mines.server.services.workers import JobStoppedError, Stopped, Workers

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


def _generate(seed: int, rows: int, cols: int, mines: int, first: Cell) -> list[Cell]:
    """In a worker: the board's mines as (row, col) pairs."""
    from mines.solver.noguess import NoGuessPlacer

    positions = NoGuessPlacer(seed).place(rows, cols, mines, first)
    return [(int(r), int(c)) for r, c in positions.tolist()]


class NoGuessWorkers:
    """Runs no-guess generation in worker processes, `limits.workers` at a time."""

    def __init__(self, limits: NoGuessLimits):
        self.limits = limits
        self._workers = Workers(
            limits.workers,
            memory=limits.memory,
            name="mines-noguess",
            preload=("mines.solver.noguess",),
        )

    @property
    def workers(self) -> Workers:
        return self._workers

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
        try:
            cells: list[Cell] = self._workers.run(
                _generate,
                (seed, rows, cols, mines, first),
                budget=self.limits.budget,
                busy="every no-guess generator is busy; try again shortly, or play without "
                "no_guess",
                cancelled=cancelled,
            )
        except MinesError as refused:
            if isinstance(refused, ServerFullError):
                raise
            raise NoGuessTimeoutError(f"{refused}; ask for fewer mines, or drop no_guess") from None
        except JobStoppedError as stopped:
            raise NoGuessTimeoutError(self._stopped(stopped.why, rows, cols, mines)) from None
        return cells

    def _stopped(self, why: Stopped, rows: int, cols: int, mines: int) -> str:
        if why is Stopped.BUDGET:
            return (
                f"no no-guess board was found within {self.limits.budget:g} s; boards of "
                "Expert size and density take about a second here: ask for a smaller board "
                "or fewer mines, or drop no_guess"
            )
        if why is Stopped.GONE:
            return "the client went away; generation was stopped"
        if why is Stopped.MEMORY:
            return (
                f"a no-guess {rows}x{cols} board with {mines:,} mines needs more memory than "
                f"a generator may use ({self.limits.memory // 2**20:,} MiB); ask for a smaller "
                "board or fewer mines"
            )
        return (
            "the no-guess generator stopped without a board; ask for a smaller board "
            "or fewer mines, or drop no_guess"
        )


class WorkerPlacer:
    """The `noguess` rule's placer on the server: `NoGuessPlacer(seed)`'s board, made by a
    worker; `cancelled` is set per move so that a client that goes away stops the work."""

    rule = PlacementRule.NOGUESS

    def __init__(self, seed: int, workers: NoGuessWorkers):
        self.seed = seed
        self._workers = workers
        self.cancelled: Callable[[], bool] = lambda: False

    def place(self, rows: int, cols: int, mines: int, first_click: Cell) -> CoordArray:
        cells = self._workers.place(self.seed, rows, cols, mines, first_click, self.cancelled)
        return np.array(cells, dtype=np.int64).reshape(-1, 2)
