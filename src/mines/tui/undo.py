"""Undo for practice games: rebuild the game from its record minus the last move."""

from __future__ import annotations

from mines.errors import IllegalMoveError
from mines.game import Game
from mines.placement import MinePlacer
from mines.replay import RecordedPlacer
from mines.tui.clock import Clock, HeldClock


def without_last_move(game: Game, clock: Clock) -> Game:
    """A new game that replays every move of `game` but the last, and keeps its timer running.

    The engine is never wound back: the new game is built from the record, with each
    move made at its recorded time, so its timer reads on from where `game`'s stands.
    """
    record = game.record()
    if not record.moves:
        raise IllegalMoveError("nothing to undo: no move has been made")
    kept = record.moves[:-1]
    placer: MinePlacer = game.placer
    if kept and record.layout is not None:
        # Replaying the layout avoids generating it again (a no-guess layout is costly).
        placer = RecordedPlacer(record.layout, record.rule, record.seed)
    held = HeldClock(clock)
    start = clock() - game.elapsed
    rebuilt = Game(record.rows, record.cols, record.mines, placer=placer, clock=held)
    for timed in kept:
        held.held = start + timed.time
        rebuilt.play(timed.move)
    held.held = None
    return rebuilt
