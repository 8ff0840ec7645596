"""Undo for practice games: rebuild the game from its record minus the last move."""

from __future__ import annotations

from mines.clock import Clock
from mines.errors import IllegalMoveError
from mines.game import Game
from mines.replay import replay


def without_last_move(game: Game, clock: Clock) -> Game:
    """A new game that replays every move of `game` but the last, and keeps its timer running.

    The engine is never wound back: the new game is built from the record, with each
    move made at its recorded time, so its timer reads on from where `game`'s stands.
    """
    record = game.record()
    if not record.moves:
        raise IllegalMoveError("nothing to undo: no move has been made")
    kept = len(record.moves) - 1
    if not kept:
        # Before the first click nothing is placed: the next click places the mines afresh,
        # as the placer's rule promises for wherever it lands.
        return Game(record.rows, record.cols, record.mines, placer=game.placer, clock=clock)
    # The record's layout is replayed rather than generated again (a no-guess one is costly).
    return replay(record, stop=kept, clock=clock, started_at=clock() - game.elapsed)
