"""The browser client in Debian's chromium: a game won, a game lost, flags and the timer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

from tests.server.conftest import layout
from tests.server.processes import server_process

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():
    pytest.skip("needs Debian's chromium at /usr/bin/chromium", allow_module_level=True)


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    with server_process(f"sqlite:///{tmp_path / 'browser.sqlite3'}") as server:
        yield server.url


@pytest.fixture
def page(url: str) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page()
            tab.goto(url)
            yield tab
        finally:
            browser.close()


def cell(page: Page, row: int, col: int) -> Locator:
    return page.locator(f'#board [data-row="{row}"][data-col="{col}"]')


def new_game(page: Page, seed: int, first_click: str) -> None:
    page.select_option("#preset", "beginner")
    page.fill("#seed", str(seed))
    page.select_option("#first-click", first_click)
    page.click("#start")
    expect(page.locator("#status")).to_have_text("Playing")
    expect(page.locator("#board .cell")).to_have_count(81)


def test_win_with_a_flag_and_a_running_then_frozen_timer(page: Page, url: str) -> None:
    new_game(page, seed=5, first_click="opening")
    mines = layout(5, 9, 9, 10, (0, 0))
    expect(page.locator("#timer")).to_have_text("0")
    cell(page, 0, 0).click()
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "H")
    expect(page.locator("#timer")).to_have_text("1", timeout=3000)  # it runs after the reveal

    flagged = sorted(mines)[0]
    cell(page, *flagged).click(button="right")
    expect(cell(page, *flagged)).to_have_attribute("data-symbol", "F")
    expect(page.locator("#mines-left")).to_have_text("9")

    for row in range(9):
        for col in range(9):
            target = cell(page, row, col)
            if (row, col) in mines or target.get_attribute("data-symbol") != "H":
                continue
            target.click()
            expect(target).not_to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_have_text("You won!")
    frozen = page.locator("#timer").inner_text()
    page.wait_for_timeout(1500)
    expect(page.locator("#timer")).to_have_text(frozen)  # stopped at the win

    game_id = page.evaluate("location.hash.slice(1)")
    server_view = httpx.get(f"{url}/api/games/{game_id}").json()["view"]
    assert server_view["status"] == "WON"
    assert int(server_view["elapsed"]) == int(frozen)


def test_loss_shows_the_mines(page: Page) -> None:
    new_game(page, seed=3, first_click="any")
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")  # "any" ignores the first click
    row, col = sorted(mines)[0]
    cell(page, row, col).click()
    expect(page.locator("#status")).to_have_text("Boom — you lost.")
    expect(cell(page, row, col)).to_have_attribute("data-symbol", "X")
    expect(page.locator('#board [data-symbol="M"]')).to_have_count(len(mines) - 1)
    expect(page.locator("#after")).to_be_visible()


def test_keyboard_play_replay_and_leaderboard(page: Page) -> None:
    new_game(page, seed=3, first_click="any")
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    board = page.locator("#board")
    board.focus()
    page.keyboard.press("f")  # the cursor starts at the top left
    expect(cell(page, 0, 0)).to_have_attribute("data-symbol", "F")
    page.keyboard.press("f")
    expect(cell(page, 0, 0)).to_have_attribute("data-symbol", "H")
    row, col = sorted(mines)[0]
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(col):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_have_text("Boom — you lost.")
    page.click("#replay")
    expect(page.locator("#replay-step")).to_have_text("move 3 of 3", timeout=5000)
    expect(cell(page, row, col)).to_have_attribute("data-symbol", "X")
    expect(page.locator("#leaderboard")).to_be_visible()
