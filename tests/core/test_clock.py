"""The one clock module: `PinnedClock` reads a pinned time, and replays run on it."""

from __future__ import annotations

import pytest

from mines import FixedPlacer, Game, GameStatus, replay
from mines.clock import PinnedClock
from tests.core.test_game import FakeClock


def ticking(now: float) -> FakeClock:
    clock = FakeClock()
    clock.now = now
    return clock


def test_a_pinned_clock_reads_the_pinned_time_then_its_source_again() -> None:
    source = ticking(50.0)
    clock = PinnedClock(source)
    assert clock() == 50.0
    with clock.pinned_at(7.5):
        source.now = 60.0
        assert clock() == 7.5
    assert clock() == 60.0
    with pytest.raises(RuntimeError), clock.pinned_at(1.0):
        raise RuntimeError
    assert clock.pinned is None
    assert PinnedClock(source, pinned=3.0)() == 3.0


def test_a_replay_on_a_clock_keeps_time_and_runs_on_after_its_last_move() -> None:
    source = ticking(0.0)
    game = Game(4, 4, 2, placer=FixedPlacer([(0, 0), (3, 3)]), clock=source)
    game.reveal(0, 1)
    source.now = 4.0
    game.toggle_flag(0, 0)
    record = game.record()

    frozen = replay(record)
    assert frozen.elapsed == 4.0  # stopped at the last move's time, with no clock to run on

    later = ticking(100.0)
    rebuilt = replay(record, clock=later, started_at=90.0)
    assert [m.time for m in rebuilt.record().moves] == [0.0, 4.0]
    assert rebuilt.elapsed == 10.0
    later.now = 103.0
    assert rebuilt.elapsed == 13.0


def test_a_partial_replay_stops_early_and_skips_the_status_check() -> None:
    game = Game(4, 4, 2, placer=FixedPlacer([(0, 0), (3, 3)]))
    game.reveal(0, 1)
    game.reveal(0, 0)
    record = game.record()
    assert record.status is GameStatus.LOST
    before = replay(record, stop=1)
    assert before.status is GameStatus.IN_PROGRESS
    assert len(before.record().moves) == 1
