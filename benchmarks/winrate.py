"""Bot win rate over many games, with its 95% interval, against the best published one.

Run with `./dev bench winrate [--preset expert] [--games N] [--first-click opening|safe]
[--seed S] [--jobs J] [--results FILE]`: the same options and output as
`mines bench winrate`, then a verdict. The target is the solver's (docs/solver.md): a win
rate at least the best published figure for the preset and first click. The games are
seeded (seeds S, S+1, ...), so a verdict depends on the seeds and the number of games, never
on how busy the machine is: PASS when the rate over the N games (1000 by default) is at
least the record, with where the record lies against the interval (inside it: N games
cannot tell the two apart). Conditions without a published figure get no verdict. Speed
(games per CPU second) is a target of `./dev bench solver`, not of this one.
"""

from __future__ import annotations

import sys

from benchmarks import solver_cli
from benchmarks.checks import Checks
from mines.errors import MinesError
from mines.solver import cli

RECORDS: dict[tuple[str, str], tuple[float, str]] = {
    ("expert", "opening"): (0.543, "JSMinesweeper's Java solver"),
    ("expert", "safe"): (0.4113, "JSMinesweeper's Java solver"),
    ("intermediate", "opening"): (0.8908, "PSEQ-D256"),
    ("beginner", "opening"): (0.9717, "PSEQ-D256"),
}
"""The best published win rate for each (preset, first click), as docs/solver.md lists them."""


def where(record: float, low: float, high: float) -> str:
    if record < low:
        return "below the interval"
    if record > high:
        return "above the interval"
    return "inside the interval: these games cannot tell the bot from the record"


def main() -> int:
    args = solver_cli.parse("winrate", __doc__)
    try:
        result = cli.measure_win_rate(args)
    except MinesError as error:
        print(f"./dev bench winrate: {error}", file=sys.stderr)
        return 2
    target = RECORDS.get((args.preset, args.first_click))
    if target is None:
        print(f"no target: no published win rate for {args.preset} with a {args.first_click} click")
        return 0
    record, source = target
    low, high = result.interval()
    checks = Checks()
    checks.report(
        f"win rate on {args.preset}, {args.first_click} first click",
        result.rate >= record,
        f"{result.rate:.2%} over {result.games} games against {record:.2%} ({source}); "
        f"the record lies {where(record, low, high)} (target: at least the record)",
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
