"""Saved games for tests of replays and records."""

from __future__ import annotations

from mines.game import Game
from mines.placement import FixedPlacer
from mines.record import GameRecord
from mines.status import GameStatus
from tests.fake_time import FakeTime


def won_record() -> GameRecord:
    time = FakeTime(0.0)
    game = Game(4, 4, 2, placer=FixedPlacer([(0, 0), (3, 3)]), clock=time)
    game.reveal(0, 1)
    time.now = 1.5
    game.toggle_flag(0, 0)
    time.now = 3.0
    game.chord(0, 1)
    assert game.status is GameStatus.WON
    return game.record()
