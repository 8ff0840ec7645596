"""Solver speed benchmark: counting, the bot on both paths and no-guess generation.

Run with `./dev bench solver [--games N] [--boards N]` (under `nice` on a shared machine).
Every figure is CPU time, so waiting for a core on a busy machine does not count. The
counting case is a ratio against cell-by-cell enumeration measured in the same run (the
best of 5 runs against one); the bot must play at least 10 Expert games per CPU second
over N games (200 by default). The same N Expert games (safe corner, as the records are
played) are then played by the bot on the Python path, with compiled decisions in the
Python game, and compiled end to end as long runs play them (`Bot.play_placed`, see
`mines.solver.native`), one seed after the other so that all see the same load: CPU per
game (mean, median, 95th and 99th percentiles) of each path, and the compiled path's
targets: a mean
of at most 5 ms, at least 6 times faster than the Python path in the same run, a 99th
percentile of at most 50 ms. No-guess Expert boards must come in a median of 100 ms with a
99th percentile under 1 s over N boards (100). The solver's strength is measured by
`./dev bench winrate` (`mines bench winrate`), which needs many more games than this.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable

from benchmarks import nog
from benchmarks.checks import Checks
from mines import BoardView
from mines.game import Game
from mines.placement import FirstClick, RandomPlacer
from mines.solver import analyze, native
from mines.solver.bench import first_click, generate, win_rate
from mines.solver.bot import Bot
from mines.solver.topology import neighbours

MEAN_MS = 5.0
"""The compiled path's mean CPU per Expert game (safe corner), at most ..."""
SPEEDUP = 6.0
"""... at least this many times faster than the Python path in the same run ..."""
P99_MS = 50.0
"""... and its 99th percentile at most this."""


def frontier_position(seed: int) -> tuple[list[str], int]:
    """A 5x8 board, 8 mines, with its top-left numbers revealed: about 20 unknown cells."""
    rows, cols, mines = 5, 8, 8
    rng = random.Random(seed)
    layout = set(rng.sample(range(rows * cols), mines))
    nbrs = neighbours(rows, cols)
    symbols = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        shown = cell not in layout and r + c < 6
        symbols.append(str(sum(n in layout for n in nbrs[cell])) if shown else "H")
    return ["".join(symbols[r * cols : (r + 1) * cols]) for r in range(rows)], mines


def enumerate_cells(lines: list[str], mines: int) -> int:
    """The baseline: try every placement of the mines on the unknown cells."""
    rows, cols = len(lines), len(lines[0])
    nbrs = neighbours(rows, cols)
    symbols = "".join(lines)
    unknown = [i for i, s in enumerate(symbols) if s == "H"]
    numbers = [(i, int(s)) for i, s in enumerate(symbols) if s.isdigit()]
    total = 0
    for layout in itertools.combinations(unknown, mines):
        chosen = set(layout)
        total += all(sum(n in chosen for n in nbrs[i]) == v for i, v in numbers)
    return total


def timed(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


PATHS = ("python", "decisions", "compiled")
"""The bot's paths: Python throughout; compiled decisions in the Python game (`Bot.play`
with the library); the whole game compiled (`Bot.play_placed`, as long runs play)."""


def game_seconds(games: int, seed: int = 0) -> dict[str, list[float]]:
    """CPU seconds of each of `games` Expert games (safe corner) per path of `PATHS`, each
    seed played by every path one after the other; the games must end the same."""
    rows, cols, mines = 16, 30, 99
    click = first_click(FirstClick.SAFE, rows, cols, mines)
    seconds: dict[str, list[float]] = {path: [] for path in PATHS}
    for game_seed in range(seed, seed + games):
        ends = []
        for path in PATHS:
            bot = Bot(game_seed, first_click=click, native=path != "python")
            placer = RandomPlacer(game_seed, FirstClick.SAFE)
            start = time.process_time()
            if path == "compiled":
                status = bot.play_placed(rows, cols, mines, placer)
            else:
                status = bot.play(Game(rows, cols, mines, placer=placer))
            seconds[path].append(time.process_time() - start)
            ends.append((status, bot.guesses))
        if len(set(ends)) > 1:
            raise SystemExit(f"seed {game_seed}: the paths played different games")
    return seconds


def describe(seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"mean {statistics.fmean(ms):.1f} ms, median {statistics.median(ms):.1f} ms, "
        f"p95 {percentile(ms, 0.95):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"{len(ms) / sum(seconds):.1f} games per CPU second"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="Expert games for the bot speed")
    parser.add_argument("--boards", type=int, default=100, help="no-guess Expert boards")
    args = parser.parse_args()
    checks = Checks()
    report = checks.report

    lines, mines = frontier_position(3)
    view = BoardView.from_strings(lines)
    ours = min(timed(lambda: analyze(view, mines=mines)) for _ in range(5))
    base = timed(lambda: enumerate_cells(lines, mines))
    exact = analyze(view, mines=mines).arrangements == enumerate_cells(lines, mines)
    report(
        "exact counting vs cell-by-cell enumeration",
        exact and base / ours >= 100,
        f"{ours * 1000:.2f} ms vs {base * 1000:.0f} ms = {base / ours:.0f}x, same count: {exact} "
        "(target >= 100x)",
    )

    played = win_rate(16, 30, 99, condition="opening", games=args.games, seed=10_000)
    speed = played.games / played.cpu_seconds
    report(
        "bot on Expert",
        speed >= 10,
        f"{speed:.1f} games per CPU second over {played.games} games, "
        f"won {played.wins} (target >= 10 games/s per core)",
    )

    state = native.status()
    print(f"compiled path: {state.reason}", flush=True)
    if state.native:
        seconds = game_seconds(args.games)
        python, compiled = seconds["python"], seconds["compiled"]
        print(f"Python path, {len(python)} Expert games (safe corner): {describe(python)}")
        print(
            f"compiled decisions in the Python game, the same games: "
            f"{describe(seconds['decisions'])}"
        )
        print(f"whole games compiled, the same games and moves: {describe(compiled)}", flush=True)
        mean = statistics.fmean(compiled) * 1000
        ratio = sum(python) / sum(compiled)
        p99 = percentile(compiled, 0.99) * 1000
        report(
            "compiled bot on Expert",
            mean <= MEAN_MS and ratio >= SPEEDUP and p99 <= P99_MS,
            f"mean {mean:.1f} ms (target <= {MEAN_MS:g}), {ratio:.2f}x the Python path "
            f"(target >= {SPEEDUP:g}x), p99 {p99:.1f} ms (target <= {P99_MS:g}), CPU time",
        )
    else:
        report("compiled bot on Expert", False, "the compiled path is unavailable")

    made = generate(16, 30, 99, boards=args.boards, clock=time.process_time)
    median, p99 = made.percentile(0.5), made.percentile(0.99)
    report(
        "no-guess Expert generation",
        median <= nog.MEDIAN and p99 <= nog.P99 and made.verified == args.boards,
        f"median {median * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms over {args.boards} boards, "
        f"{made.verified} verified, CPU time (targets <= 100 ms and <= 1 s)",
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
