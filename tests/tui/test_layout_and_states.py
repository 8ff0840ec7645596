"""The app at several terminal sizes, its busy and thinking states, the end of a game, the
footer and the themes' contrast."""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from mines.game import Game
from mines.placement import placer_for_rule
from mines.solver import Hint
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.board import STILL_WORKING
from mines.tui.clock import PausableClock
from mines.tui.layout import MIN_HEIGHT, MIN_WIDTH
from mines.tui.store import RecordStore
from mines.tui.themes import MIN_CONTRAST, THEMES, contrast
from tests.fake_time import FakeTime
from tests.patience import PATIENCE
from tests.tui.conftest import AppMaker, footer_drawn, settle
from tests.tui.test_viewport import long_move_done


def text_of(app: MinesApp, name: str) -> str:
    """A widget's text, its lines read as one (the message wraps in two)."""
    return " ".join(str(app.query_one(name).render()).split())


def app_for(
    game: Game, clock: PausableClock, tmp_path: Path, cursor: tuple[int, int] | None = None
) -> MinesApp:
    return MinesApp(
        game,
        make_game=lambda r, c, m: Game(r, c, m, clock=clock),
        clock=clock,
        theme=THEMES["classic"],
        store=RecordStore(tmp_path / "records"),
        cursor=cursor,
    )


# --- sizes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(120, 40), (60, 20), (200, 60), (MIN_WIDTH, MIN_HEIGHT)])
async def test_the_status_line_fits_and_a_long_message_does_not_move_the_board(
    make_app: AppMaker, size: tuple[int, int]
) -> None:
    app = make_app(16, 30, [(0, 0)])
    async with app.run_test(size=size) as pilot:
        await pilot.press("l", "space")
        status = text_of(app, "#status")
        assert len(status) <= size[0] - 2, status
        assert "left" in status, "mines left is never cut off"
        assert "Playing" in status
        board_at = app.board.region
        app.say("A message long enough to need two lines on a narrow terminal. " * 2)
        await pilot.pause()
        assert app.board.region == board_at
        app.say("")
        await pilot.pause()
        assert app.board.region == board_at
        assert not app.query_one("#too-small").display


async def test_below_the_minimum_size_a_notice_says_how_big(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(20, 8)) as pilot:
        notice = app.query_one("#too-small")
        assert notice.display
        assert f"at least {MIN_WIDTH}x{MIN_HEIGHT}" in text_of(app, "#too-small")
        assert not app.query_one("#middle").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not notice.display
        assert app.query_one("#middle").display


