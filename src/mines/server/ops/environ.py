"""`MINES_<OPTION>` variables for the options of `mines serve`; the command line wins."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from typing import Any

PREFIX = "MINES_"
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


def variable(action: argparse.Action) -> str | None:
    """The variable that sets an option (`--max-cells` -> `MINES_MAX_CELLS`), None for help."""
    if isinstance(action, argparse._HelpAction) or not action.option_strings:
        return None
    longest = max(action.option_strings, key=len)
    if isinstance(action, argparse.BooleanOptionalAction):
        longest = action.option_strings[0]  # --access-log, not --no-access-log
    return PREFIX + longest.lstrip("-").replace("-", "_").upper()


def read(action: argparse.Action, text: str) -> Any:
    """The option's value from a variable's text, checked as the command line checks it;
    ValueError saying what is accepted."""
    if isinstance(action, argparse.BooleanOptionalAction):
        if text.strip().lower() in TRUE:
            return True
        if text.strip().lower() in FALSE:
            return False
        raise ValueError(f"expected one of {', '.join(TRUE + FALSE)}")
    try:
        value = action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, ValueError, TypeError) as error:
        raise ValueError(str(error)) from None
    if action.choices is not None and value not in action.choices:
        raise ValueError(f"expected one of {', '.join(map(str, action.choices))}")
    return value


class EnvironmentParser(argparse.ArgumentParser):
    """A parser whose options default to their `MINES_<OPTION>` variables, read when it
    parses (so other commands never read them); a malformed one stops it with one line
    naming the variable and what it accepts."""

    environ: Mapping[str, str] = os.environ

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        for action in self._actions:
            name = variable(action)
            if name is None or name not in self.environ:
                continue
            try:
                action.default = read(action, self.environ[name])
            except ValueError as error:
                self.exit(2, f"{self.prog}: {name}={self.environ[name]!r}: {error}\n")
        return super().parse_known_args(args, namespace)


def from_environment(parser: argparse.ArgumentParser) -> None:
    """Make `parser` (a subcommand's) take its options' defaults from the environment."""
    parser.__class__ = EnvironmentParser
    parser.epilog = (
        f"Every option can also be set as {PREFIX}<OPTION> in the environment (--max-cells as "
        f"{PREFIX}MAX_CELLS, --no-access-log as {PREFIX}ACCESS_LOG=0); the command line wins."
    )
