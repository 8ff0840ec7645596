"""Fixtures for the terminal app: a fake clock, fixed boards and an app factory."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

pytest.importorskip("textual", reason="the terminal app needs Textual (the tui extra)")

from textual.app import App
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from mines.game import Game
from mines.placement import FixedPlacer
from mines.tui.app import HintMaker, MinesApp, solver_hint_near
from mines.tui.clock import PausableClock
from mines.tui.keyline import KeyLine, fit, key_items
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime
from tests.patience import PATIENCE

AppMaker = Callable[..., MinesApp]


def drawn(app: App[None]) -> list[str]:
    """The screen as it is drawn now, line by line: the compositor's last picture of every
    widget, so a part that was never repainted shows what it showed before (not what
    `render_line` would draw afresh)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def footer_keys(app: App[None]) -> str:
    """The bottom line as drawn: the footer (or the key line standing in for it)."""
    lines = drawn(app)
    return lines[-1].rstrip() if lines else ""


def footer_drawn(app: App[None]) -> bool:
    """Whether Textual's footer shows the bindings of now, and is on screen: it recomposes
    late after a change of bindings, and is painted a frame after that."""
    screen = app.screen
    bound = {b.action for _, b, _, _ in screen.active_bindings.values() if b.show}
    keys = list(screen.query(FooterKey))
    shown = {key.action for key in keys}
    return bool(keys) and shown == bound and keys[0].description in footer_keys(app)


def key_line_drawn(app: App[None]) -> bool:
    """Whether the key line standing in for the footer shows the bindings of now."""
    line = app.screen.query_one(KeyLine)
    items = getattr(line, "items", None)  # set once it has shown keys
    wanted = fit(
        key_items(app.screen.active_bindings, app.get_key_display), line.content_region.width
    )
    return bool(items) and items == wanted and items[0].description in footer_keys(app)


async def settle(pilot: Pilot[None], ready: Callable[[], bool], what: str = "") -> None:
    """Let the app run until `ready()` holds: the state a test checks, drawn. Not a fixed
    number of pauses, which a loaded machine outruns; `PATIENCE` is only a guard on a hang."""
    give_up = time.monotonic() + PATIENCE
    while not ready():
        assert time.monotonic() < give_up, f"never settled: {what or ready}"
        await pilot.pause(0.01)


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def make_app(fake_time: FakeTime, tmp_path: Path) -> AppMaker:
    """An app on a fixed board: `make_app(rows, cols, mines_at, practice=..., hint=...)`."""

    def make(
        rows: int,
        cols: int,
        mines_at: Iterable[tuple[int, int]],
        *,
        practice: bool = False,
        hint: HintMaker | None = None,
        theme: str = "classic",
        marks: bool = False,
    ) -> MinesApp:
        layout = list(mines_at)
        clock = PausableClock(fake_time)

        def make_game(r: int, c: int, m: int) -> Game:
            first_cells = [(i // c, i % c) for i in range(m)]
            return Game(r, c, m, placer=FixedPlacer(first_cells), clock=clock)

        game = Game(rows, cols, len(layout), placer=FixedPlacer(layout), clock=clock)
        return MinesApp(
            game,
            make_game=make_game,
            clock=clock,
            theme=THEMES[theme],
            store=RecordStore(tmp_path / "records"),
            practice=practice,
            hint=hint or solver_hint_near,
            cursor=(0, 0),
            marks=marks,
        )

    return make
