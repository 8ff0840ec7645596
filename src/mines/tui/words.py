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
    """ "1 game", "2 games": a count with its noun in the right number."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


_VERBS = {MoveKind.OPEN: "open", MoveKind.FLAG: "flag", MoveKind.CHORD: "chord"}


def describe(move: Move) -> str:
    """A move in words: "open (3, 15)" rather than its notation O3,15."""
    return f"{_VERBS[move.kind]} ({move.row}, {move.col})"