async def test_a_board_bigger_than_the_screen_shows_where_the_cursor_is(
    fake_time: FakeTime, tmp_path: Path
) -> None:
    clock = PausableClock(fake_time)
    app = app_for(Game(300, 300, 100, seed=3, clock=clock), clock, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        position = text_of(app, "#position")
        assert "cursor (150, 299)" in position
        _, left, _, width = app.board.window()
        assert f"cols {left}-{left + width - 1}" in position
        assert "of 300x300" in position


async def test_a_board_that_fits_has_no_position_line(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(80, 24)):
        assert not app.query_one("#position").display


# --- long moves and hints ------------------------------------------------------------------


def held_reveal(game: Game, go_on: threading.Event) -> Callable[[int, int], GameStatus]:
    """`game.reveal` that waits for `go_on` before it reveals: a long move the test ends."""
    reveal = game.reveal

    def slow_reveal(row: int, col: int) -> GameStatus:
        # As a real flood does, it holds the game's lock all along: the UI thread must not
        # wait for it (reading the time, the record...), or every key waits for the move.
        with game._lock:
            go_on.wait(timeout=PATIENCE)
            return reveal(row, col)

    return slow_reveal


async def test_a_long_first_reveal_runs_off_the_ui_thread_with_a_busy_state(
    fake_time: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = PausableClock(fake_time)
    game = Game(1001, 1000, 1000, seed=5, clock=clock)  # over a million cells
    go_on = threading.Event()
    slow_reveal = held_reveal(game, go_on)
    monkeypatch.setattr(game, "reveal", slow_reveal)
    app = app_for(game, clock, tmp_path)
    footer_rebuilds = []
    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(app, "refresh_bindings", lambda: footer_rebuilds.append(1))
        await pilot.press("space")
        await pilot.pause()
        assert app.board.busy
        assert "Working" in text_of(app, "#status")
        cursor = app.board.cursor
        await pilot.press("l")
        assert STILL_WORKING in text_of(app, "#message"), "a key is answered at once"
        assert app.board.cursor == cursor
        await pilot.press("p")
        assert "Paused" in text_of(app, "#status"), "pause works while the move runs"
        await pilot.press("p")
        go_on.set()
        await long_move_done(app, pilot)
        assert footer_rebuilds == [1, 1], "only pause rebuilt the footer, not the long move"
        assert game.started
        assert "Playing" in text_of(app, "#status")
        assert "Working" not in text_of(app, "#status")


async def test_quitting_during_a_long_move_does_not_wait_for_it(
    fake_time: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = PausableClock(fake_time)
    game = Game(1001, 1000, 1000, seed=5, clock=clock)
    go_on = threading.Event()
    slow_reveal = held_reveal(game, go_on)

    app = app_for(game, clock, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        await long_move_done(app, pilot)
        assert game.started, "a game in progress, which a quit would keep"
        hidden = np.argwhere(game.view().array == ord(Cell.HIDDEN.value))
        app.board.move_cursor(*map(int, hidden[0]))
        monkeypatch.setattr(game, "reveal", slow_reveal)
        await pilot.press("space")
        await pilot.pause()
        assert app.board.busy
        await pilot.press("q")
        await pilot.pause()
        assert app._exit, "the app is leaving while the move still runs"
    assert not go_on.is_set()
    go_on.set()
    assert app.unfinished_saved, "the game before the move is kept: it was saved after it"
    (kept,) = RecordStore(tmp_path / "records").unfinished()
    assert len(kept.saved.record.moves) == 1, "the move being made when q came is not"


async def test_the_clock_waits_while_a_long_move_works(
    fake_time: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = PausableClock(fake_time)
    game = Game(1001, 1000, 1000, seed=5, clock=clock)
    go_on = threading.Event()
    slow_reveal = held_reveal(game, go_on)

    app = app_for(game, clock, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        await long_move_done(app, pilot)
        fake_time.now += 7
        app.update_status()  # as its 0.1 s tick would
        hidden = np.argwhere(game.view().array == ord(Cell.HIDDEN.value))
        app.board.move_cursor(*map(int, hidden[0]))
        monkeypatch.setattr(game, "reveal", slow_reveal)
        await pilot.press("space")
        await pilot.pause()
        assert app.board.busy
        assert "7.0s" in text_of(app, "#status")
        fake_time.now += 50  # the engine's time, not the player's
        go_on.set()
        await long_move_done(app, pilot)
        assert game.elapsed == pytest.approx(7.0), "the clock waited for the move"


async def test_moves_that_cannot_flood_are_answered_on_the_ui_thread(
    fake_time: FakeTime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = PausableClock(fake_time)
    # A sparse board of a million squared: the first reveal floods the sea and wins.
    app = app_for(Game(10**6, 10**6, 1000, seed=2, clock=clock), clock, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        await long_move_done(app, pilot)
        assert app.game.status is GameStatus.WON
        started: list[object] = []

        def no_thread(*args: object, **kwargs: object) -> threading.Thread:
            started.append(args)
            raise AssertionError("a move that cannot flood went off the UI thread")

        monkeypatch.setattr("mines.tui.board.threading.Thread", no_thread)
        await pilot.press("space", "c", "f")
        await pilot.pause()
        assert started == []
        assert not app.board.busy
        assert "game is over" in text_of(app, "#message").lower()


async def test_the_clock_stands_still_while_the_solver_thinks(
    make_app: AppMaker, fake_time: FakeTime
) -> None:
    answer = threading.Event()

    def slow(game: Game, near: tuple[int, int]) -> Hint:
        answer.wait(timeout=PATIENCE)
        return Hint(1, 1, True, Fraction(0), "A stand-in.")

    app = make_app(4, 4, [(0, 0)], hint=slow)
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        fake_time.now += 3
        await pilot.press("question_mark")
        assert "Thinking" in text_of(app, "#status")
        assert "Thinking" in text_of(app, "#message")
        fake_time.now += 50
        assert app.game.elapsed == 3.0
        answer.set()
        assert app.hint_thread is not None
        app.hint_thread.join(10)
        await pilot.pause()
        await pilot.pause()
        assert "Hint: A stand-in." in text_of(app, "#message")
        assert "Thinking" not in text_of(app, "#status")
        fake_time.now += 1
        assert app.game.elapsed == 4.0, "the clock goes on after the hint"


@pytest.mark.parametrize(
    ("rule", "words"),
    [("opening", "opens an area"), ("safe", "may show a number"), ("any", "10/81")],
)
async def test_a_hint_before_the_first_click_follows_the_rule(
    fake_time: FakeTime, tmp_path: Path, rule: str, words: str
) -> None:
    clock = PausableClock(fake_time)
    game = Game(9, 9, 10, placer=placer_for_rule(rule, 1), clock=clock)
    app = app_for(game, clock, tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        assert app.hint_thread is not None
        app.hint_thread.join(10)
        await pilot.pause()
        await pilot.pause()
        message = text_of(app, "#message")
        assert words in message
        assert "risks a mine, 12%" not in message


async def test_a_hint_on_a_board_of_a_million_squared(fake_time: FakeTime, tmp_path: Path) -> None:
    clock = PausableClock(fake_time)
    r = c = 500_000
    # A mine at (r, c) and its 5x5 block open but for it and one cell: that one is safe.
    opened = [(r + i, c + j) for i in range(-2, 3) for j in range(-2, 3) if (i, j) != (0, 0)]
    opened.remove((r + 2, c + 2))
    game = Game.from_position(10**6, 10**6, [(r, c)], revealed=opened, clock=clock)
    app = app_for(game, clock, tmp_path, cursor=(r + 1, c + 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert app.hint_thread is not None
        app.hint_thread.join(30)
        await pilot.pause()
        await pilot.pause()
        assert app.board.cursor == (r + 2, c + 2)
        message = text_of(app, "#message")
        assert "is safe" in message
        assert "limit" not in message


# --- the end and the middle of a game ------------------------------------------------------


async def test_after_a_win_every_mine_shows_flagged_and_the_counter_reads_0(
    make_app: AppMaker,
) -> None:
    app = make_app(3, 3, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("j", "j", "l", "l", "space")
        assert app.game.status is GameStatus.WON
        await pilot.pause()
        first = next(iter(app.board.render_line(0)))
        assert first.text.startswith(THEMES["classic"].glyphs[Cell.FLAG])
        status = text_of(app, "#status")
        assert "mines left 0" in status
        assert "Won!" in status


@pytest.mark.parametrize("key", ["n", "1"])
async def test_leaving_a_game_in_progress_asks_first(make_app: AppMaker, key: str) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")
        game = app.game
        await pilot.press(key)
        assert app.game is game
        assert app.is_running
        assert f"press {key} again" in text_of(app, "#message")
        await pilot.press("f")  # any other key: the question is dropped
        await pilot.press(key)
        assert app.game is game, "asked again after another key"
        await pilot.press(key)
        assert app.game is not game


# --- footer and themes ---------------------------------------------------------------------


def footer_keys(app: MinesApp) -> dict[str, str]:
    return {key.key: key.description for key in app.query(FooterKey)}


async def settled_footer(app: MinesApp, pilot: Pilot[None]) -> dict[str, str]:
    """The footer's keys once it has recomposed after a change of bindings (it does so late)
    and been drawn."""
    await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
    return footer_keys(app)


@pytest.mark.parametrize("practice", [False, True])
async def test_the_footer_shows_only_keys_that_work_now(make_app: AppMaker, practice: bool) -> None:
    app = make_app(4, 4, [(0, 0)], practice=practice)
    async with app.run_test(size=(160, 24)) as pilot:
        keys = await settled_footer(app, pilot)
        assert ("u" in keys) is practice
        for key in ["n", "1", "2", "3", "t", "p", "q"]:
            assert key in keys
        await pilot.press("u")
        if not practice:
            assert "practice" in text_of(app, "#message"), "the key still explains itself"


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_cell_under_the_cursor_reads_at_4_5_to_1(name: str) -> None:
    theme = THEMES[name]
    for cell in Cell:
        style = theme.segments(cursor=True)[ord(cell.value)].style
        assert style is not None
        if name == "mono":
            # No colour at all: the terminal's own two colours, reversed.
            assert style.color is None
            assert style.bgcolor is None
            assert style.reverse
            continue
        assert style.color is not None
        assert style.bgcolor is not None
        ratio = contrast(style.color.get_truecolor(), style.bgcolor.get_truecolor())
        assert ratio >= MIN_CONTRAST, f"{name} {cell.name}: {ratio:.2f}"


def test_the_exploded_mine_keeps_its_colour_under_the_cursor() -> None:
    for theme in THEMES.values():
        under = theme.cursor_style(Cell.EXPLODED)
        assert under.bgcolor == theme.styles[Cell.EXPLODED].bgcolor


async def test_mono_takes_the_colour_out_of_the_app_too(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)], theme="mono")
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "mines-mono"
        await pilot.press("t")
        assert app.theme != "mines-mono"


async def test_the_cells_a_chord_would_open_are_marked_around_a_number(
    make_app: AppMaker,
) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("l", "space")  # (0, 1) shows 1; the cursor stays on it
        await pilot.pause()
        marked = THEMES["classic"].neighbour_segment()
        top = list(app.board.render_line(0))
        assert top[0] == marked, "(0, 0), hidden beside the 1, is marked"
        second = list(app.board.render_line(1))
        assert second[0] == marked
        assert second[3] != marked, "(1, 3) is not beside the 1"
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert next(iter(app.board.render_line(0))) != marked, "off the number, no marks"


async def test_with_marks_f_goes_flag_question_mark_hidden(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)], marks=True)
    async with app.run_test() as pilot:
        await pilot.press("j", "j")  # (2, 0)
        await pilot.press("f")
        assert app.game.view(2, 0, 1, 1)[2, 0] is Cell.FLAG
        await pilot.press("f")
        assert app.game.view(2, 0, 1, 1)[2, 0] is Cell.HIDDEN, "a mark is not a flag"
        assert app.game.mines_left == 1
        await pilot.press("l")
        await pilot.pause()
        assert next(iter(app.board.render_line(2))).text == "? "
        await pilot.press("h", "f")
        await pilot.pause()
        assert next(iter(app.board.render_line(2))).text != "? "
        assert app.game.view(2, 0, 1, 1)[2, 0] is Cell.HIDDEN


async def test_without_marks_f_only_flags_and_unflags(make_app: AppMaker) -> None:
    app = make_app(4, 4, [(0, 0)])
    async with app.run_test() as pilot:
        await pilot.press("j", "j", "f", "f", "l")
        await pilot.pause()
        assert next(iter(app.board.render_line(2))).text != "? "
        assert app.game.view(2, 0, 1, 1)[2, 0] is Cell.HIDDEN
