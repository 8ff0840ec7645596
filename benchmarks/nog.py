"""No-guess board generation times at any size, each board verified (`mines bench nog`).

Run with `./dev bench nog [--preset P | --rows R --cols C --mines M] [--boards N]`. A
measurement rather than a check: it prints the median and percentiles of the generation
times; `./dev bench solver` checks the Expert targets.
"""

from __future__ import annotations

import sys

from mines.cli.main import main as mines


def main() -> int:
    return mines(["bench", "nog", *sys.argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
