"""Strength and speed measurements: bot win rates with intervals, no-guess generation times."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from mines.game import Game
from mines.placement import FixedPlacer, RandomPlacer
from mines.solver.analysis import analyze
from mines.solver.bot import Bot, opening_click
from mines.solver.noguess import NoGuessPlacer
from mines.symbols import GameStatus


def first_click(condition: str, rows: int, cols: int, mines: int) -> tuple[int, int]:
    """Where a benchmark game is opened: the corner (0, 0) when only the first click is safe,
    as the published records do; else where the bot chooses, (3, 3) on Expert."""
    return (0, 0) if condition == "safe" else opening_click(rows, cols, mines)


Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class WinRate:
    """Games played and won, with the wall time and the CPU time they took."""

    games: int
    wins: int
    seconds: float
    cpu_seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self, z: float = 1.959964) -> tuple[float, float]:
        """The Wilson score interval (95% by default) for the win rate."""
        n, p = self.games, self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half


def play_range(
    rows: int, cols: int, mines: int, condition: str, seeds: range
) -> tuple[int, int, float]:
    """Play one game per seed; returns (games, wins, CPU seconds)."""
    start = time.process_time()
    wins = 0
    click = first_click(condition, rows, cols, mines)
    for seed in seeds:
        game = Game(rows, cols, mines, placer=RandomPlacer(seed, condition))
        status = Bot(seed, first_click=click).play(game)
        wins += status is GameStatus.WON
    return len(seeds), wins, time.process_time() - start


def win_rate(
    rows: int,
    cols: int,
    mines: int,
    *,
    condition: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    clock: Clock = time.perf_counter,
) -> WinRate:
    """Play `games` games with seeds seed, seed+1, ... on `jobs` processes."""
    start = clock()
    parts = [range(seed + j, seed + games, jobs) for j in range(jobs)]
    if jobs == 1:
        results = [play_range(rows, cols, mines, condition, parts[0])]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [
                pool.submit(play_range, rows, cols, mines, condition, part) for part in parts
            ]
            results = [future.result() for future in futures]
    return WinRate(
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        clock() - start,
        sum(r[2] for r in results),
    )


def verify_no_guess(game: Game, first_click: tuple[int, int]) -> bool:
    """Play a game through its public API opening only cells `analyze` proves safe."""
    game.reveal(*first_click)
    while game.status is GameStatus.IN_PROGRESS:
        safe = analyze(game.view()).safe
        if not safe:
            return False
        for row, col in sorted(safe):
            if game.reveal(row, col) is not GameStatus.IN_PROGRESS:
                break
    return game.status is GameStatus.WON


@dataclass(frozen=True, slots=True)
class Generation:
    """Seconds to generate each board, and how many boards the independent pass verified."""

    seconds: list[float]
    verified: int

    def percentile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    boards: int,
    seed: int = 0,
    first_click: tuple[int, int] = (3, 3),
    clock: Clock = time.perf_counter,
) -> Generation:
    """Generate `boards` no-guess boards, timing each, then verify each by playing it."""
    seconds: list[float] = []
    verified = 0
    for index in range(boards):
        start = clock()
        layout = NoGuessPlacer(seed + index).place(rows, cols, mines, first_click)
        seconds.append(clock() - start)
        placer = FixedPlacer([(int(r), int(c)) for r, c in layout.tolist()])
        verified += verify_no_guess(Game(rows, cols, mines, placer=placer), first_click)
    return Generation(seconds, verified)
