"""Hint latency on a 1000x1000 board with 100,000 mines, hint after hint from the opening.

Run with `./dev bench hint`. Each game opens at the centre, then asks `hint(game, near=cursor)`
(the call the terminal game makes) and plays its answer, up to `--hints` times or until the
game ends; every call is timed. Target: p95 at most 200 ms. The baseline, measured in the
same run, is the whole-board analysis (`hint(game.view())`), the path every hint took before.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.checks import Checks
from mines import Game, GameStatus
from mines.solver import hint

ROWS, COLS, MINES = 1000, 1000, 100_000
TARGET_P95_MS = 200.0


def hint_times(seed: int, hints: int) -> list[float]:
    """Milliseconds of each hint in one game, from its opening on."""
    game = Game(ROWS, COLS, MINES, seed=seed)
    cursor = (ROWS // 2, COLS // 2)
    game.reveal(*cursor)
    times = []
    for _ in range(hints):
        if game.status is not GameStatus.IN_PROGRESS:
            break
        start = time.perf_counter()
        found = hint(game, near=cursor)
        times.append((time.perf_counter() - start) * 1000)
        cursor = (found.row, found.col)
        game.reveal(*cursor)
    return times


def whole_board_ms(seed: int) -> float:
    game = Game(ROWS, COLS, MINES, seed=seed)
    game.reveal(ROWS // 2, COLS // 2)
    start = time.perf_counter()
    hint(game.view())
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--hints", type=int, default=30, help="hints per game at most")
    parser.add_argument("--baseline", type=int, default=1, help="whole-board hints to time")
    args = parser.parse_args()
    samples: list[float] = []
    firsts: list[float] = []
    for seed in range(args.games):
        times = hint_times(seed, args.hints)
        samples += times
        firsts += times[:1]
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    print(
        f"{len(samples)} hints in {args.games} games of {ROWS}x{COLS} with {MINES:,} mines: "
        f"median {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms, max {samples[-1]:.1f} ms; "
        f"first hint after the opening: median {statistics.median(firsts):.1f} ms, "
        f"max {max(firsts):.1f} ms"
    )
    if args.baseline:
        whole = [whole_board_ms(seed) for seed in range(args.baseline)]
        print(
            f"baseline, the whole-board analysis: median {statistics.median(whole):.0f} ms "
            f"(x{statistics.median(whole) / statistics.median(samples):.0f} the windowed median)"
        )
    checks = Checks()
    checks.report("hint p95", p95 <= TARGET_P95_MS, f"{p95:.1f} ms (target <= {TARGET_P95_MS} ms)")
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
