"""Undo and redo in practice games, and hints that keep their word after any undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mines.game import Game
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui import stats
from mines.tui.app import MinesApp
from mines.tui.clock import PausableClock
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker
from tests.tui.test_app_features import hint_given, message


def practice_app(game: Game, clock: PausableClock, tmp_path: Path) -> MinesApp:
    """An app as `mines play --practice` makes it: the cursor in the middle of the board."""
    return MinesApp(
        game,
        make_game=lambda r, c, m: Game(r, c, m, clock=clock),
        clock=clock,
        theme=THEMES["classic"],
        store=RecordStore(tmp_path / "records"),
        practice=True,
    )


async def test_after_undoing_to_the_start_the_hint_keeps_its_word(
    fake_time: FakeTime, tmp_path: Path
) -> None:
    """The issue's game: undone back to Ready, the hint promised an opening and the cell was a
    mine, for the old layout stayed. Undone to before the first reveal, the board is dealt
    again at the next first click, so the rule's promise holds again."""
    clock = PausableClock(fake_time)
    app = practice_app(Game.from_id("16x30n99#5", clock=clock), clock, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "k", "k", "h", "f", "u", "u")
        assert not app.game.started, "back to Ready"
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        assert "opens an area" in message(app)
        await pilot.press("space")
        row, col = app.board.cursor
        assert app.game.status is not GameStatus.LOST
        assert app.game.view(row, col, 1, 1)[row, col] is Cell.ZERO


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_safe_hint_after_any_undo_is_never_a_mine(
    fake_time: FakeTime, tmp_path: Path, seed: int
) -> None:
    clock = PausableClock(fake_time)
    app = practice_app(Game.from_id(f"9x9n10#{seed}", clock=clock), clock, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        for _ in range(4):  # some hinted moves, then undo one or all of them
            await pilot.press("question_mark")
            await hint_given(app, pilot)
            await pilot.press("space")
            if app.game.status.is_over:
                break
        for undo in range(len(app.autosave.journal.moves)):
            await pilot.press("u")
            await pilot.press("question_mark")
            await hint_given(app, pilot)
            await pilot.press("space")
            assert app.game.status is not GameStatus.LOST, f"seed {seed}, undo {undo}"
            await pilot.press("u")


async def test_redo_makes_the_undone_moves_again_until_a_new_move(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)], practice=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l", "space", "j", "f", "l", "space")
        played = app.game.view().to_strings()
        moves = [str(m.move) for m in app.autosave.journal.moves]
        await pilot.press("u", "u", "u")
        assert not app.game.started
        assert "Undone: open (0, 1)" in message(app)
        await pilot.press("U", "ctrl+r", "U")
        assert app.game.view().to_strings() == played
        assert [str(m.move) for m in app.autosave.journal.moves] == moves
        await pilot.press("U")
        assert "Nothing to redo" in message(app)
        await pilot.press("u", "h", "f")  # undo, then another move: the undone one is gone
        await pilot.press("U")
        assert "Nothing to redo" in message(app)


async def test_undo_after_a_loss_takes_the_time_from_the_loss(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)], practice=True)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 4
        await pilot.press("h", "space")
        assert app.game.status is GameStatus.LOST
        fake_time.now += 30  # looking at the loss
        await pilot.press("u")
        assert app.game.elapsed == 4.0, "the time on the loss screen is not the game's"
        await pilot.press("U")
        assert app.game.status is GameStatus.LOST
        assert app.game.elapsed == 4.0, "the loss made again, at once"


async def test_undo_and_redo_are_kept_on_disk(make_app: AppMaker, tmp_path: Path) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)], practice=True)
    async with app.run_test() as pilot:
        await pilot.press("l", "space", "j", "f", "u")
        (path,) = (tmp_path / "records" / "unfinished").glob("*.json")
        assert '"F1,1"' not in path.read_text()
        await pilot.press("U")
        assert '"F1,1"' in path.read_text()


async def test_redo_is_for_practice_games(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space", "u", "U")
        assert app.game.started
        assert "practice" in message(app)


async def test_a_resumed_game_with_its_layout_is_dealt_again_when_undone_to_the_start(
    fake_time: FakeTime, tmp_path: Path
) -> None:
    """A kept file that lists its layout (as the one slot of earlier versions did) replays
    on that layout; undone to before the first reveal, it is dealt again all the same."""
    game = Game.from_id("16x30n99#5")
    game.reveal(8, 15)
    layout = game.record().layout
    assert layout is not None
    folder = tmp_path / "records" / "unfinished"
    folder.mkdir(parents=True)
    notes = {"at": "2026-01-02T03:04:05+00:00", "practice": True, "hints": 0}
    (folder / "game.json").write_text(json.dumps({**game.record().to_dict(), "saved": notes}))
    clock = PausableClock(fake_time)
    app = practice_app(Game(16, 30, 99, clock=clock), clock, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        assert app.game.started, "resumed"
        await pilot.press("u")
        app.board.move_cursor(*layout[0])  # a mine of the layout the game was dealt first
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        assert "opens an area" in message(app)
        await pilot.press("space")
        assert app.game.status is not GameStatus.LOST


async def test_a_practice_game_leaves_one_record_its_last_outcome(
    make_app: AppMaker, tmp_path: Path
) -> None:
    """Lost, undone, won, undone, lost again: one game, one record (the loss it ended on);
    the outcomes undone are not kept, and `mines stats` counts one game."""
    app = make_app(4, 4, [(0, 0), (3, 3)], practice=True)
    store = RecordStore(tmp_path / "records")
    async with app.run_test() as pilot:
        await pilot.press("l", "space", "h", "space")  # (0, 1), then the mine at (0, 0)
        assert app.game.status is GameStatus.LOST
        assert len(store.load()[0]) == 1
        await pilot.press("u")
        assert store.load()[0] == [], "the loss undone is not kept"
        assert app.saved == []
        for row, col in [(r, c) for r in range(4) for c in range(4)]:
            if (row, col) not in ((0, 0), (3, 3)) and not app.game.status.is_over:
                app.board.move_cursor(row, col)
                await pilot.press("space")
        assert app.game.status.value == "WON"  # (mypy narrowed the status to LOST above)
        await pilot.press("u", "U")  # the win undone and made again
        games = store.load()[0]
        assert [g.record.status for g in games] == [GameStatus.WON]
        assert len(app.saved) == 1
        await pilot.press("u")
        app.board.move_cursor(0, 0)
        await pilot.press("space")
        assert app.game.status is GameStatus.LOST
    games, problems = store.load()
    assert problems == []
    assert [g.record.status for g in games] == [GameStatus.LOST], "one game, its last outcome"
    (tally,) = stats.tally(games)[0]
    assert (tally.wins, tally.losses) == (0, 1)
    assert list((tmp_path / "records" / "unfinished").glob("*.json")) == []
