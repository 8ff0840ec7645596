"""The browser client on a phone (390 x 844, touch) in Debian's chromium, with real touch events."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.server.browsing import (
    PHONE,
    cell,
    led,
    needs_chromium,
    new_game,
    open_page,
    server_view,
)
from tests.server.conftest import layout

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def page(browser: Browser, url: str) -> Page:
    return open_page(browser, url, PHONE)


def long_press(page: Page, target: Locator, hold_ms: int = 800) -> None:
    """A finger held on the cell, as touch events through the browser's input pipeline."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    session = page.context.new_cdp_session(page)
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(hold_ms)
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def test_a_game_won_by_touch(page: Page, url: str) -> None:
    game_id = new_game(page, seed=5)
    mines = layout(5, 9, 9, 10, (0, 0))
    cell(page, 0, 0).tap()
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "H")
    flagged = sorted(mines)[0]
    long_press(page, cell(page, *flagged))
    expect(cell(page, *flagged)).to_have_attribute("data-symbol", "F")
    for row in range(9):
        for col in range(9):
            target = cell(page, row, col)
            if (row, col) in mines or target.get_attribute("data-symbol") != "H":
                continue
            target.tap()
            expect(target).not_to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_contain_text("You won")
    assert server_view(url, game_id)["status"] == "WON"
    assert led(page, "mines-left") == 0


def test_a_long_press_flags_without_revealing_and_unflagging_a_mine_does_not_lose(
    page: Page, url: str
) -> None:
    game_id = new_game(page, seed=3, first_click="any")
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    cell(page, *next((r, c) for r in range(9) for c in range(9) if (r, c) not in mines)).tap()
    mine = sorted(mines)[0]
    target = cell(page, *mine)
    long_press(page, target)
    expect(target).to_have_attribute("data-symbol", "F")
    page.wait_for_timeout(500)  # whatever follows the touch has had its chance to act
    expect(target).to_have_attribute("data-symbol", "F")
    expect(page.locator("#error")).to_have_text("")
    assert server_view(url, game_id)["cells"][mine[0]][mine[1]] == "F"

    long_press(page, target)  # unflag the mine: it must not also reveal it
    expect(target).to_have_attribute("data-symbol", "H")
    page.wait_for_timeout(500)
    view = server_view(url, game_id)
    assert view["status"] == "IN_PROGRESS"
    assert view["cells"][mine[0]][mine[1]] == "H"
    expect(page.locator("#error")).to_have_text("")
    expect(page.locator("#status")).to_have_text("Playing")


def test_the_mode_switch_makes_a_tap_flag(page: Page) -> None:
    new_game(page, seed=5)
    page.locator("#mode").tap()
    expect(page.locator("#mode")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#mode")).to_have_text("Tap flags")
    cell(page, 4, 4).tap()
    expect(cell(page, 4, 4)).to_have_attribute("data-symbol", "F")
    long_press(page, cell(page, 0, 0))  # in flag mode a long press reveals
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "H")
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "F")


def test_a_tap_on_a_number_chords(page: Page) -> None:
    new_game(page, seed=5)
    cell(page, 0, 0).tap()
    number = page.locator("#board [data-symbol='1']").first
    expect(number).to_be_visible()
    with page.expect_request(lambda request: request.url.split("?")[0].endswith("/chord")):
        number.tap()


def test_the_expert_board_opens_whole_and_zooms_to_finger_sized_cells(page: Page) -> None:
    new_game(page, seed=None, board="expert")
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing cut off
    for selector in ("#keys-help", ".tools", "#new-game"):
        box = page.locator(selector).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width + 0.5, selector
    board = page.locator("#board").bounding_box()
    assert board is not None
    assert board["x"] + board["width"] <= width  # the whole board, at the cells that fit
    # The page's own gestures pan and zoom the board (a pinch, a swipe): not the browser's.
    assert page.locator("#board").evaluate("(e) => getComputedStyle(e).touchAction") == "none"
    for _ in range(6):  # 1.25 times each: about 42 px
        page.locator("#zoom-in").tap()
    one = cell(page, 0, 0).bounding_box()
    assert one is not None
    assert one["width"] >= 36  # zoomed in: finger-sized cells, and the board pans
    assert page.evaluate(
        "(v) => v.scrollWidth > v.clientWidth", page.locator("#viewport").element_handle()
    )
    expect(page.locator("#window-info")).to_contain_text(
        re.compile(r"Showing rows \d+.\d+, columns")
    )
    page.locator("#zoom-fit").tap()  # back to the whole board
    expect(page.locator("#pan")).to_be_hidden()
    board = page.locator("#board").bounding_box()
    assert board is not None
    assert board["width"] <= width
