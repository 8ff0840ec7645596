"""The words a game's state is told in, shared by the app, the replay and the line mode."""

from __future__ import annotations

from mines.moves import Move, MoveKind
from mines.status import GameStatus


def state_word(status: GameStatus, *, started: bool) -> str:
    """Ready, Playing, Won! or Lost: the state as the status line shows it."""
    if status is GameStatus.WON:
        return "Won!"
    if status is GameStatus.LOST:
        return "Lost"
    return "Playing" if started else "Ready"


def verdict(status: GameStatus) -> str:
    """The sentence that ends a game."""
    return "You won!" if status is GameStatus.WON else "Boom! You hit a mine."


def plural(count: int, noun: str, many: str | None = None) -> str:
    """ "1 game", "2 games", "15,895,859 cells": a count with its noun in the right number,
    its thousands marked (a screen reader reads it as a number, not a string of digits)."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def mines_left_shown(status: GameStatus, mines_left: int) -> int:
    """The mines-left counter: 0 after a win, when every mine is known (and drawn flagged)."""
    return 0 if status is GameStatus.WON else mines_left


_VERBS = {MoveKind.OPEN: "open", MoveKind.FLAG: "flag", MoveKind.CHORD: "chord"}


def describe(move: Move) -> str:
    """A move in words: "open (3, 15)" rather than its notation O3,15."""
    return f"{_VERBS[move.kind]} ({move.row}, {move.col})"
