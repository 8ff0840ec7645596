"""Rulers and the minimap on boards bigger than the screen, at several terminal sizes."""

from __future__ import annotations

import re

import pytest
from rich.segment import Segment

from mines.game import Game
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.board import Board
from mines.tui.clock import PausableClock
from mines.tui.rulers import (
    CURSOR_STYLE,
    MapShape,
    Minimap,
    column_ruler,
    gutter_width,
    minimap_lines,
    row_label,
)
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker, drawn


def text(segments: list[Segment]) -> str:
    return "".join(segment.text for segment in segments)


def labels(ruler: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", ruler)]


# --- the rulers' text ------------------------------------------------------------------------


def test_the_column_ruler_labels_real_columns_at_their_cells() -> None:
    # 40 text columns from column 470 of the board (x = 940): cells 470 to 489.
    segments = column_ruler(940, 40, 1000, cursor_col=482)
    ruler = text(segments)
    assert len(ruler) == 40
    assert ruler.startswith("470 ")
    for number in (470, 475, 480, 485):
        x = (number - 470) * 2
        assert ruler[x : x + 3] == str(number), (number, ruler)
    cursor = [s for s in segments if s.style == CURSOR_STYLE]
    assert [s.text for s in cursor] == ["482"], "the cursor's column, whatever the thinning"
    assert ruler[24:27] == "482"


def test_a_label_is_shown_whole_or_not_at_all() -> None:
    # From x = 941 the first cell, 470, is cut in half: its label would read "70".
    ruler = text(column_ruler(941, 40, 1000, cursor_col=480))
    assert "70" not in ruler
    assert all(n % 5 == 0 for n in labels(ruler))
    # The right edge cuts no label either: every number is one the board has.
    ruler = text(column_ruler(0, 23, 1000, cursor_col=0))
    assert labels(ruler) == [0, 5, 10]


def test_the_cursor_label_stays_in_sight_at_the_right_edge() -> None:
    ruler = column_ruler(2 * 980, 40, 1000, cursor_col=999)
    assert [s.text for s in ruler if s.style == CURSOR_STYLE] == ["999"]
    assert text(ruler).rstrip().endswith("999")


def test_the_row_ruler_thins_its_labels_but_always_names_the_cursor_row() -> None:
    width = gutter_width(1_000_000)
    assert width == len("999999") + 1
    assert text(row_label(500_000, width, cursor=False)).strip() == "500000"
    assert text(row_label(500_001, width, cursor=False)).strip() == "·"
    cursor = row_label(500_001, width, cursor=True)
    assert text(cursor).strip() == "500001"
    assert cursor[0].style == CURSOR_STYLE
    assert all(len(text(row_label(r, width, cursor=r == 7))) == width for r in range(10))


# --- the minimap -------------------------------------------------------------------------------


def test_the_minimap_keeps_the_board_proportions() -> None:
    assert MapShape.of(1000, 1000) == MapShape(16, 8)
    assert MapShape.of(16, 1000).height == 1
    tall = MapShape.of(4000, 100)
    assert tall.height == 8
    assert tall.width < 4


def test_the_minimap_shows_the_window_where_it_is() -> None:
    whole = minimap_lines(1000, 1000, (0, 0, 1000, 1000), (0, 0))
    assert all(set(line) == {"█"} for line in whole)
    corner = minimap_lines(1000, 1000, (0, 0, 30, 50), (10, 10))
    assert corner[0][0] == "█"
    assert "".join(corner).count("█") == 1
    right = minimap_lines(1000, 1000, (480, 950, 30, 50), (500, 999))
    assert right[3][-1] == "█"
    assert right[3][0] == "·"


def test_on_a_board_of_a_million_squared_the_window_is_still_on_the_map() -> None:
    lines = minimap_lines(10**6, 10**6, (500_000, 500_000, 30, 50), (500_010, 500_020))
    assert "".join(lines).count("█") == 1
    assert lines[4][8] == "█", "the middle of the map"


# --- in the app ----------------------------------------------------------------------------------


def big_app(fake_time: FakeTime, rows: int = 1000, cols: int = 1000, mines: int = 100) -> MinesApp:
    clock = PausableClock(fake_time)
    return MinesApp(
        Game(rows, cols, mines, seed=4, clock=clock),
        make_game=lambda r, c, m: Game(r, c, m, clock=clock),
        clock=clock,
        theme=THEMES["classic"],
    )


def ruler_line(board: Board) -> str:
    return board.render_line(0).text


def row_labels(board: Board) -> list[str]:
    gutter = gutter_width(board.game.rows)
    height = board.scrollable_content_region.height
    return [board.render_line(y).text[:gutter].strip() for y in range(1, height)]


@pytest.mark.parametrize(
    ("size", "minimap"), [((120, 40), True), ((200, 60), True), ((60, 20), False)]
)
async def test_a_big_board_has_rulers_of_its_real_coordinates(
    fake_time: FakeTime, size: tuple[int, int], minimap: bool
) -> None:
    app = big_app(fake_time)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.board
        assert board.rulers
        top, left, height, width = board.window()
        row, col = board.cursor
        columns = labels(ruler_line(board))
        assert col in columns, "the cursor's column is named"
        assert all(left <= c < left + width for c in columns)
        assert all(c % 5 == 0 for c in columns if c != col)
        rows = row_labels(board)
        assert len(rows) == height
        assert rows[row - top] == str(row), "the cursor's row is named"
        assert rows[(5 - top % 5) % 5] == str(top + (5 - top % 5) % 5)
        assert app.query_one("#minimap").display is minimap
        # The rulers take their room from the cells, not from the screen.
        assert board.region.right <= size[0]


async def test_after_end_then_home_the_rulers_and_the_map_differ(fake_time: FakeTime) -> None:
    app = big_app(fake_time)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board, minimap = app.board, app.query_one("#minimap", Minimap)
        await pilot.press("end")
        await pilot.pause()
        at_end, map_at_end = ruler_line(board), list(minimap.lines)
        assert 999 in labels(at_end)
        assert {line[-1] for line in map_at_end} == {"█", "·"}
        await pilot.press("home")
        await pilot.pause()
        at_home, map_at_home = ruler_line(board), list(minimap.lines)
        assert at_home != at_end
        assert labels(at_home)[:2] == [0, 5]
        assert map_at_home != map_at_end
        assert all(line[-1] == "·" for line in map_at_home)
        assert any(line[0] == "█" for line in map_at_home)
        await pilot.press("pagedown")
        await pilot.pause()
        assert row_labels(board) != []
        assert str(board.cursor[0]) in row_labels(board)


async def test_a_click_on_the_map_takes_the_cursor_there(fake_time: FakeTime) -> None:
    app = big_app(fake_time)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # The map's content starts inside its border and padding: (2, 1) is its first char.
        await pilot.click("#minimap", offset=(2, 1))
        await pilot.pause()
        row, col = app.board.cursor
        assert row < 1000 // 8
        assert col < 1000 // 16
        top, left, height, width = app.board.window()
        assert top <= row < top + height
        assert left <= col < left + width


async def test_a_click_on_a_cell_with_rulers_opens_that_cell(fake_time: FakeTime) -> None:
    app = big_app(fake_time, mines=1000)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.board
        gutter = gutter_width(1000)
        await pilot.click("#board", offset=(gutter - 1, 1))  # the row ruler: nothing
        await pilot.click("#board", offset=(5, 0))  # the column ruler: nothing
        assert not app.game.started
        top, left, _, _ = board.window()
        await pilot.click("#board", offset=(gutter + 2 * 3, 1 + 4))
        await pilot.pause()
        assert board.cursor == (top + 4, left + 3)
        assert app.game.started
        assert app.game.view(top + 4, left + 3, 1, 1)[top + 4, left + 3] is not Cell.HIDDEN


async def test_small_terminals_drop_the_rulers_for_the_position_line(
    fake_time: FakeTime,
) -> None:
    app = big_app(fake_time)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert not app.board.rulers
        assert not app.query_one("#minimap").display
        position = str(app.query_one("#position").render())
        assert f"({app.board.cursor[0]}, {app.board.cursor[1]})" in position
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert app.board.rulers
        assert app.query_one("#minimap").display


async def test_a_board_that_fits_has_neither_rulers_nor_map(make_app: AppMaker) -> None:
    app = make_app(16, 30, [(0, 0)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.board.rulers
        assert not app.query_one("#minimap").display
        # Expert is wider than 50 columns: rulers, but no room for the map.
        await pilot.resize_terminal(50, 20)
        await pilot.pause()
        assert app.board.rulers
        assert not app.query_one("#minimap").display


async def test_a_new_game_of_another_size_takes_the_rulers_away(fake_time: FakeTime) -> None:
    app = big_app(fake_time)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.board.rulers
        await pilot.press("1")
        await pilot.pause()
        assert (app.game.rows, app.game.cols) == (9, 9)
        assert not app.board.rulers
        assert not app.query_one("#minimap").display
        assert not app.query_one("#position").display


async def test_a_new_big_game_gets_rulers_of_its_own_size(fake_time: FakeTime) -> None:
    clock = PausableClock(fake_time)
    app = MinesApp(
        Game(1000, 1000, 100, seed=4, clock=clock),
        make_game=lambda r, c, m: Game(10**6, 10**6, 1000, clock=clock),  # a stand-in
        clock=clock,
        theme=THEMES["classic"],
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.query_one("#position").display
        await pilot.press("n")
        await pilot.pause()
        board = app.board
        assert app.game.rows == 10**6
        assert str(board.cursor[0]) in row_labels(board)
        assert board.render_line(1).text[: gutter_width(10**6)].strip() in {"·", "500000"}
        assert app.query_one("#minimap", Minimap).board_size == (10**6, 10**6)


async def test_the_row_ruler_is_right_from_the_first_frame(fake_time: FakeTime) -> None:
    """The screen as first drawn (no pause): each row label stands beside its own row, the
    cursor's (the middle of the board) among them."""
    app = big_app(fake_time)
    async with app.run_test(size=(120, 40)):
        board = app.board
        top, _, height, _ = board.window()
        gutter = gutter_width(board.game.rows)
        first = board.region.y + 1  # below the column ruler
        x = board.region.x
        lines = drawn(app)[first : first + height]
        named = {
            top + i: int(label)
            for i, line in enumerate(lines)
            if (label := line[x : x + gutter].strip()).isdigit()
        }
        assert board.cursor[0] in named
        assert all(row == label for row, label in named.items()), named
