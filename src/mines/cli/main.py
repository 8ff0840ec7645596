"""Entry point of the `mines` command: builds the subcommands and maps errors to messages."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from mines.errors import MinesError
from mines.extras import MissingExtraError

# Each module has `register(subparsers)`; it imports its heavy dependencies only when run.
COMMAND_MODULES = (
    "mines.cli.play",
    "mines.tui.replay_command",
    "mines.tui.stats_command",
    "mines.server.cli",
    "mines.solver.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mines", description="Minesweeper: play, solve, serve.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
    except MinesError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 2
    except MissingExtraError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
