"""Games kept on disk after every move, quitting with q or Ctrl-C, and the offer of the games
left unfinished (newest first) when the app starts."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from mines.errors import IllegalMoveError
from mines.game import Game
from mines.moves import Move
from mines.placement import FixedPlacer
from mines.replay import replay
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.autosave import Autosave
from mines.tui.resume import ResumeScreen
from mines.tui.store import PART, RecordStore, read_saved
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker, settle

LAYOUT = [(0, 0), (3, 3)]


def kept(tmp_path: Path) -> list[list[str]]:
    """The moves of each game kept in progress, newest first, read from the files (the store
    does not offer those this process plays)."""
    files = (tmp_path / "records" / "unfinished").glob("*.json")
    games = sorted((read_saved(f.read_text()) for f in files), key=lambda g: g.saved_at)
    return [[str(m.move) for m in g.record.moves] for g in reversed(games)]


async def test_every_move_is_on_disk_as_soon_as_it_is_made(
    make_app: AppMaker, tmp_path: Path
) -> None:
    app = make_app(4, 4, LAYOUT)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        assert kept(tmp_path) == [["O0,1"]]
        await pilot.press("j", "f")
        assert kept(tmp_path) == [["O0,1", "F1,1"]]
        await pilot.press("f")
        assert kept(tmp_path) == [["O0,1", "F1,1", "F1,1"]]
        await pilot.press("l")  # not a move: nothing written
        assert kept(tmp_path) == [["O0,1", "F1,1", "F1,1"]]
        folder = tmp_path / "records" / "unfinished"
        assert not list(folder.glob(f"*{PART}")), "written whole, then renamed"


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
async def test_q_and_ctrl_c_quit_at_once_keeping_the_game(
    make_app: AppMaker, tmp_path: Path, key: str
) -> None:
    app = make_app(4, 4, LAYOUT)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        await pilot.press(key)
        await pilot.pause()
        assert not app.is_running
    assert app.unfinished_saved
    assert kept(tmp_path) == [["O0,1"]]


async def test_without_a_store_q_asks_before_leaving_a_game(make_app: AppMaker) -> None:
    app = make_app(4, 4, LAYOUT)
    app._store = None
    async with app.run_test() as pilot:
        await pilot.press("l", "space", "q")
        assert app.is_running
        assert "it is not kept" in " ".join(str(app.query_one("#message").render()).split())
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_a_game_not_started_is_not_kept(make_app: AppMaker, tmp_path: Path) -> None:
    app = make_app(4, 4, LAYOUT)
    async with app.run_test() as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert not app.unfinished_saved
    assert kept(tmp_path) == []


async def test_a_finished_game_is_saved_and_no_longer_kept(
    make_app: AppMaker, tmp_path: Path
) -> None:
    app = make_app(4, 4, LAYOUT)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        assert kept(tmp_path) == [["O0,1"]]
        await pilot.press("h", "space")
        assert app.game.status is GameStatus.LOST
    assert kept(tmp_path) == []
    games, _ = RecordStore(tmp_path / "records").load()
    assert [g.record.status for g in games] == [GameStatus.LOST]


async def test_several_games_are_kept_and_offered_newest_first(
    make_app: AppMaker, tmp_path: Path, fake_time: FakeTime
) -> None:
    first = make_app(4, 4, LAYOUT)
    async with first.run_test() as pilot:
        await pilot.press("l", "space")
        await pilot.press("n", "n")  # a new game (mines (0, 0) and (0, 1)): the first is kept
        await pilot.press("h", "k", "space")  # (1, 1), a 2
        fake_time.now += 5
        await pilot.press("q")
    assert sorted(kept(tmp_path)) == [["O0,1"], ["O1,1"]]
    newest = kept(tmp_path)[0]
    assert newest == ["O1,1"]

    again = make_app(4, 4, LAYOUT)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeScreen)
        await pilot.press("enter")  # the newest is highlighted
        assert not isinstance(again.screen, ResumeScreen)
        assert [str(m.move) for m in again.autosave.journal.moves] == newest
        assert again.game.view(1, 1, 1, 1)[1, 1] is Cell.TWO
        assert again.game.elapsed == 5.0, "the timer goes on from where it stood"
        await pilot.press("k", "f")
        assert sorted(kept(tmp_path)) == [["O0,1"], ["O1,1", "F0,1"]], "in the same file"


async def test_starting_fresh_leaves_the_kept_games_kept(
    make_app: AppMaker, tmp_path: Path
) -> None:
    first = make_app(4, 4, LAYOUT)
    async with first.run_test() as pilot:
        await pilot.press("l", "space", "q")
    again = make_app(4, 4, LAYOUT)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        assert not again.game.started
        await pilot.press("j", "space")
        assert sorted(kept(tmp_path)) == [["O0,1"], ["O1,0"]]


async def test_a_kept_game_can_be_forgotten_at_the_second_x(
    make_app: AppMaker, tmp_path: Path
) -> None:
    first = make_app(4, 4, LAYOUT)
    async with first.run_test() as pilot:
        await pilot.press("l", "space", "q")
    again = make_app(4, 4, LAYOUT)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        assert kept(tmp_path) == [["O0,1"]], "the first x only asks"
        await pilot.press("x")
        await pilot.pause()
        assert kept(tmp_path) == []
        assert not isinstance(again.screen, ResumeScreen), "nothing left to offer"


async def test_a_game_played_in_another_terminal_is_not_offered(
    make_app: AppMaker, tmp_path: Path
) -> None:
    first = make_app(4, 4, LAYOUT)
    async with first.run_test() as pilot:
        await pilot.press("l", "space", "q")
    store = RecordStore(tmp_path / "records")
    (game,) = store.unfinished()
    claim = store.claim(game.path)  # as the process playing it holds it
    assert claim is not None
    assert store.unfinished() == []
    again = make_app(4, 4, LAYOUT)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert not isinstance(again.screen, ResumeScreen)
    claim.release()
    assert len(store.unfinished()) == 1, "offered again once that process is gone"


def test_the_journal_keeps_the_record_the_game_keeps(tmp_path: Path) -> None:
    """The moves kept after every move are the game's own record, whatever was tried."""
    rng = random.Random(4)
    for trial in range(30):
        time = FakeTime(0.0)
        layout = rng.sample([(r, c) for r in range(6) for c in range(7)], 8)
        game = Game(6, 7, 8, placer=FixedPlacer(layout), clock=time)
        autosave = Autosave(RecordStore(tmp_path / str(trial)), game)
        while not game.status.is_over and len(autosave.journal.moves) < 40:
            move = Move.parse(f"{rng.choice('OOFC')}{rng.randrange(6)},{rng.randrange(7)}")
            at = game.elapsed
            with contextlib.suppress(IllegalMoveError):  # a flagged cell, say: tried, refused
                game.play(move)
            if autosave.note(move, at):
                autosave.keep()
            time.now += 1
        record, journal = game.record(), autosave.journal.record()
        assert [m.move for m in journal.moves] == [m.move for m in record.moves]
        assert [m.time for m in journal.moves] == [m.time for m in record.moves]
        if not game.status.is_over:
            assert replay(journal).view().to_strings() == game.view().to_strings()


async def test_a_resumed_game_puts_the_cursor_where_it_was(make_app: AppMaker) -> None:
    first = make_app(4, 4, LAYOUT)
    async with first.run_test() as pilot:
        await pilot.press("l", "space")  # (0, 1)
        await pilot.press("j", "j", "l")  # looking at (2, 2), no move since
        await pilot.press("q")
    again = make_app(4, 4, LAYOUT)
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: isinstance(again.screen, ResumeScreen), "the offer")
        await pilot.press("enter")
        assert again.board.cursor == (2, 2), "where it was, not on the last move"
