"""`mines replay FILE`: play a saved game back, in the app on a terminal, else as text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from mines.cli.lines import WINDOW, render, window_around
from mines.cli.options import add_app_options
from mines.errors import InvalidBoardError
from mines.extras import missing_extra
from mines.record import GameRecord
from mines.replay import replay_steps
from mines.tui.language import _
from mines.tui.words import describe, plural, verdict


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("replay", help="play a saved game back move by move")
    parser.add_argument("file", type=Path, help="a saved game (JSON), e.g. from `mines stats`")
    parser.add_argument("--plain", action="store_true", help="print the moves as text")
    parser.add_argument(
        "--delay", type=float, default=0.5, help="seconds between moves in the app (default 0.5)"
    )
    add_app_options(parser)
    parser.set_defaults(handler=run)


def load_record(path: Path) -> GameRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidBoardError(
            _("cannot read {path}: {error}").format(path=path, error=error.strerror or error)
        ) from None
    return GameRecord.from_json(text)


def run(args: argparse.Namespace) -> int:
    if args.delay <= 0:
        raise InvalidBoardError(
            _("--delay must be a positive number of seconds, got {delay}").format(delay=args.delay)
        )
    record = load_record(args.file)
    if args.plain or not sys.stdout.isatty():
        return replay_lines(record, sys.stdout)
    if problem := missing_extra("tui", _("the replay app")):
        print(
            _("mines: {problem}; printing the moves instead").format(problem=problem),
            file=sys.stderr,
        )
        return replay_lines(record, sys.stdout)
    from mines.tui.replay_app import ReplayApp
    from mines.tui.themes import THEMES

    ReplayApp(record, THEMES[args.theme], delay=args.delay).run()
    return 0


def replay_lines(record: GameRecord, out: TextIO) -> int:
    """Print the board after each move (near the move on a big board), then how it ended."""
    total = len(record.moves)
    print(
        _("Replay of a {rows}x{cols} game with {mine}, {move}.").format(
            rows=record.rows,
            cols=record.cols,
            mine=plural(record.mines, "{n} mine", "{n} mines"),
            move=plural(total, "{n} move", "{n} moves"),
        ),
        file=out,
    )
    for step, (game, timed) in enumerate(replay_steps(record), start=1):
        print(
            _("Move {step} of {total}, at {time:.2f}s: {move}.").format(
                step=step, total=total, time=timed.time, move=describe(timed.move)
            ),
            file=out,
        )
        print(render(game, window_around(game, (timed.move.row, timed.move.col), WINDOW)), file=out)
    if record.status.is_over:
        print(
            _("End: {status} Time {elapsed:.2f}s.").format(
                status=verdict(record.status), elapsed=record.elapsed
            ),
            file=out,
        )
    else:
        print(
            _("End of the record: the game was left unfinished at {elapsed:.2f}s.").format(
                elapsed=record.elapsed
            ),
            file=out,
        )
    return 0
