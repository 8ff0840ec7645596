"""`mines play` in line mode: a plain text game for pipes, scripts and screen readers."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from mines.cli.options import add_game_options, game_from_options
from mines.errors import IllegalMoveError
from mines.game import Game
from mines.moves import Move

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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return play_lines(game_from_options(args), sys.stdin, sys.stdout)


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
        except IllegalMoveError as error:
            print(f"error: {error}", file=out)
            continue
        print(render(game), file=out)
        if game.status.is_over:
            verdict = "You won!" if game.status.value == "WON" else "Boom. You lost."
            print(f"{verdict} Time {game.elapsed:.1f}s.", file=out)
            return 0
    print("Bye.", file=out)
    return 0
