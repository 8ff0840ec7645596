"""The Game API: validation, the first click, floods, flags, chords, the end, time and observers."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from mines import (
    Cell,
    CellChanges,
    EngineKind,
    EngineLimitError,
    FixedPlacer,
    Game,
    GameId,
    GameStatus,
    IllegalMoveError,
    InvalidBoardError,
    InvalidViewError,
    MinesError,
    MinesNotPlacedError,
    MoveKind,
    RandomPlacer,
    ViewTooLargeError,
)
from mines import game as game_module
from mines.dense import DenseEngine
from mines.sparse.engine import SparseEngine


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fixed(rows: int, cols: int, mines: list[tuple[int, int]], **kwargs: object) -> Game:
    return Game(rows, cols, len(mines), placer=FixedPlacer(mines), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "says"),
    [
        (0, 5, 1, "rows must be at least 1"),
        (5, 0, 1, "cols must be at least 1"),
        (3, 3, 9, "mines must be from 0 to 8"),
        (3, 3, -1, "mines must be from 0 to 8"),
        (3.0, 3, 1, "rows must be an integer"),
        (3, True, 1, "cols must be an integer"),
        (3, 3, "2", "mines must be an integer"),
    ],
)
def test_bad_boards_say_what_is_wrong(rows: object, cols: object, mines: object, says: str) -> None:
    with pytest.raises(InvalidBoardError, match=says) as error:
        Game(rows, cols, mines)  # type: ignore[arg-type]
    assert isinstance(error.value, ValueError)
    assert isinstance(error.value, MinesError)


def test_presets() -> None:
    assert (Game.from_preset("beginner").rows, Game.from_preset("beginner").mines) == (9, 10)
    expert = Game.from_preset("expert")
    assert (expert.rows, expert.cols, expert.mines) == (16, 30, 99)
    intermediate = Game.from_preset("intermediate")
    assert (intermediate.rows, intermediate.cols, intermediate.mines) == (16, 16, 40)
    with pytest.raises(InvalidBoardError, match="choose one of beginner, intermediate, expert"):
        Game.from_preset("insane")


@pytest.mark.parametrize("seed", range(30))
def test_first_click_opens_an_area(seed: int) -> None:
    game = Game.from_preset("expert", seed=seed)
    assert not game.started
    game.reveal(0, 0)
    assert game.started
    view = game.view()
    assert view[0, 0] is Cell.ZERO
    assert sum(line.count("H") for line in view.to_strings()) <= 16 * 30 - 4


def test_dense_board_first_click_only_safe_when_neighbours_cannot_fit() -> None:
    game = Game(3, 3, 8, seed=1)
    assert game.reveal(1, 1) is GameStatus.WON
    assert game.view()[1, 1] is Cell.EIGHT


def test_same_seed_same_board_and_mines_placed_lazily() -> None:
    one, two = Game(20, 20, 60, seed=7), Game(20, 20, 60, seed=7)
    assert one.view().to_strings() == ["H" * 20] * 20
    one.reveal(10, 10)
    two.reveal(10, 10)
    assert one.record().layout == two.record().layout
    other = Game(20, 20, 60, seed=8)
    other.reveal(10, 10)
    assert other.record().layout != one.record().layout


def test_numbered_cell_reveals_only_itself() -> None:
    game = fixed(3, 3, [(0, 0)])
    assert game.reveal(1, 1) is GameStatus.IN_PROGRESS
    assert game.view().to_strings() == ["HHH", "H1H", "HHH"]


def test_flood_stops_at_numbers_and_never_crosses_flags() -> None:
    game = fixed(5, 5, [(0, 4)])
    game.toggle_flag(2, 2)
    game.reveal(4, 0)
    assert game.view().to_strings() == ["0001H", "00011", "00F00", "00000", "00000"]
    assert game.status is GameStatus.IN_PROGRESS
    game.toggle_flag(2, 2)
    assert game.reveal(2, 2) is GameStatus.WON


def test_flags_wall_off_a_region() -> None:
    game = fixed(4, 6, [(3, 5)])
    for row in range(4):
        game.toggle_flag(row, 2)
    game.reveal(0, 0)
    assert game.view().to_strings() == ["00FHHH", "00FHHH", "00FHHH", "00FHHH"]


def test_loss_shows_every_mine_and_wrong_flags_and_is_sticky() -> None:
    game = fixed(3, 3, [(0, 0), (2, 2)])
    game.toggle_flag(0, 1)
    game.toggle_flag(2, 2)
    assert game.reveal(0, 0) is GameStatus.LOST
    assert game.view().to_strings() == ["XWH", "HHH", "HHF"]
    for move in (game.reveal, game.toggle_flag, game.chord):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            move(1, 1)
    assert game.status is GameStatus.LOST


def test_win_needs_every_safe_cell_not_flags() -> None:
    game = fixed(2, 2, [(0, 0)])
    game.toggle_flag(0, 0)
    assert game.status is GameStatus.IN_PROGRESS
    game.reveal(0, 1)
    game.reveal(1, 0)
    assert game.status is GameStatus.IN_PROGRESS
    assert game.reveal(1, 1) is GameStatus.WON
    with pytest.raises(IllegalMoveError, match=r"over \(WON\)"):
        game.reveal(0, 0)


@pytest.mark.parametrize("engine", list(EngineKind))
def test_a_win_shows_every_mine_flagged_and_tells_the_observers(engine: EngineKind) -> None:
    """After a win every mine shows a flag, as in the classic game: the core draws it so, for
    every front end, and a move's changed cells include them."""
    game = fixed(2, 3, [(0, 0), (0, 2)], engine=engine)
    game.toggle_flag(0, 2)
    changed: list[tuple[int, int]] = []
    game.on_cells(lambda changes: changed.extend(changes))
    for cell in ((0, 1), (1, 0), (1, 1)):
        game.reveal(*cell)
    assert game.view().to_strings() == ["H2F", "12H"]
    assert (0, 0) not in changed
    assert game.reveal(1, 2) is GameStatus.WON
    assert game.view().to_strings() == ["F2F", "121"]
    assert game.view(0, 0, 1, 1)[0, 0] is Cell.FLAG
    assert {(0, 0), (0, 2)} <= set(changed)
    assert game.mines_left == 0  # the counter agrees with the flags shown on every mine


