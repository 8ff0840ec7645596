"""The replay app through the pilot: keys as documented, a header in words."""

from __future__ import annotations

from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.board import Board
from mines.tui.replay_app import ReplayApp
from mines.tui.themes import THEMES
from tests.sample_records import won_record


async def test_the_replay_app_steps_forward_and_back() -> None:
    record = won_record()
    app = ReplayApp(record, THEMES["mono"], delay=1000.0)
    async with app.run_test() as pilot:
        await pilot.press("space")  # stop the autoplay, which starts on mount
        board = app.query_one(Board)
        assert not board.game.started
        await pilot.press("n", "n")
        assert app.step == 2
        assert board.game.view(0, 0, 1, 2).to_strings() == ["F1"]
        assert board.cursor == (0, 0)
        await pilot.press("n", "n")
        assert app.step == 3
        assert board.game.status is GameStatus.WON
        status = str(app.query_one("#status").render())
        assert "move 3 of 3: chord (0, 1) at 3.00s" in status
        assert "Won!" in status, "the end in the game's words"
        await pilot.press("b")
        assert app.step == 2
        assert not board.game.status.is_over
        await pilot.press("b", "b", "b")
        assert app.step == 0
        assert board.game.view(0, 0, 1, 1)[0, 0] is Cell.HIDDEN
        await pilot.press("f")
        assert board.game.view(0, 0, 1, 1)[0, 0] is Cell.HIDDEN, "a replay takes no moves"


async def test_full_stop_and_comma_step_as_documented() -> None:
    app = ReplayApp(won_record(), THEMES["classic"], delay=1000.0)
    async with app.run_test() as pilot:
        await pilot.press("space")
        await pilot.press("full_stop", "full_stop")
        assert app.step == 2
        assert "move 2 of 3: flag (0, 0) at 1.50s" in str(app.query_one("#status").render())
        await pilot.press("comma")
        assert app.step == 1


async def test_home_and_end_jump_and_plus_and_minus_change_the_speed() -> None:
    app = ReplayApp(won_record(), THEMES["classic"], delay=8.0)
    async with app.run_test() as pilot:
        await pilot.press("end")
        assert app.step == 3
        assert "Won!" in str(app.query_one("#status").render())
        await pilot.press("home")
        assert app.step == 0
        assert "0.125 moves/s" in str(app.query_one("#status").render())
        await pilot.press("plus", "plus")
        assert "0.5 moves/s" in str(app.query_one("#status").render())
        await pilot.press("minus")
        assert "0.25 moves/s" in str(app.query_one("#status").render())


async def test_ctrl_c_quits_the_replay() -> None:
    app = ReplayApp(won_record(), THEMES["classic"], delay=1000.0)
    async with app.run_test() as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
