"""No-guess generator benchmark: time and peak memory of `NoGuessPlacer.place` by size.

Run with `./dev bench noguess`. Every generation runs in a fresh subprocess, timed in CPU
seconds (a busy machine slows the wall clock more than the CPU time); its peak memory is the
process's ru_maxrss above what the imports took. Each case runs several seeds and is judged
on the median, so one slow seed does not flip the verdict. Targets are per cell, as arrays
cost: the generator used to build a tuple of neighbours per cell, which on 1000x1000 took
470 MiB and 29 s; numpy arrays of the board take a few bytes per cell.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from benchmarks.checks import Checks


@dataclass(frozen=True)
class Case:
    rows: int
    cols: int
    mines: int
    seeds: int
    median_s: float
    """The target for the median generation time."""
    bytes_per_cell: float
    """The target for peak memory above the imports, per cell of the board."""


CASES = {
    "expert": Case(16, 30, 99, 15, 0.5, 20_000),
    "30x30": Case(30, 30, 240, 5, 3.0, 10_000),
    "200x200": Case(200, 200, 2000, 3, 5.0, 1_000),
    "1000x1000": Case(1000, 1000, 10_000, 3, 10.0, 200),
}
"""Expert and a dense 30x30 as people play them; two big boards at low density (5% and 1%).
Small boards' memory targets are loose: there the interpreter's own allocations dominate."""


def child(rows: int, cols: int, mines: int, seed: int) -> dict[str, float]:
    from mines.solver import NoGuessPlacer

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    NoGuessPlacer(seed).place(rows, cols, mines, (rows // 2, cols // 2))
    elapsed = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": elapsed, "peak_bytes": (peak - base) * 1024.0}


def run_child(case: Case, seed: int) -> dict[str, float]:
    command = [sys.executable, "-m", "benchmarks.noguess", "--child"]
    command += [str(value) for value in (case.rows, case.cols, case.mines, seed)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(output)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", choices=[[], *CASES], help="cases to run (all)")
    parser.add_argument("--child", nargs=4, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    checks = Checks()
    for name in args.cases or list(CASES):
        case = CASES[name]
        runs = [run_child(case, seed) for seed in range(case.seeds)]
        seconds = statistics.median(run["seconds"] for run in runs)
        per_cell = statistics.median(run["peak_bytes"] for run in runs) / (case.rows * case.cols)
        label = f"{case.rows}x{case.cols}, {case.mines} mines, median of {case.seeds} seeds"
        checks.report(
            f"{name} time",
            seconds <= case.median_s,
            f"{seconds:.3f} s ({label}; ≤ {case.median_s})",
        )
        checks.report(
            f"{name} memory",
            per_cell <= case.bytes_per_cell,
            f"{per_cell:,.0f} bytes/cell above imports ({label}; ≤ {case.bytes_per_cell:,.0f})",
        )
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