def test_illegal_moves_say_why_and_change_nothing() -> None:
    game = fixed(3, 3, [(0, 0)])
    game.reveal(1, 1)
    before = game.view()
    with pytest.raises(IllegalMoveError, match=r"outside the board \(rows 0..2, cols 0..2\)"):
        game.reveal(3, 0)
    with pytest.raises(IllegalMoveError, match="already revealed"):
        game.toggle_flag(1, 1)
    game.toggle_flag(0, 0)
    with pytest.raises(IllegalMoveError, match="it is flagged"):
        game.reveal(0, 0)
    with pytest.raises(IllegalMoveError, match="must be an integer"):
        game.reveal(1.5, 0)  # type: ignore[arg-type]
    assert game.view().to_strings() == ["FHH", "H1H", "HHH"]
    assert before.to_strings() == ["HHH", "H1H", "HHH"]
    assert len(game.record().moves) == 2


def test_revealing_a_revealed_cell_changes_nothing() -> None:
    game = fixed(3, 3, [(0, 0)])
    game.reveal(1, 1)
    assert game.reveal(1, 1) is GameStatus.IN_PROGRESS
    assert len(game.record().moves) == 1


def test_chord_opens_neighbours_when_flags_match() -> None:
    game = fixed(3, 3, [(0, 0), (0, 2)])
    game.reveal(1, 1)
    assert game.chord(1, 1) is GameStatus.IN_PROGRESS  # no flags yet: nothing happens
    assert game.view().to_strings() == ["HHH", "H2H", "HHH"]
    game.toggle_flag(0, 0)
    game.toggle_flag(0, 2)
    assert game.chord(1, 1) is GameStatus.WON
    assert game.view().to_strings() == ["F2F", "121", "000"]


def test_a_chord_needs_exactly_as_many_flags_as_the_number() -> None:
    """More flags than the number is no chord (as in the classic game): nothing opens."""
    game = fixed(3, 3, [(0, 0)])
    game.reveal(1, 1)
    game.toggle_flag(0, 0)
    game.toggle_flag(0, 1)
    moves = len(game.record().moves)
    assert game.chord(1, 1) is GameStatus.IN_PROGRESS
    assert game.view().to_strings() == ["FFH", "H1H", "HHH"]
    assert len(game.record().moves) == moves  # a chord that does not apply is not logged


