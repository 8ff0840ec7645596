"""Command-line options that choose a game, shared by every subcommand that starts one."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.gameid import GameId
from mines.placement import FirstClick, placer_for_rule
from mines.presets import PRESETS, board_size
from mines.tui import THEME_NAMES
from mines.tui.language import _


def add_game_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the game")
    group.add_argument("--preset", choices=sorted(PRESETS), help="beginner, intermediate or expert")
    group.add_argument("--rows", type=int, help="custom board height")
    group.add_argument("--cols", type=int, help="custom board width")
    group.add_argument("--mines", type=int, help="custom mine count")
    group.add_argument("--seed", type=int, help="seed for a board you can play again")
    group.add_argument("--game-id", help="a game ID such as 16x30n99#4242")
    group.add_argument(
        "--first-click",
        default=FirstClick.OPENING.value,
        help="opening (default), safe or any; also any registered rule such as noguess",
    )


def add_app_options(parser: argparse.ArgumentParser) -> None:
    """Options of the terminal app, shared by `mines play` and `mines replay`."""
    parser.add_argument(
        "--theme", choices=THEME_NAMES, default=THEME_NAMES[0], help="board colours and glyphs"
    )


def game_from_options(args: argparse.Namespace, clock: Callable[[], float] | None = None) -> Game:
    """The game the options describe; a preset, a custom size or a game ID (default beginner)."""
    board = (args.preset, args.rows, args.cols, args.mines)
    if args.game_id:
        if any(option is not None for option in board):
            raise InvalidBoardError(
                _("--game-id already fixes the board; drop --preset/--rows/...")
            )
        return Game.from_id(GameId.parse(args.game_id), clock=clock)
    rows, cols, mines = board_size(
        preset=args.preset, rows=args.rows, cols=args.cols, mines=args.mines, default="beginner"
    )
    return Game(rows, cols, mines, placer=placer_for_rule(args.first_click, args.seed), clock=clock)
