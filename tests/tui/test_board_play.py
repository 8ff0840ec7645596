"""The game through the headless pilot: keys and mouse reveal, flag and chord; wins and losses."""

from __future__ import annotations

from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.board import Board
from mines.tui.themes import CELL_WIDTH
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker


def cell(board: Board, row: int, col: int) -> Cell:
    return board.game.view(row, col, 1, 1)[row, col]


async def test_keys_move_the_cursor_in_every_style(make_app: AppMaker) -> None:
    app = make_app(5, 5, [(4, 4)])
    async with app.run_test() as pilot:
        await pilot.press("down", "j", "s", "right", "l", "d")
        assert app.board.cursor == (3, 3)
        await pilot.press("up", "k", "w", "left", "h", "a")
        assert app.board.cursor == (0, 0)
        await pilot.press("left", "up")
        assert app.board.cursor == (0, 0), "the cursor stops at the edge"


async def test_keys_reveal_flag_and_chord(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        board = app.board
        await pilot.press("l", "space")
        assert cell(board, 0, 1) is Cell.ONE
        await pilot.press("h", "f")
        assert cell(board, 0, 0) is Cell.FLAG
        assert app.game.mines_left == 1
        await pilot.press("l", "c")
        assert cell(board, 1, 0) is Cell.ONE, "the chord opened the flag's other neighbours"


async def test_space_on_a_number_chords(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        await pilot.press("l", "enter", "h", "f", "l", "space")
        assert cell(app.board, 1, 1) is Cell.ONE


async def test_mouse_left_reveals_right_flags_middle_chords(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        board = app.board
        await pilot.pause()  # the layout settled: a click goes where the board is drawn
        await pilot.click(Board, offset=(1 * CELL_WIDTH, 0))
        assert cell(board, 0, 1) is Cell.ONE
        await pilot.click(Board, offset=(0, 0), button=3)
        assert cell(board, 0, 0) is Cell.FLAG
        await pilot.click(Board, offset=(1 * CELL_WIDTH, 0), button=2)
        assert cell(board, 1, 0) is Cell.ONE
        assert board.cursor == (0, 1)


async def test_left_click_on_a_number_chords(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0), (3, 3)])
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.click(Board, offset=(CELL_WIDTH, 0))
        await pilot.click(Board, offset=(0, 0), button=3)
        await pilot.click(Board, offset=(CELL_WIDTH, 0))
        assert cell(app.board, 1, 1) is Cell.ONE


async def test_a_win_ends_the_game_and_freezes_the_timer(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(3, 3, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 3
        await pilot.press("j", "j", "l", "space")
        assert app.game.status is GameStatus.WON
        fake_time.now += 50
        app.update_status()
        assert app.game.elapsed == 3.0
        status = str(app.query_one("#status").render())
        assert "time 3.0s" in status
        assert "Won!" in status
        await pilot.press("k", "f")
        assert app.game.status is GameStatus.WON, "no move is taken after the end"
        assert "game is over" in str(app.query_one("#message").render())


async def test_a_loss_ends_the_game_shows_the_mines_and_freezes_the_timer(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    app = make_app(3, 3, [(0, 0), (2, 2)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 2
        await pilot.press("h", "space")
        assert app.game.status is GameStatus.LOST
        assert cell(app.board, 0, 0) is Cell.EXPLODED
        assert cell(app.board, 2, 2) is Cell.MINE
        fake_time.now += 10
        app.update_status()
        assert app.game.elapsed == 2.0
        assert "Lost" in str(app.query_one("#status").render())


async def test_revealing_a_flag_says_why_not(make_app: AppMaker) -> None:
    app = make_app(3, 3, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("f", "space")
        assert "flagged" in str(app.query_one("#message").render())
        assert cell(app.board, 0, 0) is Cell.FLAG
