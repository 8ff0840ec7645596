"""The options of `mines bench NAME` for the benchmarks that run it, with their own help text."""

from __future__ import annotations

import argparse
import sys

from mines.solver import cli


def parse(name: str, description: str | None) -> argparse.Namespace:
    """The command line read as `mines bench NAME` reads it; `--help` shows `description`."""
    top = argparse.ArgumentParser(prog="./dev")
    cli.register(top.add_subparsers(dest="command", required=True))
    command = subcommand(subcommand(top, "bench"), name)
    command.description = description
    command.formatter_class = argparse.RawDescriptionHelpFormatter
    return top.parse_args(["bench", name, *sys.argv[1:]])


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise LookupError(f"{parser.prog} has no subcommands")
