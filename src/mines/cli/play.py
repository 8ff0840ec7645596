"""`mines play`: the terminal app on a terminal, else line mode for pipes and screen readers."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from mines.cli.options import add_game_options, game_from_options
from mines.errors import IllegalMoveError, InvalidMoveError
from mines.extras import missing_extra
from mines.game import Game
from mines.moves import Move
from mines.placement import PlacementRule, placer_for_rule
from mines.tui import THEME_NAMES

HELP = """Moves: O row,col opens a cell, F row,col flags or unflags it, C row,col chords a number.
Also written as 'o 3 4'. Rows and columns count from 0. q quits, ? shows this help.
Symbols: H hidden, F flag, 0-8 revealed count; after a loss M mine, X the mine you hit,
W a flag that was wrong."""


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
        help="allow undo (u); practice games are saved but not counted in the stats",
    )
    parser.set_defaults(handler=run)


def add_app_options(parser: argparse.ArgumentParser) -> None:
    """Options of the terminal app, shared with `mines replay`."""
    parser.add_argument(
        "--theme", choices=THEME_NAMES, default=THEME_NAMES[0], help="board colours and glyphs"
    )


def run(args: argparse.Namespace) -> int:
    if args.no_guess:
        args.first_click = PlacementRule.NOGUESS
    if args.plain or not sys.stdout.isatty():
        return play_lines(game_from_options(args), sys.stdin, sys.stdout)
    if problem := missing_extra("tui", "the terminal app"):
        print(f"mines: {problem}; playing in line mode instead", file=sys.stderr)
        return play_lines(game_from_options(args), sys.stdin, sys.stdout)
    return play_app(args)


def play_app(args: argparse.Namespace) -> int:
    """Run the Textual game; finished games are saved to the data folder."""
    from mines.datadir import data_dir
    from mines.tui.app import MinesApp
    from mines.tui.clock import PausableClock
    from mines.tui.store import RecordStore
    from mines.tui.themes import THEMES

    clock = PausableClock()
    chosen = game_from_options(args)
    # The same board the options chose, on a clock that `p` can stop.
    game = Game(chosen.rows, chosen.cols, chosen.mines, placer=chosen.placer, clock=clock)
    rule = chosen.placer.rule

    def make_game(rows: int, cols: int, mines: int) -> Game:
        return Game(rows, cols, mines, placer=placer_for_rule(rule, None), clock=clock)

    app = MinesApp(
        game,
        make_game=make_game,
        clock=clock,
        theme=THEMES[args.theme],
        store=RecordStore(data_dir()),
        practice=args.practice,
    )
    app.run()
    if app.saved:
        print(f"Finished games saved: {len(app.saved)}, in {data_dir()} (see mines stats).")
    return 0


def render(game: Game) -> str:
    """The board with column and row numbers, then a status line."""
    view = game.view()
    width = len(str(game.rows - 1))
    header = " " * (width + 1) + "".join(str(c % 10) for c in range(game.cols))
    lines = [header]
    lines += [f"{r:>{width}} {line}" for r, line in enumerate(view.to_strings())]
    lines.append(f"{game.status.value}  mines left: {game.mines_left}  time: {game.elapsed:.1f}s")
    return "\n".join(lines)


def play_lines(game: Game, lines_in: TextIO, out: TextIO) -> int:
    """Read moves line by line until the game ends, the input ends or the player quits."""
    game_id = game.game_id
    print(f"New game {game_id or ''} — type ? for help.", file=out)
    print(render(game), file=out)
    for line in lines_in:
        text = line.strip()
        if not text:
            continue
        if text.lower() in {"q", "quit", "exit"}:
            break
        if text in {"?", "h", "help"}:
            print(HELP, file=out)
            continue
        try:
            game.play(Move.parse(text))
        except (IllegalMoveError, InvalidMoveError) as error:
            print(f"error: {error}", file=out)
            continue
        print(render(game), file=out)
        if game.status.is_over:
            verdict = "You won!" if game.status.value == "WON" else "Boom. You lost."
            print(f"{verdict} Time {game.elapsed:.1f}s.", file=out)
            return 0
    print("Bye.", file=out)
    return 0
