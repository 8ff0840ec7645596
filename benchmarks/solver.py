"""Solver speed benchmark: counting, the bot and no-guess generation against their targets.

Run with `./dev bench solver [--games N] [--boards N]` (under `nice` on a shared machine).
Every figure is CPU time, so waiting for a core on a busy machine does not count. The
counting case is a ratio against cell-by-cell enumeration measured in the same run (the
best of 5 runs against one); the bot must play at least 10 Expert games per CPU second
over N games (200 by default); no-guess Expert boards must come in a median of 100 ms with
a 99th percentile under 1 s over N boards (100). The solver's strength is measured by
`./dev bench winrate` (`mines bench winrate`), which needs many more games than this.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable

from benchmarks import nog
from benchmarks.checks import Checks
from mines import BoardView
from mines.solver import analyze
from mines.solver.bench import generate, win_rate
from mines.solver.topology import neighbours


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
