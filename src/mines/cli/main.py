"""Entry point of the `mines` command: builds the subcommands and maps errors to messages."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

import mines
from mines.errors import MinesError
from mines.extras import MissingExtraError
from mines.tui import language

# Each module has `register(subparsers)`; it imports its heavy dependencies only when run.
COMMAND_MODULES = (
    "mines.cli.play",
    "mines.cli.replay",
    "mines.cli.review",
    "mines.cli.stats",
    "mines.cli.language",
    "mines.server.ops.cli",
    "mines.server.ops.admin",
    "mines.solver.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mines", description="Minesweeper: play, solve, serve.")
    parser.add_argument("--version", action="version", version=f"mines {mines.__version__}")
    parser.add_argument(
        "--lang",
        metavar="NAME",
        help="the terminal game's language: en, de, es or zh_Hans (also after the command); "
        "else the setting of `mines language`, else LANG/LC_*",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


CLOSED_PIPE = 141
"""The exit status of a command whose reader went away (128 + SIGPIPE), as `yes | head` has."""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        # Chosen before the parser is built: the modules it imports word things at import.
        language.use(language.choose(language.option_in(arguments)))
    except ValueError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 2
    try:
        args = build_parser().parse_args(language.without_option(arguments))
        status: int = args.handler(args)
    except MinesError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 2
    except MissingExtraError as error:
        print(f"mines: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (`| head`) has gone: stop quietly, and point stdout at nothing so that
        # the flush at exit does not raise the same error again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE
    return status


if __name__ == "__main__":
    sys.exit(main())
