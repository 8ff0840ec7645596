"""The review screen through the pilot: r on a finished game only, the board before each move
shaded by the solver's exact chances, the moved cell marked, n/b, g/G, the cursor's chance in
words, and escape back to the game."""

from __future__ import annotations

import threading

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from mines.record import GameRecord
from mines.solver import Review, review
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.help import key_lines
from mines.tui.review_screen import MOVED, ReviewBoard, ReviewScreen, chance_words, shade_glyph
from mines.tui.themes import THEMES
from tests.patience import PATIENCE
from tests.sample_records import won_record
from tests.tui.conftest import AppMaker, drawn, footer_drawn, footer_keys, settle

MINES = [(0, 0), (3, 3)]


def text(app: MinesApp, name: str) -> str:
    return str(app.screen.query_one(name, Static).render())


async def finish(app: MinesApp, pilot: Pilot[None]) -> None:
    """On the 4x4 board: open (0, 1), then (1, 1) beside it, then the mine at (3, 3)."""
    await pilot.press("l", "space", "j", "space", "j", "j", "l", "l", "space")
    assert app.game.status.is_over


async def open_review(app: MinesApp, pilot: Pilot[None]) -> ReviewScreen:
    await pilot.press("r")
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert screen.review is not None
    return screen


async def test_r_reviews_a_finished_game_move_by_move_with_the_solvers_chances(
    make_app: AppMaker,
) -> None:
    app = make_app(4, 4, MINES)
    async with app.run_test(size=(100, 30)) as pilot:
        await finish(app, pilot)
        assert "r reviews every move" in app.message
        screen = await open_review(app, pilot)
        expected = review(app.game.record())
        assert text(app, "#review-summary") == expected.summary()
        assert text(app, "#review-move") == (
            f"Move 1 of 3: open (0, 1). {expected.moves[0].comment}"
        ), "the solver's sentence, said once"
        board = screen.query_one(ReviewBoard)
        # Before the first click every cell is as likely a mine: 2 in 16, the lightest shade.
        assert board.cell(2, 2).text == shade_glyph(expected.moves[0].chances.chance(2, 2)) + " "
        assert board.cell(0, 1).text.endswith(MOVED), "the moved cell is marked"
        await pilot.press("n")
        assert screen.position == 1
        moved = expected.moves[1]
        assert text(app, "#review-move").startswith("Move 2 of 3: open (1, 1). ")
        assert moved.comment in text(app, "#review-move")
        for row in range(4):
            for col in range(4):
                if moved.board[row, col] in (Cell.HIDDEN, Cell.FLAG):
                    glyph = shade_glyph(moved.chances.chance(row, col))
                    assert board.cell(row, col).text[0] == glyph, (row, col)
        assert any(MOVED in line for line in drawn(app))
        # The cursor starts on the moved cell; hjkl move it and say the cell's chance.
        await pilot.press("l")
        words = chance_words(moved.chances, moved.board, 1, 2)
        assert text(app, "#review-cell") == f"(1, 2): {words}"
        assert "chance of a mine" in words or "certainly" in words
        # The end: the board after the last move, no chances.
        await pilot.press("end")
        assert text(app, "#review-move").startswith("The end (3 moves): lost")
        assert board.cell(3, 3).text[0] == THEMES["classic"].glyphs[Cell.EXPLODED]
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)


async def test_g_and_shift_g_go_to_the_next_and_previous_guess(make_app: AppMaker) -> None:
    app = make_app(4, 4, MINES)
    async with app.run_test(size=(100, 30)) as pilot:
        await finish(app, pilot)
        screen = await open_review(app, pilot)
        expected = review(app.game.record())
        guesses = [m.index for m in expected.moves if m.risk > 0]
        assert guesses == [0, 1, 2]
        await pilot.press("end")
        await pilot.press("G")
        assert screen.position == 2
        await pilot.press("G", "G")
        assert screen.position == 0
        await pilot.press("G")
        assert screen.position == 0
        assert text(app, "#review-cell") == "No guess before this move."
        await pilot.press("g")
        assert screen.position == 1


