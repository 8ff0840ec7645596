"""Huge-board benchmark: 10^6 x 10^6 boards on the sparse engine, time and peak memory.

Run with `./dev bench huge [--cases NAME...] [--repeats N]`. Each case runs in fresh
subprocesses: N timed ones (3 by default; times are CPU seconds, and the best run counts,
so that waiting for a core on a busy machine is not charged), and one under tracemalloc,
whose peak (and the process's ru_maxrss above what the imports already took) is the
memory figure. The `wall` case
(a row of 10^6 flags across the board before the first reveal, which cuts the sea in
two) has no target of its own; its limits here are the 100,000-mine ones.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.checks import Checks
from mines import Game, RandomPlacer

SIDE = 1_000_000
FIRST_CLICK = (SIDE // 2, SIDE // 2)
SEED = 2026
PROBES = 50
"""Mines around which the per-move timings are taken."""


@dataclass(frozen=True)
class Case:
    mines: int
    first_reveal_s: float
    memory_mb: float
    wall: bool = False


CASES = {
    "thousand": Case(1000, 1.0, 200),
    "hundred-thousand": Case(100_000, 20.0, 2048),
    "wall": Case(1000, 20.0, 2048, wall=True),
}
WALL_ROW = SIDE // 2 - 1000


def probe_cells(mines: int) -> list[tuple[int, int]]:
    """Mines (from the same seeded draw the game will make) with no other mine within 3 cells."""
    layout = [(r, c) for r, c in RandomPlacer(SEED).place(SIDE, SIDE, mines, FIRST_CLICK).tolist()]
    taken = set(layout)

    def alone(row: int, col: int) -> bool:
        return not any(
            (row + dr, col + dc) in taken for dr in range(-3, 4) for dc in range(-3, 4) if dr or dc
        )

    inside = [(r, c) for r, c in layout if 1 <= r < SIDE - 1 and 3 <= c < SIDE - 3]
    return [(r, c) for r, c in inside if alone(r, c)][:PROBES]


def new_game_and_first_reveal(case: Case, probes: list[tuple[int, int]]) -> tuple[Game, float]:
    """Flags two cells right and left of each probe mine, so the flood leaves them hidden.

    A wall case first lays its row of flags, untimed: the figure is the reveal's alone.
    """
    game = Game(SIDE, SIDE, case.mines, seed=SEED)
    if case.wall:
        for col in range(SIDE):
            game.toggle_flag(WALL_ROW, col)
    start = time.process_time()
    if case.wall:
        game.reveal(*FIRST_CLICK)
        return game, time.process_time() - start
    for row, col in probes:
        game.toggle_flag(row, col + 2)
        game.toggle_flag(row, col - 2)
    game.reveal(*FIRST_CLICK)
    return game, time.process_time() - start


def timed(task: Any, *args: int) -> float:
    start = time.process_time()
    task(*args)
    return time.process_time() - start


def moves_ms(game: Game, probes: list[tuple[int, int]]) -> dict[str, list[float]]:
    """Per probe: flag the mine, unflag a neighbour, chord the number between, reveal, view."""
    times: dict[str, list[float]] = {"flag": [], "chord": [], "reveal": [], "view 100x100": []}
    for row, col in probes:
        times["flag"].append(timed(game.toggle_flag, row, col))
        times["flag"].append(timed(game.toggle_flag, row, col + 2))
        times["chord"].append(timed(game.chord, row, col + 1))
        times["flag"].append(timed(game.toggle_flag, row, col - 2))
        times["reveal"].append(timed(game.reveal, row, col - 2))
        times["view 100x100"].append(timed(game.view, row - 50, col - 50, 100, 100))
        assert game.view(row, col - 2, 1, 5).to_strings() == ["01F10"], "moves did not land"
    return {name: [t * 1000 for t in values] for name, values in times.items()}


def child(case: Case, measure: str) -> dict[str, Any]:
    """One measurement in this fresh process; the first game's time includes first imports."""
    probes = probe_cells(case.mines)
    if measure == "memory":
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        game, _ = new_game_and_first_reveal(case, probes)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return {"traced_peak_mb": peak / 2**20, "rss_growth_mb": (after - before) / 1024}
    _, cold = new_game_and_first_reveal(case, probes)
    game, seconds = new_game_and_first_reveal(case, probes)
    result: dict[str, Any] = {
        "first_reveal_s": cold,
        "warm_first_reveal_s": seconds,
        "status": game.status.value,
        "probes": len(probes),
    }
    if case.wall:
        result["other_side_s"] = timed(game.reveal, 0, 0)
        result["status"] = game.status.value
    else:
        result["moves_ms"] = moves_ms(game, probes)
    return result


def run_child(name: str, measure: str) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.huge", "--child", name, "--measure", measure]
    root = Path(__file__).resolve().parents[1]
    output = subprocess.run(command, check=True, capture_output=True, text=True, cwd=root).stdout
    result: dict[str, Any] = json.loads(output)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument(
        "--repeats", type=int, default=3, help="timed runs of each case; the best counts"
    )
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    parser.add_argument("--measure", choices=["time", "memory"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(CASES[args.child], args.measure)))
        return 0
    checks = Checks()
    report = checks.report

    for name in args.cases:
        case = CASES[name]
        label = f"{SIDE:,}^2 / {case.mines:,} mines" + (" / a row of flags" if case.wall else "")
        timings = [run_child(name, "time") for _ in range(args.repeats)]
        timing = min(timings, key=lambda t: float(t["first_reveal_s"]))
        memory = run_child(name, "memory")
        seconds = timing["first_reveal_s"]
        report(
            f"{label}, new game + first reveal",
            seconds <= case.first_reveal_s,
            f"{seconds:.3f} s in a fresh process, {timing['warm_first_reveal_s']:.3f} s once "
            f"scipy's modules are loaded, best of {args.repeats} "
            f"(target <= {case.first_reveal_s:g} s"
            + (
                f"; the other side then opens in {timing['other_side_s']:.3f} s"
                if case.wall
                else f"; {timing['probes']} x 2 flags first"
            )
            + f"; game {timing['status']})",
        )
        peak = max(memory["traced_peak_mb"], memory["rss_growth_mb"])
        report(
            f"{label}, peak memory",
            peak <= case.memory_mb,
            f"tracemalloc peak {memory['traced_peak_mb']:.1f} MB, ru_maxrss growth "
            f"{memory['rss_growth_mb']:.1f} MB (target <= {case.memory_mb:g} MB)",
        )
        if case.mines == 1000 and not case.wall:
            for move in timing["moves_ms"]:
                # The run whose slowest move of this kind was the quickest.
                values = min((t["moves_ms"][move] for t in timings), key=max)
                worst = max(values)
                report(
                    f"{label}, each {move}",
                    worst <= 10,
                    f"median {statistics.median(values):.3f} ms, worst {worst:.3f} ms "
                    f"over {len(values)}, best of {args.repeats} runs (target <= 10 ms)",
                )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
