"""Undo for practice games: the game rebuilt from its record with fewer moves."""

from __future__ import annotations

from mines.clock import Clock
from mines.game import Game
from mines.moves import MoveKind
from mines.placement import FixedPlacer, MinePlacer, placer_for_rule
from mines.record import GameRecord
from mines.replay import replay
from mines.tui.autosave import deals_again


def rebuilt(
    record: GameRecord, keep: int, clock: Clock, elapsed: float, placer: MinePlacer
) -> Game:
    """The game of `record` after its first `keep` moves, its timer reading `elapsed` and
    running on `clock`; `placer` is the game's now. The engine is never wound back: each
    move is replayed at its recorded time.

    Taken back to before its first reveal, the board is dealt again (`dealer`), so that the
    game's rules are true again, the first-click promise included: what the hint assumes.
    """
    moves = record.moves[:keep]
    if all(timed.move.kind is MoveKind.FLAG for timed in moves):
        # Flags alone place no mine: the game is not started, and its timer reads 0.
        game = Game(
            record.rows, record.cols, record.mines, placer=dealer(record, placer), clock=clock
        )
        for timed in moves:
            game.play(timed.move)
        return game
    return replay(record, stop=keep, clock=clock, started_at=clock() - elapsed)


def dealer(record: GameRecord, placer: MinePlacer) -> MinePlacer:
    """The placer of a board taken back to before its first reveal, from the game's now.

    The rule's own placer from the game's seed: the next first click has the rule's
    promise, wherever it lands, and on the same cell it deals the same board. A layout that
    no seed deals again stays as it is, under the rule `fixed`, which promises nothing for
    the first click (the player may have seen where its mines are).
    """
    if deals_again(placer):
        return placer_for_rule(placer.rule, placer.seed)
    if record.layout is not None:
        return FixedPlacer(record.layout)
    return placer  # nothing placed yet: it deals as it would have
