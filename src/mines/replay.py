"""Rebuild a game from its `GameRecord`, move by move, each at its recorded time."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from mines.clock import Clock, PinnedClock
from mines.errors import InvalidBoardError
from mines.game import Game
from mines.placement import CoordArray, MinePlacer, placer_for_rule
from mines.record import GameRecord, TimedMove


class RecordedPlacer:
    """A saved layout, reported under the rule and seed that first made it.

    Replays use it with a record's pairs; the server with the array it stores (no tuple per
    mine). It hands the layout over as it is: the game checks the count, bounds and repeats.
    """

    def __init__(self, layout: CoordArray | Sequence[tuple[int, int]], rule: str, seed: int | None):
        self._positions: CoordArray = np.asarray(layout, dtype=np.int64).reshape(-1, 2)
        self._rule = rule
        self._seed = seed

    @property
    def rule(self) -> str:
        return self._rule

    @property
    def seed(self) -> int | None:
        return self._seed

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        return self._positions


def _start(record: GameRecord, clock: Clock) -> Game:
    if record.revealed_at_start or record.flagged_at_start:
        return Game.from_position(
            record.rows,
            record.cols,
            record.layout or (),
            revealed=record.revealed_at_start,
            flagged=record.flagged_at_start,
            clock=clock,
        )
    placer: MinePlacer
    if record.layout is not None:
        placer = RecordedPlacer(record.layout, record.rule, record.seed)
    else:
        placer = placer_for_rule(record.rule, record.seed)
    return Game(record.rows, record.cols, record.mines, placer=placer, clock=clock)


def _stopped() -> float:
    return 0.0


def _rebuild(
    record: GameRecord, stop: int | None, clock: Clock | None, started_at: float
) -> tuple[Game, Iterator[TimedMove]]:
    """The game at the record's start, and an iterator that plays its moves on it, in turn."""
    pinned = PinnedClock(clock or _stopped, pinned=started_at)
    game = _start(record, pinned)

    def play() -> Iterator[TimedMove]:
        for timed in record.moves[:stop]:
            pinned.pinned = started_at + timed.time
            game.play(timed.move)
            yield timed
        if clock is not None:
            pinned.pinned = None  # from here on the game's timer runs on `clock`

    return game, play()


def replay_steps(record: GameRecord) -> Iterator[tuple[Game, TimedMove]]:
    """Yield the game after each recorded move, for playing a record back step by step."""
    game, moves = _rebuild(record, None, None, 0.0)
    for timed in moves:
        yield game, timed


def replay(
    record: GameRecord,
    *,
    stop: int | None = None,
    clock: Clock | None = None,
    started_at: float = 0.0,
) -> Game:
    """The game a record describes, rebuilt exactly; raises if the record contradicts itself.

    `stop` plays only `record.moves[:stop]` (the status is then not checked: undo uses it).
    With `clock`, the moves are made at `started_at` plus their recorded times on that
    clock, and the game's timer runs on it afterwards; without, the timer stays at the end.
    """
    game, moves = _rebuild(record, stop, clock, started_at)
    for _ in moves:
        pass
    if stop is None and game.status is not record.status:
        raise InvalidBoardError(
            f"the record says {record.status.value} but its moves end {game.status.value}"
        )
    return game
