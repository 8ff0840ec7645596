"""Strength and speed measurements: bot win rates with intervals, no-guess generation times."""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from mines.clock import Clock
from mines.game import Game
from mines.placement import FirstClick, FixedPlacer, RandomPlacer
from mines.solver.analysis import analyze
from mines.solver.blocks import BlockLog
from mines.solver.bot import Bot, opening_click
from mines.solver.cluster import on_cluster
from mines.solver.noguess import NoGuessPlacer
from mines.solver.progress import RunProgress
from mines.status import GameStatus


def first_click(condition: str, rows: int, cols: int, mines: int) -> tuple[int, int]:
    """Where a benchmark game is opened: the corner (0, 0) when only the first click is safe,
    as the published records do; else where the bot chooses, (3, 3) on Expert."""
    return (0, 0) if condition == FirstClick.SAFE else opening_click(rows, cols, mines)


@dataclass(frozen=True, slots=True)
class WinRate:
    """Games played and won (in every block, those resumed from a results file included),
    with the wall time this run took, the CPU time of all of them and how many this run
    played itself."""

    games: int
    wins: int
    seconds: float
    cpu_seconds: float
    played: int | None = None
    """Games this run played (the rest were read back from its results file); None: all."""
    guesses: int = 0
    """Moves over all the games whose cell was not certainly safe (first clicks aside)."""

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self, z: float = 1.959964) -> tuple[float, float]:
        """The Wilson score interval (95% by default) for the win rate."""
        return wilson(self.wins, self.games, z)


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for `wins` out of `games`."""
    n, p = games, wins / games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


BLOCK = 200
"""Games per block of seeds: a results file keeps each finished block, so a stopped run
loses at most the blocks under way."""


def play_range(
    rows: int, cols: int, mines: int, condition: str, seeds: range
) -> tuple[int, int, float, int]:
    """Play one game per seed; returns (games, wins, CPU seconds, guesses)."""
    start = time.process_time()
    wins = guesses = 0
    click = first_click(condition, rows, cols, mines)
    for seed in seeds:
        bot = Bot(seed, first_click=click)
        # The same game as `bot.play(Game(..., placer=RandomPlacer(seed, condition)))`,
        # compiled end to end when it can be.
        wins += bot.play_placed(rows, cols, mines, RandomPlacer(seed, condition)) is GameStatus.WON
        guesses += bot.guesses
    return len(seeds), wins, time.process_time() - start, guesses


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
    block: int = BLOCK,
    results: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    cluster: str | None = None,
) -> WinRate:
    """Play `games` games with seeds seed, seed+1, ... on `jobs` processes, in blocks of
    `block` seeds; with a `results` file, every finished block is kept there and a run
    given the same file again plays only the blocks it lacks. Progress goes to the
    terminal when there is one (`progress` forces it on or off).

    `cluster` spreads the blocks over Dask workers instead (`mines.solver.cluster`):
    "local" for a local cluster of `jobs` processes, else a scheduler's address. A game
    depends only on its seed, so the totals are the same however the blocks are spread."""
    start = clock()
    settings = {"bench": "solver", "board": [rows, cols, mines], "condition": condition}
    log = BlockLog(results, {**settings, "block": block})
    blocks = [range(b, min(b + block, seed + games)) for b in range(seed, seed + games, block)]
    kept = [log.done[k] for k in map(_block_key, blocks) if k in log.done]
    totals = [sum(r[k] for r in kept) for k in ("games", "wins", "guesses")]
    cpu = sum(r["cpu_seconds"] for r in kept)
    todo = [b for b in blocks if _block_key(b) not in log.done]
    played = 0
    with RunProgress(games, unit="games", done=totals[0], enabled=progress) as bar:

        def finished(seeds: range, result: tuple[int, int, float, int]) -> None:
            nonlocal cpu, played
            n, wins, seconds, guesses = result
            record = {"games": n, "wins": wins, "cpu_seconds": seconds, "guesses": guesses}
            log.add(_block_key(seeds), record)
            totals[0] += n
            totals[1] += wins
            totals[2] += guesses
            cpu += seconds
            played += n
            low, high = wilson(totals[1], totals[0])
            bar.advance(
                n,
                status=f"won {totals[1] / totals[0]:.2%} (95% {low:.2%}-{high:.2%})",
                per_second=played / max(clock() - start, 1e-9),
            )

        if cluster is not None and todo:
            for seeds, result in on_cluster(
                cluster, jobs, play_range, todo, rows, cols, mines, condition
            ):
                finished(seeds, result)
        elif jobs == 1:
            for seeds in todo:
                finished(seeds, play_range(rows, cols, mines, condition, seeds))
        elif todo:
            with ProcessPoolExecutor(jobs) as pool:
                futures = {
                    pool.submit(play_range, rows, cols, mines, condition, seeds): seeds
                    for seeds in todo
                }
                for future in as_completed(futures):
                    finished(futures[future], future.result())
    return WinRate(totals[0], totals[1], clock() - start, cpu, played, totals[2])


def _block_key(seeds: range) -> str:
    return f"{seeds.start}+{len(seeds)}"


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
