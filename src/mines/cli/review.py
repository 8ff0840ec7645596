"""`mines review FILE`: a finished game judged move by move, as text (or JSON for scripts)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mines.cli.replay import load_record
from mines.moves import MoveKind
from mines.tui.language import _
from mines.tui.words import describe, plural

if TYPE_CHECKING:  # the solver loads when the command runs: every `mines` command parses
    from mines.solver.game_review import MoveReview, Review


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="judge every move of a finished game with the exact solver",
        description="Judge every move of a finished game from the board its player saw: "
        "the exact chance each move took, against the least on the board. Prints the "
        "summary and the guesses (and wrong flags).",
    )
    parser.add_argument("file", type=Path, help="a saved game (JSON), e.g. from `mines stats`")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--all", action="store_true", help="list every move, not only guesses")
    shown.add_argument(
        "--json", action="store_true", help="print the whole review as JSON, for scripts"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mines.solver.game_review import review

    found = review(load_record(args.file))
    if args.json:
        print(found.to_json())
    else:
        print_review(found, sys.stdout, every_move=args.all)
    return 0


def print_review(found: Review, out: TextIO, *, every_move: bool = False) -> None:
    """The summary, then the guesses and wrong flags (or every move), one line each."""
    result = found.status.value.lower()
    print(
        _(
            "Review of a {rows}x{cols} game with {mine} (first click: {rule}), {result} after "
            "{move}."
        ).format(
            rows=found.rows,
            cols=found.cols,
            mine=plural(found.mines, "{n} mine", "{n} mines"),
            rule=found.rule,
            result=result,
            move=plural(found.clicks, "{n} move", "{n} moves"),
        ),
        file=out,
    )
    print(found.summary(), file=out)
    listed = [m for m in found.moves if every_move or _notable(m)]
    if not every_move:
        if not listed:
            print(_("No guesses and no wrong flags."), file=out)
            return
        print(_("Guesses and wrong flags:"), file=out)
    for move in listed:
        print(f"  {line(move)}", file=out)


def _notable(move: MoveReview) -> bool:
    if move.move.kind is MoveKind.FLAG:
        return move.verdict.value == "wrong-flag"
    return move.risk > 0


def line(move: MoveReview) -> str:
    """`move 12 at 3.21s, open (4, 7): A guess at 17% where a 9% cell existed.` (the solver's
    sentence says the verdict; `--json` gives its name)."""
    return _("move {index} at {time:.2f}s, {move}: {comment}").format(
        index=move.index + 1, time=move.time, move=describe(move.move), comment=move.comment
    )