def test_chord_with_a_wrong_flag_loses() -> None:
    game = fixed(3, 3, [(0, 0)])
    game.reveal(1, 1)
    game.toggle_flag(0, 1)
    assert game.chord(1, 1) is GameStatus.LOST
    assert game.view().to_strings() == ["XW0", "110", "000"]


def test_chord_on_hidden_cell_or_before_start_does_nothing() -> None:
    game = fixed(3, 3, [(0, 0)])
    assert game.chord(2, 2) is GameStatus.IN_PROGRESS
    assert not game.started
    with pytest.raises(IllegalMoveError, match="outside the board"):
        game.chord(-1, 0)


def test_mines_left_may_go_negative() -> None:
    game = fixed(2, 2, [(0, 0)])
    assert game.toggle_flag(0, 0) is True
    assert game.toggle_flag(0, 1) is True
    assert game.mines_left == -1
    assert game.toggle_flag(0, 1) is False
    assert game.mines_left == 0


def test_view_never_carries_hidden_mines() -> None:
    game = Game(30, 30, 200, seed=3)
    game.reveal(15, 15)
    view = game.view()
    assert not {"M", "X", "W"} & set("".join(view.to_strings()))
    assert set(vars(type(view))).isdisjoint({"mines", "layout", "_engine"})
    assert not hasattr(view, "__dict__")  # slots only: no room for a private copy of the mines
    assert set(view.__slots__) == {
        "rows",
        "cols",
        "status",
        "mines_left",
        "top",
        "left",
        "height",
        "width",
        "_symbols",
    }


def test_view_is_immutable_and_windows_use_board_coordinates() -> None:
    game = fixed(4, 5, [(0, 0)])
    game.reveal(3, 4)
    window = game.view(1, 2, 2, 3)
    assert window.to_strings() == ["000", "000"]
    assert window[2, 4] is Cell.ZERO
    with pytest.raises(IndexError, match="outside this view"):
        window.symbol(0, 0)
    with pytest.raises(AttributeError):
        window.status = GameStatus.WON  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        window.array[0, 0] = 0
    with pytest.raises(InvalidViewError, match="does not fit"):
        game.view(3, 0, 2, 2)


def test_full_view_over_the_limit_asks_for_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mines.game.VIEW_CELL_LIMIT", 10)
    game = Game(4, 4, 1, seed=0)
    with pytest.raises(ViewTooLargeError, match=r"ask for a window: game.view\(top, left"):
        game.view()
    assert game.view(0, 0, 2, 5 - 1).height == 2


def test_elapsed_from_first_reveal_frozen_at_end() -> None:
    clock = FakeClock()
    game = fixed(2, 2, [(0, 0)], clock=clock)
    clock.now = 150.0
    game.toggle_flag(0, 0)
    assert game.elapsed == 0.0
    game.reveal(1, 1)
    clock.now = 152.5
    assert game.elapsed == 2.5
    game.reveal(0, 1)
    clock.now = 160.0
    game.reveal(1, 0)
    assert game.status is GameStatus.WON
    clock.now = 500.0
    assert game.elapsed == 10.0


def test_observers_get_changed_cells_and_the_end() -> None:
    game = fixed(3, 3, [(0, 0)])
    changes: list[list[tuple[int, int]]] = []
    statuses: list[GameStatus] = []

    def keep(change: CellChanges) -> None:
        changes.append(sorted(change))

    unsubscribe = game.on_cells(keep)
    game.on_status(statuses.append)
    game.toggle_flag(0, 0)
    game.reveal(2, 2)
    assert changes[0] == [(0, 0)]
    assert len(changes[1]) == 8
    assert (0, 0) not in changes[1]
    assert changes[2] == [(0, 0)]  # the win: the mines, shown as flags
    assert statuses == [GameStatus.WON]
    unsubscribe()
    assert len(changes) == 3


