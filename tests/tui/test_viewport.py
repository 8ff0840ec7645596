"""The board as a viewport: it scrolls with the cursor, resizes, and redraws only what changed."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.strip import Strip

from mines.game import Game
from mines.status import GameStatus
from mines.tui.app import MinesApp
from mines.tui.board import Board
from mines.tui.clock import PausableClock
from mines.tui.played import local
from mines.tui.themes import CELL_WIDTH, THEMES
from mines.view import BoardView
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker


async def long_move_done(app: MinesApp, pilot: Pilot[None]) -> None:
    """Wait for a move that runs off the UI thread (boards over a million cells) to end."""
    for _ in range(600):
        await pilot.pause(0.05)
        if not app.board.busy and not app.busy:
            await pilot.pause()
            return
    raise AssertionError("the long move did not end")


def big_app(rows: int, cols: int, mines: int, fake_time: FakeTime) -> MinesApp:
    clock = PausableClock(fake_time)
    game = Game(rows, cols, mines, seed=11, clock=clock)
    return MinesApp(
        game,
        make_game=lambda r, c, m: Game(r, c, m, clock=clock),
        clock=clock,
        theme=THEMES["classic"],
    )


class ViewSpy:
    """Records the size of every view the board asks the game for."""

    def __init__(self, game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cells: list[int] = []
        original = game.view

        def view(
            top: int = 0, left: int = 0, height: int | None = None, width: int | None = None
        ) -> BoardView:
            result = original(top, left, height, width)
            self.cells.append(result.height * result.width)
            return result

        monkeypatch.setattr(game, "view", view)


async def test_a_large_board_scrolls_with_the_cursor(
    fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = big_app(1000, 1000, 150_000, fake_time)
    spy = ViewSpy(local(app.game), monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.board
        top, left, height, width = board.window()
        assert top <= 500 < top + height, "it starts in the middle of the board"
        assert left <= 500 < left + width
        await pilot.press("end", "pagedown", "pagedown")
        await pilot.pause()
        top, left, height, width = board.window()
        row, col = board.cursor
        assert col == 999
        assert left <= col < left + width
        assert top <= row < top + height
        assert board.scroll_offset.x > 0
        assert board.scroll_offset.y > 0
        await pilot.press("space")
        await pilot.pause()
        assert app.game.started
        screen_cells = 80 * 24
        assert spy.cells
        assert max(spy.cells) <= screen_cells, "only windows, never the whole board"


async def test_resizing_the_terminal_resizes_the_window(make_app: AppMaker) -> None:
    app = make_app(16, 30, [(0, 0)])
    async with app.run_test(size=(40, 12)) as pilot:
        _, _, height, width = app.board.window()
        assert height < 16
        assert width < 30
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.board.window() == (0, 0, 16, 30)
        assert app.board.size.width >= 30 * CELL_WIDTH


async def test_a_small_terminal_still_reaches_every_cell(make_app: AppMaker) -> None:
    app = make_app(16, 30, [(0, 0)])
    async with app.run_test(size=(40, 10)) as pilot:  # the smallest playable size
        await pilot.press(*["l"] * 29, *["j"] * 15)
        top, left, height, width = app.board.window()
        assert (top + height, left + width) == (16, 30)
        await pilot.press("space")
        assert app.game.started


class LineCounter:
    def __init__(self, board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lines: list[int] = []
        original = board.render_line

        def render_line(y: int) -> Strip:
            self.lines.append(y)
            return original(y)

        monkeypatch.setattr(board, "render_line", render_line)


async def test_a_cursor_move_repaints_only_its_row(
    fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = big_app(1000, 1000, 150_000, fake_time)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.board
        counter = LineCounter(board, monkeypatch)
        assert board.rulers, "a board bigger than the screen has rulers, on the first line"
        y = 1 + board.cursor[0] - board.scroll_offset.y
        assert board.cursor == (500, 500), "it starts in the middle of the board"
        await pilot.press("l")
        await pilot.pause()
        assert set(counter.lines) == {0, y}, "its row, and the column ruler's cursor mark"
        counter.lines.clear()
        await pilot.press("j")
        await pilot.pause()
        assert set(counter.lines) == {0, y, y + 1}


async def test_a_flag_repaints_one_line_and_a_reveal_only_changed_lines(
    make_app: AppMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 12x12 board whose first reveal, at (11, 11), opens only itself: a number.
    app = make_app(12, 12, [(10, 10), (0, 0)])
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press(*["j"] * 5, *["l"] * 5)
        await pilot.pause()
        counter = LineCounter(app.board, monkeypatch)
        await pilot.press("f")
        await pilot.pause()
        assert set(counter.lines) == {5}
        await pilot.press("f", *["j"] * 6, *["l"] * 6)
        await pilot.pause()
        counter.lines.clear()
        await pilot.press("space")
        await pilot.pause()
        assert set(counter.lines) == {11}


async def test_a_sparse_board_of_a_million_squared_plays_in_the_viewport(
    fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = big_app(1_000_000, 1_000_000, 1000, fake_time)
    spy = ViewSpy(local(app.game), monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        app.board.move_cursor(500_000, 999_999)
        await pilot.press("space")
        await long_move_done(app, pilot)
        await pilot.press("pagedown", "h")
        await pilot.pause()
        top, left, height, width = app.board.window()
        assert top <= app.board.cursor[0] < top + height
        assert left + width == 1_000_000
        # With one mine per 10^9 cells, the first click opens the whole sea and wins.
        assert app.game.status is GameStatus.WON
        assert "Won!" in str(app.query_one("#status").render())
        assert max(spy.cells) <= 80 * 24
