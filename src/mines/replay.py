"""Rebuild a game from its `GameRecord`, move by move, with the recorded clock."""

from __future__ import annotations

from collections.abc import Iterator

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.placement import FixedPlacer, MinePlacer, Positions, placer_for_rule
from mines.record import GameRecord, TimedMove


class RecordedPlacer:
    """The layout a record saved, reported under the rule and seed that first made it."""

    def __init__(self, layout: tuple[tuple[int, int], ...], rule: str, seed: int | None):
        self._fixed = FixedPlacer(list(layout))
        self._rule = rule
        self._seed = seed

    @property
    def rule(self) -> str:
        return self._rule

    @property
    def seed(self) -> int | None:
        return self._seed

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> Positions:
        return self._fixed.place(rows, cols, mines, first_click)


class RecordedClock:
    """A clock that reads the time of the move being replayed."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _start(record: GameRecord, clock: RecordedClock) -> Game:
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


def replay_steps(record: GameRecord) -> Iterator[tuple[Game, TimedMove]]:
    """Yield the game after each recorded move, for playing a record back step by step."""
    clock = RecordedClock()
    game = _start(record, clock)
    for timed in record.moves:
        clock.now = timed.time
        game.play(timed.move)
        yield game, timed


def replay(record: GameRecord) -> Game:
    """The game a record describes, rebuilt exactly; raises if the record contradicts itself."""
    clock = RecordedClock()
    game = _start(record, clock)
    for timed in record.moves:
        clock.now = timed.time
        game.play(timed.move)
    if game.status is not record.status:
        raise InvalidBoardError(
            f"the record says {record.status.value} but its moves end {game.status.value}"
        )
    return game
