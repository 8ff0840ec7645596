"""`mines play`: the terminal app on a terminal, else line mode for pipes and screen readers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mines.cli.lines import play_lines
from mines.cli.online import add_server_options, play_online
from mines.cli.options import add_app_options, add_game_options, game_from_options
from mines.datadir import data_dir
from mines.errors import InvalidBoardError
from mines.extras import missing_extra
from mines.game import Game
from mines.placement import PlacementRule, placer_for_rule
from mines.tui.language import _
from mines.tui.store import RecordStore


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a game in the terminal")
    add_game_options(parser)
    parser.add_argument(
        "--plain", action="store_true", help="line mode, for pipes and screen readers"
    )
    add_app_options(parser)
    parser.add_argument(
        "--no-guess",
        action="store_true",
        help="boards that logic alone can clear (placement rule noguess, from the solver)",
    )
    parser.add_argument(
        "--practice",
        action="store_true",
        help="allow undo (u); practice games count as assisted in the stats",
    )
    parser.add_argument(
        "--marks",
        action="store_true",
        help="f goes on from a flag to a question mark, a note for yourself (not saved)",
    )
    add_server_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.no_guess:
        args.first_click = PlacementRule.NOGUESS
    if args.server:
        return play_online(args, lines=wants_lines(args))
    if args.sign_up or args.sign_out or args.anonymous or args.daily:
        raise InvalidBoardError(_("--sign-up, --sign-out, --anonymous and --daily need --server"))
    if args.export or args.change_password or args.delete_account:
        raise InvalidBoardError(_("--export, --change-password and --delete-account need --server"))
    if wants_lines(args):
        return play_plain(args)
    return play_app(args)


def wants_lines(args: argparse.Namespace) -> bool:
    """Line mode: asked for, output that is not a terminal, or no Textual (said on stderr)."""
    if args.plain or not sys.stdout.isatty():
        return True
    if problem := missing_extra("tui", _("the terminal app")):
        print(
            _("mines: {problem}; playing in line mode instead").format(problem=problem),
            file=sys.stderr,
        )
        return True
    return False


def play_plain(args: argparse.Namespace) -> int:
    """Line mode, its games kept and saved in the data folder as the app's are."""
    return play_lines(game_from_options(args), sys.stdin, sys.stdout, RecordStore(data_dir()))


def play_app(args: argparse.Namespace) -> int:
    """Run the Textual game on a clock that `p` can stop; games are kept in the data folder."""
    from mines.tui.app import MinesApp
    from mines.tui.clock import PausableClock
    from mines.tui.themes import THEMES

    clock = PausableClock()
    game = game_from_options(args, clock)
    rule = game.placer.rule

    def make_game(rows: int, cols: int, mines: int) -> Game:
        return Game(rows, cols, mines, placer=placer_for_rule(rule, None), clock=clock)

    app = MinesApp(
        game,
        make_game=make_game,
        clock=clock,
        theme=THEMES[args.theme],
        store=RecordStore(data_dir()),
        practice=args.practice,
        marks=args.marks,
    )
    app.run()
    if app.saved:
        print(
            _("Finished games saved: {saved}, in {data_dir} (see mines stats).").format(
                saved=len(app.saved), data_dir=data_dir()
            )
        )
    if app.unfinished_saved:
        print(_("The unfinished game is kept: mines play offers to resume it."))
    return 0
