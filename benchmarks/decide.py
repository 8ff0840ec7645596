"""Two policies' guesses judged where made, on drawn layouts (`mines bench decide`).

Run with `./dev bench decide --positions FILE [--sample N] [--draws D] [--seed S] [--jobs J]
[--results FILE]`, or with one position on standard input and `--mines N --cell R,C ...`.
A measurement rather than a check: it prints each choice's chance to win and the mean
paired difference between the policies with its standard error (see docs/solver.md).
"""

from __future__ import annotations

import sys

from mines.cli.main import main as mines


def main() -> int:
    return mines(["bench", "decide", *sys.argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