def test_changes_report_bounds_and_windows() -> None:
    game = fixed(6, 6, [(5, 5)])
    seen: list[CellChanges] = []
    game.on_cells(seen.append)
    game.reveal(0, 0)
    flood, mines = seen  # the flood, then the win's mines
    assert sorted(mines) == [(5, 5)]
    assert len(flood) == 35
    assert flood.bounds() == (0, 0, 6, 6)
    assert sorted(flood.within(4, 4, 2, 2)) == [(4, 4), (4, 5), (5, 4)]


def test_loss_notifies_the_cells_it_shows() -> None:
    game = fixed(3, 3, [(0, 0), (2, 2)])
    game.toggle_flag(1, 1)
    seen: list[set[tuple[int, int]]] = []
    game.on_cells(lambda change: seen.append(set(change)))
    game.reveal(0, 0)
    assert seen[-1] == {(0, 0), (2, 2), (1, 1)}


class ObserverError(Exception):
    pass


def boom(_: object) -> None:
    raise ObserverError("observer failed")


def test_an_observer_that_raises_on_a_loss_leaves_the_game_lost() -> None:
    game = fixed(3, 3, [(0, 0)])
    seen: list[object] = []
    game.on_cells(boom)
    game.on_cells(seen.append)  # a later observer still runs
    game.on_status(seen.append)
    with pytest.raises(ObserverError) as raised:
        game.reveal(0, 0)
    assert game.status is GameStatus.LOST
    assert "applied" in "".join(raised.value.__notes__)
    assert game.view().to_strings()[0][0] == "X"
    assert game.record().moves[-1].move.kind is MoveKind.OPEN
    assert seen[-1] is GameStatus.LOST
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.reveal(2, 2)


def test_an_observer_that_raises_mid_game_leaves_later_moves_working() -> None:
    game = fixed(3, 3, [(0, 0)])
    unsubscribe = game.on_cells(boom)
    with pytest.raises(ObserverError):
        game.reveal(0, 1)
    assert game.view().to_strings() == ["H1H", "HHH", "HHH"]
    assert len(game.record().moves) == 1
    with pytest.raises(ObserverError):
        game.toggle_flag(0, 0)
    assert game.mines_left == 0
    unsubscribe()
    assert game.reveal(2, 2) is GameStatus.WON


def test_status_observers_see_the_settled_game() -> None:
    game = fixed(2, 2, [(0, 0)])
    states: list[tuple[GameStatus, int]] = []
    game.on_status(lambda status: states.append((game.status, len(game.record().moves))))
    game.reveal(1, 1)
    game.reveal(0, 1)
    game.reveal(1, 0)
    assert states == [(GameStatus.WON, 3)]


def test_the_game_says_which_engine_it_runs_and_what_it_holds() -> None:
    small = Game(9, 9, 10, seed=1)
    assert small.engine_kind is EngineKind.DENSE
    assert small.footprint >= 11 * 11
    huge = Game(10_000, 10_000, 10, seed=1)
    assert huge.engine_kind is EngineKind.SPARSE
    before = huge.footprint
    assert before < 10_000
    huge.reveal(5000, 5000)
    assert before < huge.footprint < 1_000_000


def test_a_move_waits_for_the_move_under_way() -> None:
    """A flag sent while a reveal of the same cell is half done waits, then finds the cell open.

    The reveal's clock call is the middle of its move: the clock lets the flag run there, and
    waits until the flag is done or a bound has passed. Behind the game's lock the flag cannot
    run until the reveal is over, so the bound passes; without the lock the flag lands inside
    the reveal and the board ends with a revealed cell that is flagged as well.
    """
    flag_done = threading.Event()
    in_reveal = threading.Event()
    outcome: list[object] = []

    def clock() -> float:
        if threading.current_thread().name == "reveal" and not in_reveal.is_set():
            in_reveal.set()
            flag_done.wait(0.5)  # a bound, not an assertion: the lock keeps the flag out
        return 0.0

    game = fixed(3, 3, [(0, 0)], clock=clock)  # (1, 1) is a 1: the reveal opens it alone

    def flag() -> None:
        in_reveal.wait()
        try:
            outcome.append(game.toggle_flag(1, 1))
        except IllegalMoveError as error:
            outcome.append(error)
        flag_done.set()

    threads = [
        threading.Thread(target=game.reveal, args=(1, 1), name="reveal"),
        threading.Thread(target=flag, name="flag"),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcome) == 1
    assert isinstance(outcome[0], IllegalMoveError), outcome
    assert "already revealed" in str(outcome[0])
    assert game.view().to_strings() == ["HHH", "H1H", "HHH"]
    assert game.mines_left == 1
    assert [move.move.kind.name for move in game.record().moves] == ["OPEN"]


