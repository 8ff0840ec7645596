"""The bot's win rate over many games, with its 95% interval (`mines bench solver`).

Run with `./dev bench winrate [--preset expert] [--games N] [--first-click opening|safe]
[--jobs J]`. A measurement rather than a check: it prints the rate and its interval, to set
beside the published figures in docs/solver.md; `./dev bench solver` checks the solver's
speed targets.
"""

from __future__ import annotations

import sys

from mines.cli.main import main as mines


def main() -> int:
    return mines(["bench", "solver", *sys.argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
