"""The mouse as in the classic game, in Debian's chromium: every order of two buttons over hidden
cells and numbers, the pressed look, a right click on a number, question marks."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from mines.grid import block_around
from tests.server.browsing import (
    DESKTOP,
    cell,
    needs_chromium,
    new_game,
    open_page,
    server_view,
    symbols,
)
from tests.server.conftest import layout

pytestmark = [pytest.mark.browser, needs_chromium]

SEED, FIRST = 555, (4, 4)
"""The issue's board: Beginner, seed 555, first click (4, 4)."""
MINES = layout(SEED, 9, 9, 10, FIRST)
PRESSED = re.compile(r"\bpressed\b")
BUTTON = {"L": "left", "R": "right", "M": "middle"}
ORDERS = [
    (press, release)
    for press, release in itertools.product(("LR", "RL"), repeat=2)  # every order of the two
]


@pytest.fixture
def page(browser: Browser, url: str) -> Page:
    return open_page(browser, url, DESKTOP)


def point_at(page: Page, row: int, col: int) -> None:
    box = cell(page, row, col).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def buttons(page: Page, row: int, col: int, press: str, release: str) -> None:
    """Over the cell: press the buttons in `press` order, then release them in `release` order."""
    point_at(page, row, col)
    for name in press:
        page.mouse.down(button=BUTTON[name])  # type: ignore[arg-type]
    for name in release:
        page.mouse.up(button=BUTTON[name])  # type: ignore[arg-type]


def settled(page: Page) -> None:
    """Wait until every move the page sent so far is answered: moves go one at a time, in
    order, so once a flag sent after them is drawn (and taken off again), they are too."""
    far = next((r, c) for r, c in [(8, 8), (0, 8), (8, 0), (0, 0)] if symbol(page, r, c) == "H")
    buttons(page, *far, "R", "R")
    expect(cell(page, *far)).to_have_attribute("data-symbol", "F")
    buttons(page, *far, "R", "R")
    expect(cell(page, *far)).to_have_attribute("data-symbol", "H")


def symbol(page: Page, row: int, col: int) -> str:
    return symbols(page)[row][col]


def opened(page: Page, url: str) -> str:
    """A Beginner game on the issue's board, its first click made."""
    game_id = new_game(page, seed=SEED)
    cell(page, *FIRST).click()
    expect(cell(page, *FIRST)).to_have_attribute("data-symbol", "0")
    return game_id


def neighbours(row: int, col: int) -> list[tuple[int, int]]:
    return [cell for cell in block_around(9, 9, row, col) if cell != (row, col)]


def a_number_to_chord(page: Page) -> tuple[int, int]:
    """A revealed number with hidden safe neighbours that a chord would open."""
    shown = symbols(page)
    for row, col in itertools.product(range(9), range(9)):
        if shown[row][col] in "12345678":
            around = neighbours(row, col)
            if any(shown[r][c] == "H" and (r, c) not in MINES for r, c in around):
                return row, col
    raise AssertionError("no number to chord on this board")


@pytest.mark.parametrize(("press", "release"), ORDERS)
def test_both_buttons_over_a_hidden_mine_never_open_or_flag_it(
    page: Page, url: str, press: str, release: str
) -> None:
    game_id = opened(page, url)
    shown = symbols(page)
    mine = next(
        (r, c)
        for r, c in sorted(MINES)
        if shown[r][c] == "H" and any(shown[a][b] in "12345678" for a, b in neighbours(r, c))
    )
    buttons(page, *mine, press, release)
    settled(page)
    view = server_view(url, game_id)
    assert view["status"] == "IN_PROGRESS"
    assert view["cells"][mine[0]][mine[1]] == "H"  # neither revealed nor flagged
    expect(cell(page, *mine)).to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_have_text("Playing")
    expect(page.locator("#error")).to_have_text("")


