"""What the screen shows: the whole board after a win, a question mark under the cursor,
keys after the too-small notice, and a layout that depends on the terminal's size alone."""

from __future__ import annotations

from pathlib import Path

from mines.game import Game
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.clock import PausableClock
from mines.tui.layout import MIN_HEIGHT, MIN_WIDTH
from mines.tui.store import RecordStore
from mines.tui.themes import CELL_WIDTH, THEMES
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker, drawn

MONO = THEMES["mono"]


def board_lines(app: MinesApp) -> list[str]:
    """The board's cells as drawn, one string per row, a glyph per cell (mono theme)."""
    region = app.board.content_region
    lines = drawn(app)[region.y : region.bottom]
    return [line[region.x : region.right : CELL_WIDTH] for line in lines]


async def test_after_a_win_every_mine_is_drawn_flagged_not_only_where_the_cursor_went(
    make_app: AppMaker,
) -> None:
    # Mines in the corners of the last column: the first reveal floods all but (1, 3) and
    # (2, 3); the cursor then visits rows 0 to 2 only, and the win changes no mine's cell.
    app = make_app(4, 4, [(0, 3), (3, 3)], theme="mono")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("space", "l", "l", "l", "j", "space", "j", "space")
        await pilot.pause()
        assert app.game.status is GameStatus.WON
        flag = MONO.glyphs[Cell.FLAG]
        rows = board_lines(app)
        assert [row[3] for row in rows] == [flag, "1", "1", flag], rows


async def test_a_question_mark_shows_under_the_cursor(make_app: AppMaker) -> None:
    app = make_app(3, 3, [(2, 2)], theme="mono", marks=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("f", "f")
        await pilot.pause()
        assert app.game.mines_left == 1, "a question mark is not a flag"
        assert board_lines(app)[0][0] == "?"
        await pilot.press("l")
        await pilot.pause()
        assert board_lines(app)[0][0] == "?", "and it stays when the cursor leaves"


async def test_keys_work_again_after_the_too_small_notice(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(MIN_WIDTH - 1, MIN_HEIGHT)
        await pilot.pause()
        assert app.query_one("#too-small").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("l", "space")
        assert app.board.cursor == (0, 1)
        assert app.game.started


LONG_MESSAGE = "An intermediate game left unfinished on 2026-01-01 10:00 is kept: see the list."


async def screen_after(sizes: list[tuple[int, int]], tmp_path: Path) -> list[str]:
    """The screen of an expert game after the terminal took each size in turn."""
    clock = PausableClock(FakeTime())
    game = Game(16, 30, 99, seed=1, clock=clock)
    app = MinesApp(
        game,
        make_game=lambda r, c, m: game,
        clock=clock,
        theme=MONO,
        store=RecordStore(tmp_path / "records"),
        cursor=(8, 15),
    )
    async with app.run_test(size=sizes[0]) as pilot:
        app.say(LONG_MESSAGE)
        for size in sizes[1:]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.pause()
        return drawn(app)


async def test_the_layout_depends_on_the_terminal_size_not_on_its_history(
    tmp_path: Path,
) -> None:
    fresh = await screen_after([(60, 20)], tmp_path)
    board = [line for line in fresh if ". " * 30 in line + " "]
    assert len(board) == 16, "at 60x20 the whole expert board fits: no rulers, no cut column"
    assert "mines left 99" in fresh[0]
    for history in (
        [(80, 24), (60, 20)],
        [(60, 20), (62, 20), (60, 20)],
        [(MIN_WIDTH - 1, MIN_HEIGHT), (60, 20)],
        [(120, 40), (61, 21), (60, 20)],
    ):
        assert await screen_after(history, tmp_path) == fresh, history