async def test_a_game_in_progress_is_not_reviewed(make_app: AppMaker) -> None:
    app = make_app(4, 4, MINES)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l", "space")
        await pilot.press("r")
        assert not isinstance(app.screen, ReviewScreen)
        assert app.message == "The review opens once the game is over."


async def test_the_screen_itself_refuses_a_record_in_progress() -> None:
    data = won_record().to_dict()
    data["moves"] = data["moves"][:1]
    data["status"] = "IN_PROGRESS"
    screen = ReviewScreen(GameRecord.from_dict(data), THEMES["mono"])

    class Only(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = Only()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = str(screen.query_one("#review-summary", Static).render())
        assert said.startswith("No review: a review needs a finished game")
        assert screen.review is None


def test_the_help_lists_r() -> None:
    assert ("r", "Review a finished game move by move") in key_lines(MinesApp.BINDINGS)


async def test_closing_the_screen_while_the_solver_works_is_safe(
    make_app: AppMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big game's review takes seconds: escape before it ends, and its result goes nowhere."""
    from mines.tui import review_screen

    go = threading.Event()

    def slow(record: GameRecord) -> Review:
        assert go.wait(PATIENCE)
        return review(record)

    monkeypatch.setattr(review_screen, "review", slow)
    app = make_app(4, 4, MINES)
    async with app.run_test(size=(100, 30)) as pilot:
        await finish(app, pilot)
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("n")  # the app goes on
        assert not app.game.status.is_over


async def test_the_review_is_a_screen_of_its_own_whose_keys_never_touch_the_game(
    make_app: AppMaker,
) -> None:
    """A won practice game: under its review, u, U, 1 1, n and escape act on the review (or on
    nothing), never on the game; the footer lists the review's keys only."""
    app = make_app(4, 4, MINES, practice=True)
    async with app.run_test(size=(120, 30)) as pilot:
        # Open (0, 1) and (1, 1), then every other safe cell: a win.
        for row, col in [(r, c) for r in range(4) for c in range(4) if (r, c) not in MINES]:
            app.board.move_cursor(row, col)
            await pilot.press("space")
            if app.game.status.is_over:
                break
        assert app.game.status is GameStatus.WON
        saved = list(app.saved)
        screen = await open_review(app, pilot)
        await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
        keys = footer_keys(app)
        assert "Next move" in keys, keys
        assert "Back to the game" in keys, keys
        for word in ("Undo", "Redo", "Hint", "Pause", "Size", "New", "Theme"):
            assert word not in keys, (word, keys)
        await pilot.press("end", "u", "U", "ctrl+r", "1", "1", "2", "2", "p", "t", "question_mark")
        assert app.screen is screen
        assert app.game.status is GameStatus.WON
        await pilot.press("escape")
        assert app.screen is not screen
        assert app.game.status is GameStatus.WON
        assert app.saved == saved, "no second record of the same game"
        assert app.game.rows == 4


async def test_a_flag_on_a_certain_mine_is_said_once(make_app: AppMaker) -> None:
    """(1, 3) opens all but the first column, whose numbers give its two mines away."""
    app = make_app(3, 5, [(0, 0), (2, 0)])
    async with app.run_test(size=(100, 30)) as pilot:
        for (row, col), key in [((1, 3), "space"), ((0, 0), "f"), ((1, 0), "space")]:
            app.board.move_cursor(row, col)
            await pilot.press(key)
        assert app.game.status is GameStatus.WON
        await open_review(app, pilot)
        await pilot.press("n")
        said = text(app, "#review-move")
        assert said.startswith("Move 2 of 3: flag (0, 0)."), said
        assert said.lower().count("a flag on a certain mine") == 1, said