@pytest.mark.parametrize(("press", "release"), [*ORDERS, ("M", "M")])
def test_both_buttons_or_the_middle_one_on_a_number_chord_it(
    page: Page, url: str, press: str, release: str
) -> None:
    game_id = opened(page, url)
    number = a_number_to_chord(page)
    for mine in sorted(set(neighbours(*number)) & MINES):
        buttons(page, *mine, "R", "R")
        expect(cell(page, *mine)).to_have_attribute("data-symbol", "F")
    safe = [rc for rc in neighbours(*number) if symbol(page, *rc) == "H" and rc not in MINES]
    assert safe
    buttons(page, *number, press, release)
    for rc in safe:
        expect(cell(page, *rc)).not_to_have_attribute("data-symbol", "H")
    settled(page)
    view = server_view(url, game_id)
    assert view["status"] == "IN_PROGRESS"
    assert all(view["cells"][r][c] not in "HF" for r, c in safe)
    assert view["mines_left"] == 10 - len(set(neighbours(*number)) & MINES)  # no flag added


def test_a_right_click_on_a_number_is_no_alarm(page: Page, url: str) -> None:
    opened(page, url)
    number = a_number_to_chord(page)
    buttons(page, *number, "R", "R")
    # Said politely, as nothing happens in the classic game, and never as an alert.
    expect(page.locator("#announce")).to_have_text("That move is not possible right now.")
    expect(page.locator("#error")).to_have_text("")
    settled(page)
    expect(cell(page, *number)).to_have_attribute("data-symbol", symbol(page, *number))


def test_held_buttons_draw_the_cells_they_would_open_pressed(page: Page, url: str) -> None:
    opened(page, url)
    shown = symbols(page)
    hidden = [(r, c) for r, c in itertools.product(range(9), range(9)) if shown[r][c] == "H"]
    first, second = hidden[0], hidden[-1]
    point_at(page, *first)
    page.mouse.down()
    expect(cell(page, *first)).to_have_class(PRESSED)
    expect(page.locator("#face")).to_have_attribute("data-face", "oh")
    point_at(page, *second)  # the pressed look follows the pointer
    expect(cell(page, *second)).to_have_class(PRESSED)
    expect(page.locator("#board .pressed")).to_have_count(1)
    page.mouse.move(2, 2)  # off the board: nothing pressed, and the release does nothing
    expect(page.locator("#board .pressed")).to_have_count(0)
    page.mouse.up()
    expect(page.locator("#face")).to_have_attribute("data-face", "smile")

    number = a_number_to_chord(page)
    around = [rc for rc in neighbours(*number) if symbol(page, *rc) == "H"]
    point_at(page, *number)
    page.mouse.down(button="right")
    page.mouse.down(button="left")
    pressed = page.locator("#board .pressed")
    expect(pressed).to_have_count(len(around))  # the chord's hidden neighbours, pressed
    for rc in around:
        expect(cell(page, *rc)).to_have_class(PRESSED)
    page.mouse.up(button="left")
    page.mouse.up(button="right")
    expect(pressed).to_have_count(0)
    settled(page)
    assert server_view(url, page.evaluate("location.hash.slice(1)"))["status"] == "IN_PROGRESS"


def test_question_marks_are_off_by_default_then_drawn_and_announced(page: Page, url: str) -> None:
    opened(page, url)
    target = next(
        (r, c) for r, c in itertools.product(range(9), range(9)) if symbol(page, r, c) == "H"
    )
    here = cell(page, *target)
    buttons(page, *target, "R", "R")
    expect(here).to_have_attribute("data-symbol", "F")
    buttons(page, *target, "R", "R")  # off: a flag goes back to hidden
    expect(here).to_have_attribute("data-look", "H")

    page.locator("details.more").evaluate("(more) => { more.open = true; }")
    page.check("#marks")
    buttons(page, *target, "R", "R")
    expect(here).to_have_attribute("data-symbol", "F")
    buttons(page, *target, "R", "R")  # on: the flag becomes a question mark
    expect(here).to_have_attribute("data-look", "?")
    expect(here).to_have_text("?")
    expect(here).to_have_attribute("aria-label", f"row {target[0] + 1}, column {target[1] + 1}, "
                                   "hidden, marked with a question mark")  # fmt: skip
    expect(page.locator("#announce")).to_contain_text("Question mark on")
    assert led_value(page) == 10  # a question mark is no flag
    page.reload()  # kept in this browser
    expect(cell(page, *target)).to_have_attribute("data-look", "?")
    buttons(page, *target, "R", "R")  # and a question mark goes back to hidden
    expect(cell(page, *target)).to_have_attribute("data-look", "H")
    expect(page.locator("#announce")).to_contain_text("Question mark removed")


def led_value(page: Page) -> int:
    return int(page.locator("#mines-left").get_attribute("data-value") or "nan")
