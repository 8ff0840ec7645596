"""Pause, undo, hints, new games, help and saved records in the running app."""

from __future__ import annotations

import asyncio
import threading
from fractions import Fraction
from pathlib import Path

from textual.pilot import Pilot

from mines.game import Game
from mines.solver import Hint
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.help import HelpScreen
from mines.tui.played import local
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime
from tests.patience import PATIENCE
from tests.tui.conftest import AppMaker, footer_drawn, footer_keys, settle


async def hint_given(app: MinesApp, pilot: Pilot[None]) -> None:
    """Wait for the hint thread to answer (it calls back into the app's loop, so no block)."""
    assert app.hint_thread is not None
    await asyncio.to_thread(app.hint_thread.join, 10)
    await pilot.pause()


def message(app: MinesApp) -> str:
    """The message line's text, its two lines read as one."""
    return " ".join(str(app.query_one("#message").render()).split())


async def test_pause_stops_the_timer_hides_the_board_and_blocks_moves(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 2
        await pilot.press("p")
        assert not app.board.display
        fake_time.now += 100
        await pilot.press("j", "space", "n")
        assert app.game.elapsed == 2.0
        assert app.board.cursor == (0, 1), "keys do nothing while paused"
        assert app.game.view(1, 1, 1, 1)[1, 1] is Cell.HIDDEN
        await pilot.press("p")
        assert app.board.display
        fake_time.now += 1
        assert app.game.elapsed == 3.0


async def test_undo_takes_back_a_losing_move_in_practice(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)], practice=True)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 4
        await pilot.press("h", "space")
        assert app.game.status is GameStatus.LOST
        lost = app.game
        await pilot.press("u")
        undone = app.game
        assert undone is not lost
        assert undone.status is GameStatus.IN_PROGRESS
        assert undone.view(0, 0, 1, 2).to_strings() == ["H1"]
        assert undone.elapsed == 4.0, "the timer reads on from the undone move"
        assert [str(m.move) for m in undone.record().moves] == ["O0,1"]
        await pilot.press("f")
        assert app.game.view(0, 0, 1, 1)[0, 0] is Cell.FLAG, "the board plays the new game"


async def test_undo_is_refused_outside_practice(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        await pilot.press("space")
        await pilot.press("u")
        assert app.game.status is GameStatus.LOST
        assert "practice" in message(app)


async def test_undo_with_no_moves_says_so(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)], practice=True)
    async with app.run_test() as pilot:
        await pilot.press("u")
        assert "Nothing to undo" in message(app)


STAND_IN_HINT = Hint(
    row=2, col=3, safe=False, mine_probability=Fraction(1, 4), reason="stand-in reason"
)


def stand_in(game: Game, near: tuple[int, int]) -> Hint:
    return STAND_IN_HINT


async def test_hint_moves_the_cursor_and_tells_the_risk(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)], hint=stand_in)
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        assert app.board.cursor == (2, 3)
        assert "stand-in reason" in message(app)
        assert app.hints_used == 1


async def test_a_hint_that_arrives_after_a_move_is_dropped(make_app: AppMaker) -> None:
    answer = threading.Event()

    def slow(game: Game, near: tuple[int, int]) -> Hint:
        answer.wait(timeout=PATIENCE)
        return STAND_IN_HINT

    app = make_app(4, 4, [(0, 0)], hint=slow)
    async with app.run_test() as pilot:
        await pilot.press("question_mark", "f")
        answer.set()
        await hint_given(app, pilot)
        assert app.board.cursor == (0, 0)
        assert app.hints_used == 0


async def test_hint_from_the_real_solver_is_a_safe_cell(make_app: AppMaker) -> None:
    app = make_app(3, 3, [(1, 1)])
    async with app.run_test() as pilot:
        await pilot.press("space")
        assert app.game.view(0, 0, 1, 1)[0, 0] is Cell.ONE
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        row, col = app.board.cursor
        assert app.game.view(row, col, 1, 1)[row, col] is Cell.HIDDEN
        # One mine, next to (0, 0): the mine count proves the far cells safe.
        assert (row, col) != (1, 1)
        assert "is safe" in message(app)