def test_concurrent_flags_all_count() -> None:
    """Four threads flagging many cells at once lose no flag and log every move."""
    game = Game(60, 60, 0, seed=0)
    flags = [(r, c) for r in range(60) for c in range(60) if (r + c) % 7 == 0]
    barrier = threading.Barrier(4)

    def worker(part: list[tuple[int, int]]) -> None:
        barrier.wait()
        for cell in part:
            game.toggle_flag(*cell)

    threads = [threading.Thread(target=worker, args=(flags[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert game.mines_left == -len(flags)
    assert len(game.record().moves) == len(flags)


def test_placer_and_seed_are_exclusive_and_placers_are_checked() -> None:
    with pytest.raises(InvalidBoardError, match="either a seed or a placer"):
        Game(3, 3, 1, seed=1, placer=RandomPlacer(1))

    class Bad:
        rule = "bad"
        seed = None

        def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> object:
            return np.array([[0, 0], [0, 0]])

    game = Game(3, 3, 2, placer=Bad())  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="same cell twice"):
        game.reveal(1, 1)
    assert not game.started


def test_three_bv() -> None:
    # One opening (with its border) plus the isolated 1s around the far mine.
    game = fixed(3, 5, [(0, 4)])
    with pytest.raises(MinesNotPlacedError, match="once the mines are placed"):
        _ = game.three_bv
    game.reveal(2, 0)
    assert game.three_bv == 1
    separate = fixed(1, 5, [(0, 2)])
    separate.reveal(0, 0)
    assert separate.three_bv == 2  # two numbers, no opening
    checkerboard = fixed(3, 3, [(0, 0), (0, 2), (2, 0), (2, 2)])
    checkerboard.reveal(1, 1)
    assert checkerboard.three_bv == 5


def test_from_position_restores_without_flooding() -> None:
    game = Game.from_position(3, 3, [(0, 0)], revealed=[(2, 2)], flagged=[(0, 0)])
    assert game.view().to_strings() == ["FHH", "HHH", "HH0"]
    assert game.started
    with pytest.raises(InvalidBoardError, match="hold mines"):
        Game.from_position(3, 3, [(0, 0)], revealed=[(0, 0)])
    with pytest.raises(InvalidBoardError, match="outside"):
        Game.from_position(3, 3, [(0, 0)], flagged=[(5, 5)])


def test_refusals_name_their_move() -> None:
    game = fixed(3, 3, [(0, 0)])
    for verb, move in (("reveal", game.reveal), ("flag", game.toggle_flag), ("chord", game.chord)):
        with pytest.raises(IllegalMoveError) as refused:
            move(3, 0)
        assert str(refused.value) == (
            f"cannot {verb} (3, 0): outside the board (rows 0..2, cols 0..2)"
        )


def test_every_way_to_make_a_game_passes_on_its_clock_placer_and_engine() -> None:
    clock = FakeClock()
    placer = FixedPlacer([(0, c) for c in range(9)] + [(1, 0)])
    preset = Game.from_preset("beginner", placer=placer, clock=clock)
    assert preset.placer is placer
    preset.reveal(1, 1)  # a 4: no flood
    by_id = Game.from_id(GameId(9, 9, 40, 4, "safe"), clock=clock)
    assert by_id.game_id == GameId.parse("9x9n40:safe#4")
    by_id.reveal(4, 4)
    position = Game.from_position(
        3, 3, [(0, 0)], revealed=[(2, 2)], clock=clock, engine=EngineKind.SPARSE
    )
    assert position.engine_kind is EngineKind.SPARSE
    assert position.record().layout == ((0, 0),)
    clock.now += 3.0
    for game in (preset, by_id, position):
        assert game.status is GameStatus.IN_PROGRESS
        assert game.elapsed == 3.0  # the game reads the clock it was given
    assert Game(9, 9, 10, seed=12).record().seed == 12


def test_a_position_refuses_what_cannot_be_and_knows_when_it_is_won() -> None:
    with pytest.raises(InvalidBoardError) as off:
        Game.from_position(3, 3, [(0, 0)], revealed=[(3, 3)])
    assert str(off.value).startswith("revealed cells: mine positions [(3, 3)] are outside")
    with pytest.raises(InvalidBoardError, match=r"^flagged cells: mine positions \[\(0, 5\)\]"):
        Game.from_position(3, 3, [(0, 0)], flagged=[(0, 5)])
    with pytest.raises(InvalidBoardError) as mined:
        Game.from_position(3, 3, [(0, 0), (2, 2)], revealed=[(0, 0), (1, 1)])
    assert str(mined.value) == "revealed cells hold mines: [(0, 0)]"
    with pytest.raises(InvalidBoardError) as both:
        Game.from_position(3, 3, [(0, 0)], revealed=[(1, 1)], flagged=[(1, 1), (2, 2)])
    assert str(both.value) == "cells cannot be both revealed and flagged: [(1, 1)]"
    clock = FakeClock()
    under_way = Game.from_position(3, 3, [(0, 0)], revealed=[(2, 2)], clock=clock)
    assert under_way.status is GameStatus.IN_PROGRESS
    safe = [(r, c) for r in range(3) for c in range(3) if (r, c) != (0, 0)]
    won = Game.from_position(3, 3, [(0, 0)], revealed=safe, clock=clock)
    clock.now += 5.0
    assert (won.status, won.elapsed) == (GameStatus.WON, 0.0)


def test_play_routes_each_kind_of_move_and_observers_can_leave() -> None:
    game = fixed(3, 3, [(0, 0)])
    game.play("O1,1")
    game.play("F0,0")
    assert game.play("C1,1") is GameStatus.WON  # the chord of the 1 at (1, 1)
    other = fixed(2, 2, [(0, 0)])
    seen: list[GameStatus] = []
    leave = other.on_status(seen.append)
    leave()
    other.reveal(0, 0)
    assert seen == []


def test_a_first_reveal_the_engine_refuses_leaves_the_game_unstarted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(self: DenseEngine, row: int, col: int) -> CellChanges:
        raise EngineLimitError("too big a flood here")

    game = Game(5, 5, 3, seed=2)
    with monkeypatch.context() as patched:
        patched.setattr(DenseEngine, "open", refuse)
        with pytest.raises(EngineLimitError) as refused:
            game.reveal(2, 2)
    assert str(refused.value) == "cannot reveal (2, 2): too big a flood here"
    assert (game.started, game.elapsed, game.engine_kind) == (False, 0.0, EngineKind.DENSE)
    assert game.record().moves == ()
    game.reveal(0, 0)  # a fresh engine: the mines placed for (2, 2) are gone
    layout = set(game.record().layout or ())
    assert len(layout) == 3
    for row in range(5):
        for col in range(5):
            if (row, col) not in layout and game.view(row, col, 1, 1)[row, col] is Cell.HIDDEN:
                game.reveal(row, col)
    assert game.status is GameStatus.WON


def test_a_chord_the_engine_refuses_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: DenseEngine, cells: list[tuple[int, int]]) -> list[CellChanges]:
        raise EngineLimitError("too big a flood here")

    game = fixed(3, 3, [(0, 0)])
    game.reveal(1, 1)
    game.toggle_flag(0, 0)
    monkeypatch.setattr(DenseEngine, "open_all", refuse)
    with pytest.raises(EngineLimitError) as refused:
        game.chord(1, 1)
    assert str(refused.value) == "cannot chord (1, 1): too big a flood here"


def test_view_windows_default_to_the_rest_of_the_board_and_refusals_say_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(4, 5, 0, seed=1)
    rest = game.view(1, 2)
    assert (rest.top, rest.left, rest.height, rest.width, rest.rows, rest.cols) == (
        1,
        2,
        3,
        3,
        4,
        5,
    )
    for name in ("top", "left", "height", "width"):
        with pytest.raises(InvalidViewError) as typed:
            game.view(**{name: 1.5})  # type: ignore[arg-type]
        assert str(typed.value) == f"view {name} must be an integer, got 1.5"
    with pytest.raises(InvalidViewError) as negative:
        game.view(-1, 0, 1, 1)
    assert str(negative.value) == (
        "a view window needs top, left >= 0 and height, width >= 1, got "
        "top=-1, left=0, height=1, width=1"
    )
    with pytest.raises(InvalidViewError) as wide:
        game.view(1, 1, 2, 5)
    assert str(wide.value) == "the window rows 1..2, cols 1..5 does not fit the 4x5 board"
    monkeypatch.setattr(game_module, "VIEW_CELL_LIMIT", 6)
    assert game.view(0, 0, 2, 3).height == 2  # at the limit
    with pytest.raises(ViewTooLargeError) as large:
        game.view(0, 0, 2, 4)
    assert str(large.value) == (
        "a view of 8 cells is over the limit of 6; ask for a window: "
        "game.view(top, left, height, width)"
    )


def test_a_game_keeps_its_engine_its_placer_checks_and_its_exact_refusals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(self: SparseEngine, row: int, col: int) -> CellChanges:
        raise EngineLimitError("no")

    forced = Game(5, 5, 3, seed=2, engine=EngineKind.SPARSE)
    with monkeypatch.context() as patched:
        patched.setattr(SparseEngine, "open", refuse)
        with pytest.raises(EngineLimitError):
            forced.reveal(2, 2)
    assert forced.engine_kind is EngineKind.SPARSE  # the kind it was asked for, kept

    asked: list[tuple[int, int, int]] = []

    class Checked(FixedPlacer):
        def validate(self, rows: int, cols: int, mines: int) -> None:
            asked.append((rows, cols, mines))

    Game(4, 5, 1, placer=Checked([(0, 0)]))
    assert asked == [(4, 5, 1)]
    with pytest.raises(InvalidBoardError) as both:
        Game(3, 3, 1, placer=FixedPlacer([(0, 0)]), seed=1)
    assert str(both.value) == "give either a seed or a placer (which carries its own seed)"
    game = fixed(3, 3, [(0, 0)])
    for args, name in (((1.5, 0), "row"), ((0, 1.5), "col")):
        with pytest.raises(IllegalMoveError) as typed:
            game.reveal(*args)
        assert str(typed.value) == f"{name} must be an integer, got 1.5"


class Careless:
    """A placer that breaks the protocol, as a plug-in could."""

    rule, seed = "careless", 1

    def __init__(self, cells: list[tuple[int, int]]) -> None:
        self.cells = cells

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> np.ndarray:
        return np.array(self.cells, dtype=np.int64)


def test_a_placer_that_breaks_the_protocol_is_refused_saying_how() -> None:
    short = Game(3, 3, 3, placer=Careless([(0, 0), (1, 1)]))
    with pytest.raises(InvalidBoardError) as counted:
        short.reveal(2, 2)
    assert str(counted.value) == "the placer returned 2 mines; the game has 3"
    twice = Game(3, 3, 3, placer=Careless([(0, 0), (1, 1), (1, 1)]))
    with pytest.raises(InvalidBoardError) as repeated:
        twice.reveal(2, 2)
    assert str(repeated.value) == "the placer returned the same cell twice"


def test_set_flag_sets_a_state_and_asking_twice_changes_nothing() -> None:
    game = Game(3, 3, 2, placer=FixedPlacer([(0, 0), (0, 2)]))
    changed: list[CellChanges] = []
    game.on_cells(changed.append)
    assert game.set_flag(1, 1, True) is True
    assert game.set_flag(1, 1, True) is False  # already flagged: no move, no notice
    assert game.view()[1, 1] is Cell.FLAG
    assert game.set_flag(1, 1, False) is True
    assert game.set_flag(1, 1, False) is False
    assert game.view()[1, 1] is Cell.HIDDEN
    assert len(changed) == 2
    assert [m.move.kind for m in game.record().moves] == [MoveKind.FLAG, MoveKind.FLAG]
    game.reveal(2, 2)
    with pytest.raises(IllegalMoveError, match="already revealed"):
        game.set_flag(2, 2, False)  # a revealed cell is refused, as a toggle is
