"""No-guess generation times at any size, each board verified, against Expert's targets.

Run with `./dev bench nog [--preset P | --rows R --cols C --mines M] [--boards N] [--seed S]`:
the same options and output as `mines bench nog`, timed in CPU time (waiting for a core does
not count, so a busy machine does not flip the verdict), then a verdict. The targets are the
solver's, for Expert boards only: a median of at most 100 ms and a 99th percentile of at most
1 s over the N boards (100 by default), every board verified by a deduction-only replay. No
target is stated for other sizes: they get the figures and the verification, not a verdict
on time. `./dev bench solver` checks the same Expert targets among the solver's others.
"""

from __future__ import annotations

import sys
import time

from benchmarks import solver_cli
from benchmarks.checks import Checks
from mines.errors import MinesError
from mines.presets import PRESETS
from mines.solver import cli

EXPERT = PRESETS["expert"]
MEDIAN, P99 = 0.1, 1.0
"""Expert's targets, in seconds of CPU time."""


def main() -> int:
    args = solver_cli.parse("nog", __doc__)
    try:
        board, made = cli.measure_generation(args, time.process_time, "CPU time")
    except MinesError as error:
        print(f"./dev bench nog: {error}", file=sys.stderr)
        return 2
    checks = Checks()
    n = len(made.seconds)
    checks.report("every board verified", made.verified == n, f"{made.verified} of {n}")
    if board != (EXPERT.rows, EXPERT.cols, EXPERT.mines):
        print("no target: generation times are a target only for Expert boards")
        return checks.exit_code
    median, p99 = made.percentile(0.5), made.percentile(0.99)
    checks.report(
        "no-guess Expert generation",
        median <= MEDIAN and p99 <= P99,
        f"median {median * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms of CPU time over {n} boards "
        f"(targets <= {MEDIAN * 1000:.0f} ms and <= {P99:.0f} s)",
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
