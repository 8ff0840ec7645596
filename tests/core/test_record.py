"""Records round-trip through JSON and replay exactly; game IDs parse and print the same."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mines import (
    FixedPlacer,
    Game,
    GameId,
    GameRecord,
    GameStatus,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    Move,
    MoveKind,
    TimedMove,
    replay,
    replay_steps,
)
from mines.replay import RecordedPlacer
from tests.core.test_game import FakeClock


def played_game(seed: int, moves: list[tuple[str, int, int]]) -> Game:
    clock = FakeClock()
    game = Game(8, 8, 10, seed=seed, clock=clock)
    for i, (kind, row, col) in enumerate(moves):
        clock.now += 0.25 * (i + 1)
        try:
            game.play(Move(MoveKind(kind), row, col))
        except IllegalMoveError:
            if game.status.is_over:
                break
    return game


move_lists = st.lists(
    st.tuples(st.sampled_from("OFC"), st.integers(0, 7), st.integers(0, 7)), max_size=30
)


@given(seed=st.integers(0, 2**32), moves=move_lists)
@settings(max_examples=100)
def test_replay_rebuilds_the_same_game(seed: int, moves: list[tuple[str, int, int]]) -> None:
    game = played_game(seed, moves)
    record = GameRecord.from_json(game.record().to_json())
    assert record == game.record()
    again = replay(record)
    assert again.view().to_strings() == game.view().to_strings()
    assert again.status is game.status
    assert again.mines_left == game.mines_left
    if game.status.is_over:
        assert again.elapsed == game.elapsed
        assert again.record() == game.record()


def test_moves_are_short_strings_with_times() -> None:
    clock = FakeClock()
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]), clock=clock)
    game.toggle_flag(0, 0)
    clock.now += 3
    game.reveal(0, 1)
    clock.now += 1.5
    game.reveal(2, 2)
    data = game.record().to_dict()
    assert data["moves"] == [["F0,0", 0.0], ["O0,1", 0.0], ["O2,2", 1.5]]
    assert data["status"] == "WON"
    assert data["elapsed"] == 1.5
    assert data["layout"][0] == [0, 0]
    assert data["rule"] == "fixed"
    assert data["seed"] is None


def test_replay_steps_yield_each_position() -> None:
    game = played_game(5, [("O", 4, 4), ("F", 0, 0), ("O", 7, 7)])
    steps = list(replay_steps(game.record()))
    assert [str(timed.move) for _, timed in steps] == [str(m.move) for m in game.record().moves]


def test_a_record_that_contradicts_itself_is_refused() -> None:
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]))
    game.reveal(2, 2)
    data = game.record().to_dict()
    data["status"] = "LOST"
    with pytest.raises(InvalidBoardError, match="record says LOST but its moves end WON"):
        replay(GameRecord.from_dict(data))


@pytest.mark.parametrize(
    "text",
    ["", "{}", "[1]", '{"version": 99}', '{"version": 1, "rows": 0, "cols": 1, "mines": 0}'],
)
def test_bad_records_get_clear_errors(text: str) -> None:
    with pytest.raises(InvalidBoardError):
        GameRecord.from_json(text)


@pytest.mark.parametrize("text", ["16x30n99#4242", "9x9n10:safe#7", "5x5n0:any#0"])
def test_game_ids_parse_then_print_the_same(text: str) -> None:
    assert str(GameId.parse(text)) == text


def test_a_game_id_starts_the_same_board_anywhere() -> None:
    game = Game.from_preset("expert", seed=4242)
    assert str(game.game_id) == "16x30n99#4242"
    again = Game.from_id("16x30n99#4242")
    game.reveal(5, 5)
    again.reveal(5, 5)
    assert game.record().layout == again.record().layout
    safe = Game.from_id("9x9n10:safe#7")
    assert safe.placer.rule == "safe"
    assert str(safe.game_id) == "9x9n10:safe#7"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("16x30#1", "expected ROWSxCOLSnMINES#SEED"),
        ("3x3n9#1", "mines must be from 0 to 8"),
        ("9x9n10:nope#1", "unknown placement rule 'nope'"),
    ],
)
def test_bad_game_ids(text: str, says: str) -> None:
    with pytest.raises(InvalidBoardError, match=says):
        GameId.parse(text)


def test_move_text() -> None:
    assert str(Move.parse("o 3 4")) == "O3,4"
    assert Move.parse("C10,2") == Move(MoveKind.CHORD, 10, 2)
    with pytest.raises(InvalidMoveError, match="for example O3,4"):
        Move.parse("Z1,1")


def test_game_status_values() -> None:
    assert GameStatus.WON == "WON"
    assert GameStatus.IN_PROGRESS.is_over is False


def test_move_repr_is_python_that_builds_the_same_move() -> None:
    for move in [Move.parse("O3,4"), Move(MoveKind.FLAG, 0, 12), Move(MoveKind.CHORD, -1, 2)]:
        assert repr(move).startswith("Move(MoveKind.")
        assert eval(repr(move), {"Move": Move, "MoveKind": MoveKind}) == move
    timed = TimedMove(Move.parse("C1,2"), 0.5)
    assert eval(repr(timed), {"Move": Move, "MoveKind": MoveKind, "TimedMove": TimedMove}) == timed


@pytest.mark.parametrize(
    ("revealed", "flagged"),
    [([(2, 2)], [(0, 0)]), ([(2, 2)], []), ([], [(0, 0)])],
)
def test_a_game_from_a_position_records_its_start_and_replays_exactly(
    revealed: list[tuple[int, int]], flagged: list[tuple[int, int]]
) -> None:
    clock = FakeClock()
    game = Game.from_position(3, 3, [(0, 0)], revealed=revealed, flagged=flagged, clock=clock)
    clock.now += 2.5
    game.reveal(2, 0)
    record = game.record()
    assert (list(record.revealed_at_start), list(record.flagged_at_start)) == (revealed, flagged)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    rebuilt = replay(again)
    assert rebuilt.view() == game.view()
    assert rebuilt.record() == record
    assert rebuilt.elapsed == game.elapsed
    later = FakeClock()
    later.now = 500.0
    resumed = replay(again, clock=later, started_at=400.0)
    assert resumed.record().moves == record.moves
    # Started by its revealed cells, its clock starts at started_at too; else at the reveal.
    assert resumed.elapsed == game.elapsed == (2.5 if revealed else 0.0)


def test_a_replay_on_a_clock_starts_at_started_at_and_then_runs_on_it() -> None:
    clock = FakeClock()
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]), clock=clock)
    game.reveal(1, 1)
    clock.now += 4.0
    game.toggle_flag(0, 0)
    later = FakeClock()
    later.now = 10.0
    assert replay(game.record(), clock=later).elapsed == 10.0  # from started_at = 0
    assert replay(game.record(), clock=later, started_at=3.0).elapsed == 7.0


def test_a_record_before_the_first_reveal_replays_to_the_same_board() -> None:
    game = Game(9, 9, 10, seed=77)
    game.toggle_flag(0, 0)
    record = game.record()
    assert record.layout is None
    rebuilt = replay(record)
    assert rebuilt.game_id == game.game_id
    rebuilt.reveal(4, 4)
    game.reveal(4, 4)
    assert rebuilt.view() == game.view()


def test_a_recorded_layout_is_handed_over_as_integer_pairs() -> None:
    placer = RecordedPlacer([(0, 1), (2, 2)], "opening", 5)
    placed = placer.place(3, 3, 2, (1, 1))
    assert (placed.dtype, placed.tolist()) == (np.dtype(np.int64), [[0, 1], [2, 2]])
    assert (placer.rule, placer.seed) == ("opening", 5)


def test_records_are_compact_json_and_bad_ones_say_what_is_wrong() -> None:
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]))
    text = game.record().to_json()
    assert " " not in text
    assert '"rows":3' in text
    with pytest.raises(InvalidBoardError, match=r"^a game record must be JSON: Expecting value"):
        GameRecord.from_json("nope")
    with pytest.raises(InvalidBoardError) as listed:
        GameRecord.from_json("[1]")
    assert str(listed.value) == "a game record must be a JSON object"
    with pytest.raises(InvalidBoardError) as version:
        GameRecord.from_json('{"version": 99}')
    assert str(version.value) == "unsupported record version 99; this version reads 1"
    with pytest.raises(InvalidBoardError) as missing:
        GameRecord.from_json('{"version": 1}')
    assert str(missing.value) == "not a valid game record: the field 'rows' is missing"
