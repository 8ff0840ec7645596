"""The help lists every key once; the hint and g on a huge board after its first click."""

from __future__ import annotations

from pathlib import Path

from mines.game import Game
from mines.placement import FixedPlacer
from mines.solver import find_undecided, hint
from mines.status import GameStatus
from mines.tui.app import MinesApp
from mines.tui.clock import PausableClock
from mines.tui.help import HelpScreen
from mines.tui.played import local
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime
from tests.tui.conftest import AppMaker
from tests.tui.test_app_features import hint_given, message
from tests.tui.test_viewport import long_move_done


async def test_the_help_lists_each_key_once(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)], practice=True)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        lines = str(app.screen.query_one("Static").render()).splitlines()
        firsts = [line.split()[0] for line in lines if line.startswith("  ")]
        assert firsts.count("u") == 1, lines
        assert any(line.split()[:2] == ["U", "Ctrl-R"] for line in lines if line.strip())
        assert "g" in firsts


def still() -> float:
    """A clock that never moves: the solver searches until it finds (a test has no deadline)."""
    return 0.0


def huge_app(tmp_path: Path, fake_time: FakeTime) -> MinesApp:
    """10^6 x 10^6, two mines 1,600 rows below the middle with a safe cell between them: the
    first click floods the whole sea but that cell, far beyond the screen."""
    clock = PausableClock(fake_time)
    r, c = 501_600, 500_000
    game = Game(10**6, 10**6, 2, placer=FixedPlacer([(r, c), (r, c + 2)]), clock=clock)
    return MinesApp(
        game,
        make_game=lambda rows, cols, mines: Game(rows, cols, mines, clock=clock),
        clock=clock,
        theme=THEMES["classic"],
        store=RecordStore(tmp_path / "records"),
        hint=lambda g, near: hint(local(g), near=near, clock=still),
        find=lambda g, near, beyond: find_undecided(
            local(g), near, beyond=beyond, skip=near, clock=still
        ),
    )


async def test_on_a_huge_board_the_hint_finds_what_is_left_beyond_the_screen(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    app = huge_app(tmp_path, fake_time)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await long_move_done(app, pilot)
        assert not app.game.status.is_over
        await pilot.press("question_mark")
        await hint_given(app, pilot)
        assert app.board.cursor == (501_600, 500_001), message(app)
        assert "is safe" in message(app)
        await pilot.press("space")
        assert app.game.status is GameStatus.WON


async def test_g_goes_to_the_nearest_cell_still_to_decide(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    app = huge_app(tmp_path, fake_time)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await long_move_done(app, pilot)
        await pilot.press("g")
        await hint_given(app, pilot)
        assert app.board.cursor == (501_600, 500_001), message(app)
        assert "beside the numbers" in message(app)
        assert app.hints_used == 0, "a search is not a hint"
        row, _, _, _ = app.board.window()
        assert row <= 501_600 < row + 30, "the window follows"