async def test_new_game_and_preset_keys_start_fresh_games(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l", "space")
        first = app.game
        await pilot.press("n")
        assert app.game is first, "a game in progress is not thrown away at one key"
        assert "press n again" in message(app)
        await pilot.press("n")
        assert app.game is not first
        assert not app.game.started
        assert (app.game.rows, app.game.cols) == (4, 4)
        await pilot.press("3")
        assert (app.game.rows, app.game.cols, app.game.mines) == (16, 30, 99)
        assert app.board.window() == (0, 0, 16, 30)
        await pilot.press("1")
        assert (app.game.rows, app.game.cols, app.game.mines) == (9, 9, 10)
        await pilot.press("2")
        assert (app.game.rows, app.game.cols, app.game.mines) == (16, 16, 40)
        await pilot.press("space")
        assert app.game.started, "the board plays the newest game"
        assert first.status is GameStatus.IN_PROGRESS


async def test_help_lists_every_key(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("Static").render())
        for word in [
            "hjkl"[0],
            "space",
            "Flag",
            "Chord",
            "New",
            "?",
            "Pause",
            "Undo",
            "right click",
        ]:
            assert word in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_finished_games_are_saved(make_app: AppMaker, tmp_path: Path) -> None:
    app = make_app(3, 3, [(0, 0)], hint=stand_in)
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        assert app.board.cursor == (2, 2), "the stand-in's (2, 3) is clamped to the board"
        await pilot.press("space")
        assert app.game.status is GameStatus.WON
    games, problems = RecordStore(tmp_path / "records").load()
    assert problems == []
    assert len(games) == 1
    saved = games[0]
    assert saved.record.status is GameStatus.WON
    assert [str(m.move) for m in saved.record.moves] == ["O2,2"]
    assert saved.hints == 1
    assert saved.three_bv == local(app.game).three_bv
    assert len(app.saved) == 1


async def test_t_cycles_the_themes(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test() as pilot:
        classic, mono = THEMES["classic"], THEMES["mono"]
        cursor_cell = next(iter(app.board.render_line(0)))
        assert cursor_cell.style == classic.cursor_style(Cell.HIDDEN)
        await pilot.press("t")
        assert "colorblind" in message(app)
        await pilot.press("t")
        hidden_cell = next(iter(app.board.render_line(1)))
        assert hidden_cell.style == mono.styles[Cell.HIDDEN]
        assert hidden_cell.text == ". "
        await pilot.press("t")
        assert "classic" in message(app)


async def test_the_status_line_names_the_board(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(i // 9, i % 9) for i in range(10)])
    async with app.run_test() as pilot:
        assert "beginner · 9x9, 10 mines" in str(app.query_one("#status").render())
        assert "Ready" in str(app.query_one("#status").render())
        await pilot.press("n")
        assert "mines left 10" in str(app.query_one("#status").render())


async def test_a_status_tick_after_the_screen_is_gone_does_nothing(make_app: AppMaker) -> None:
    """The status interval may fire once more while the app shuts down (seen as a flaky
    NoMatches of #status under load): it must find nothing to update and stop quietly."""
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
    app._status_shown = ""  # as if the status changed since the last tick
    app.update_status()


async def test_the_clock_stops_behind_the_too_small_notice(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", "space")
        fake_time.now += 2
        await pilot.resize_terminal(30, 10)
        await settle(pilot, lambda: app.layout.small, "the too-small notice")
        fake_time.now += 100  # the board is hidden: no time of the player's
        await pilot.resize_terminal(80, 24)
        await settle(pilot, lambda: not app.layout.small, "the board again")
        assert app.game.elapsed == 2.0
        fake_time.now += 1
        assert app.game.elapsed == 3.0


async def test_a_finished_games_footer_lists_only_what_applies(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test(size=(160, 24)) as pilot:
        await pilot.press("space")  # the mine at (0, 0)
        assert app.game.status is GameStatus.LOST
        await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
        footer = footer_keys(app)
        for gone in ("Reveal", "Flag", "Hint", "Pause", "Find"):
            assert gone not in footer, (gone, footer)
        for kept in ("New", "Size", "Theme", "Help", "Quit"):
            assert kept in footer, (kept, footer)
