"""`mines stats`: wins, losses, best times and 3BV/s of the saved games."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mines.datadir import data_dir
from mines.tui.language import _
from mines.tui.stats import format_stats, tally
from mines.tui.store import RecordStore


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("stats", help="wins, losses and best times of saved games")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = RecordStore(data_dir())
    games, problems = store.load()
    print(format_stats(*tally(games)))
    print(_("Saved games are in {folder}").format(folder=store.folder))
    for problem in problems:
        print(_("mines: skipped {problem}").format(problem=problem), file=sys.stderr)
    return 0
