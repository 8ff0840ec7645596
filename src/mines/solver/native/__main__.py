"""`python -m mines.solver.native`: build the compiled solver now and say which path runs."""

from __future__ import annotations

import sys

from mines.solver.native import NativeUnavailableError, status


def main() -> int:
    """Print which path the bot's decisions take and why; 1 when it is the Python path."""
    try:
        state = status()
    except NativeUnavailableError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 1
    print(state.reason)
    return 0 if state.native else 1


if __name__ == "__main__":
    raise SystemExit(main())
