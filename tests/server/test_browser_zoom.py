"""The board in every hand: it fits the screen, zooms and pans, and the page never jumps."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from mines.presets import PRESETS
from tests.server.browsing import (
    AXE,
    PHONE,
    WAIT_MS,
    axe_serious,
    blank_page,
    cell,
    custom_game,
    game_token,
    needs_chromium,
    new_game,
    open_page,
    symbols,
)
from tests.server.conftest import PASSWORD, layout

pytestmark = [pytest.mark.browser, needs_chromium]

T = TypeVar("T")

LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
"""The desktop the issue was seen on."""
SCREENS = [pytest.param(LAPTOP, id="1366x768"), pytest.param(PHONE, id="390x844")]


def start(page: Page, seed: int, board: str, first_click: str = "opening") -> None:
    """A new game from the form, as `new_game` starts one, however often it is called."""
    page.evaluate("document.querySelector('.more').open = false")
    new_game(page, seed, first_click=first_click, board=board)
    page.evaluate("document.querySelector('.more').open = false")
    # The form shrank above the board: the frame fits it again at the next frames.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def at_rest(page: Page) -> None:
    """A zoom gesture scales the board until it rests; then the board is laid out at its size."""
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bzooming\b"))


def cell_size(page: Page) -> float:
    size: float = page.evaluate(
        "() => document.querySelector('#board .cell').getBoundingClientRect().width"
    )
    return size


def fits(page: Page) -> dict[str, Any]:
    """Where the board is against its frame and the page: every figure a fit depends on."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const viewport = document.getElementById('viewport');
          const board = document.getElementById('board').getBoundingClientRect();
          return {
            page: document.documentElement.scrollWidth, width: innerWidth,
            boardRight: board.right, boardBottom: board.bottom + scrollY, height: innerHeight,
            hidden: viewport.scrollWidth - viewport.clientWidth,
            hiddenRows: viewport.scrollHeight - viewport.clientHeight,
          };
        }"""
    )
    return found


def assert_fits(page: Page, what: str) -> None:
    found = fits(page)
    assert found["page"] <= found["width"], (what, found)  # no horizontal scroll of the page
    assert found["hidden"] <= 0, (what, found)  # seen whole
    assert found["hiddenRows"] <= 0, (what, found)
    assert found["boardRight"] <= found["width"], (what, found)
    assert found["boardBottom"] <= found["height"], (what, found)  # and above the fold


def until(page: Page, read: Callable[[], T], check: Callable[[T], bool]) -> T:
    """What `read` gives once `check` holds, waiting for the page at most `WAIT_MS`."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        value = read()
        if check(value):
            return value
        assert time.monotonic() < deadline, value
        page.wait_for_timeout(50)


def heard(messages: list[str], message: ConsoleMessage) -> None:
    messages.append(f"{message.type}: {message.text}")


def visible_part(page: Page) -> str:
    text: str = page.locator("#window-info").inner_text()
    return text


@pytest.mark.parametrize("screen", SCREENS)
def test_every_preset_opens_whole_at_the_largest_cells_that_fit(
    browser: Browser, url: str, screen: dict[str, Any]
) -> None:
    page = open_page(browser, url, screen)
    sizes = {}
    for name in PRESETS:
        start(page, 1, name)
        expect(page.locator("#board .cell")).to_have_count(PRESETS[name].rows * PRESETS[name].cols)
        page.wait_for_timeout(100)  # the frame sizes the board at the next frame
        assert_fits(page, name)
        sizes[name] = cell_size(page)
        assert sizes[name] >= 10, (name, sizes)
    # The largest that fits: one more pixel a cell and the board would be wider than its
    # column, or would push the status line below it out of sight.
    expert = PRESETS["expert"]
    room, status = page.evaluate(
        """() => [document.querySelector('.game').clientWidth - 24,
                  document.getElementById('status').getBoundingClientRect().bottom]"""
    )
    height = page.evaluate("innerHeight")
    assert status <= height
    assert (sizes["expert"] + 1) * expert.cols > room or status + expert.rows > height, (
        sizes,
        room,
        status,
    )
    assert sizes["beginner"] > sizes["intermediate"] >= sizes["expert"]


@pytest.mark.parametrize("screen", SCREENS)
def test_every_preset_race_board_fits(browser: Browser, url: str, screen: dict[str, Any]) -> None:
    page = blank_page(browser, screen)
    for name in PRESETS:
        created = httpx.post(f"{url}/api/races", json={"player": "Ann", "preset": name})
        assert created.status_code == 201, created.text
        page.goto(f"{url}/race/{created.json()['room']['id']}")
        expect(page.locator("#board .cell")).to_have_count(PRESETS[name].rows * PRESETS[name].cols)
        page.wait_for_timeout(100)
        found = fits(page)
        assert found["page"] <= found["width"], (name, found)
        assert found["hidden"] <= 0, (name, found)  # every column in sight: none cut in half
        assert found["boardRight"] <= found["width"], (name, found)
        assert cell_size(page) >= 10


def test_expert_s_end_of_game_figures_show_without_scrolling(browser: Browser, url: str) -> None:
    page = open_page(browser, url, LAPTOP)
    start(page, 7, "expert", "any")
    mine = sorted(layout(7, 16, 30, 99, (0, 0), rule="any"))[0]
    cell(page, *mine).click()
    result = page.locator("#result")
    expect(result).to_contain_text("3BV")
    box = result.bounding_box()
    assert box is not None
    assert page.evaluate("scrollY") == 0
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= 768, box


def test_ctrl_wheel_and_keys_zoom_remembered_per_board_size_and_reveal_nothing(
    browser: Browser, url: str
) -> None:
    page = open_page(browser, url, LAPTOP)
    start(page, 3, "intermediate")
    fitted = cell_size(page)
    box = page.locator("#viewport").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 40, box["y"] + 40)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)  # a notch in
    page.keyboard.up("Control")
    until(page, lambda: cell_size(page), lambda value: value > fitted * 1.2)
    at_rest(page)
    zoomed = cell_size(page)
    assert all(set(line) == {"H"} for line in symbols(page))  # nothing revealed
    page.locator("#board").press("-")
    until(page, lambda: cell_size(page), lambda value: value < zoomed)
    page.locator("#board").press("+")
    until(page, lambda: cell_size(page), lambda value: value == zoomed)
    assert all(set(line) == {"H"} for line in symbols(page))

    start(page, 3, "beginner")  # another size: its own (fitted) size
    page.wait_for_timeout(100)
    assert cell_size(page) != zoomed
    start(page, 4, "intermediate")  # this size again: the zoom it was left at
    until(page, lambda: cell_size(page), lambda value: value == zoomed)
    page.click("#zoom-fit")
    until(page, lambda: cell_size(page), lambda value: value == fitted)


def toucher(page: Page) -> Callable[[str, list[tuple[float, float]]], None]:
    """Fingers on the page's screen, through Chromium's DevTools (one session for a gesture)."""
    session = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        session.send(
            "Input.dispatchTouchEvent",
            {
                "type": kind,
                "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
            },
        )

    return touch


def test_a_pinch_zooms_and_a_swipe_pans_on_a_phone_and_neither_reveals(
    browser: Browser, url: str
) -> None:
    page = open_page(browser, url, PHONE)
    start(page, 5, "expert")
    fitted = cell_size(page)
    box = page.locator("#viewport").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch = toucher(page)
    touch("touchStart", [(x - 20, y), (x + 20, y)])
    for step in range(1, 9):
        touch("touchMove", [(x - 20 - 8 * step, y), (x + 20 + 8 * step, y)])
    touch("touchEnd", [])
    until(page, lambda: cell_size(page), lambda value: value > fitted * 2)
    expect(page.locator("#pan")).to_be_visible()  # part of the board is out of sight now
    before = page.evaluate("document.getElementById('viewport').scrollLeft")
    touch("touchStart", [(x + 60, y)])
    for step in range(1, 7):
        touch("touchMove", [(x + 60 - 15 * step, y)])  # a swipe to the left
    touch("touchEnd", [])
    after = page.evaluate("document.getElementById('viewport').scrollLeft")
    assert after > before + 60
    page.wait_for_timeout(600)  # past a long press: a swipe neither flags nor reveals
    assert all(set(line) == {"H"} for line in symbols(page))


def test_wheel_and_drag_pan_a_big_board_the_window_follows_and_nothing_is_revealed(
    browser: Browser, url: str
) -> None:
    page = open_page(browser, url, LAPTOP, bypass_csp=True)
    custom_game(page, 300, 300, 100)
    expect(page.locator("#board .cell")).to_have_count(100 * 100)
    expect(page.locator("#pan")).to_be_visible()
    expect(page.locator("#minimap")).to_be_visible()
    first = visible_part(page)
    assert first.startswith("Showing rows 1\N{EN DASH}"), first
    viewport = page.locator("#viewport")
    box = viewport.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 400)  # the wheel scrolls the board down
    until(page, lambda: visible_part(page), lambda value: value != first)
    assert page.evaluate("document.getElementById('viewport').scrollTop") > 0

    # A drag to the left and up, far past the window's 100 columns: the window follows.
    for _ in range(4):
        x, y = box["x"] + box["width"] - 20, box["y"] + box["height"] - 20
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 300, y - 200, steps=6)
        page.mouse.up()
        page.wait_for_timeout(300)
    expect(page.locator("#board .row").first).not_to_have_attribute("aria-rowindex", "1")
    columns = page.evaluate("() => Number(document.querySelector('#board .cell').dataset.col)")
    assert columns > 0  # a window further right
    assert "columns 1\N{EN DASH}" not in visible_part(page)
    game_id = page.evaluate("location.hash.slice(1)")
    view = httpx.get(f"{url}/api/games/{game_id}?top=0&left=0&height=100&width=100").json()
    assert view["view"]["status"] == "IN_PROGRESS"
    assert all(set(line) == {"H"} for line in view["view"]["cells"])  # no drag revealed
    assert all(set(line) == {"H"} for line in symbols(page))
    assert grid_out_of_order(page) == []
    if AXE.exists():
        assert axe_serious(page) == []


def grid_out_of_order(page: Page) -> list[str]:
    """Every row and cell of the grid where it belongs: the rows in order from the window's top,
    each cell named, numbered and placed as its column (a moved window reuses the elements)."""
    wrong: list[str] = page.evaluate(
        """() => {
          const wrong = [];
          const rows = [...document.querySelectorAll('#board .row')];
          const top = Number(rows[0].getAttribute('aria-rowindex')) - 1;
          const left = Number(rows[0].firstElementChild.dataset.col);
          rows.forEach((row, r) => {
            if (row.getAttribute('aria-rowindex') !== String(top + r + 1)) wrong.push(`row ${r}`);
            [...row.children].forEach((cell, c) => {
              const [R, C] = [top + r, left + c];
              if (cell.id !== `cell-${R}-${C}` || cell.dataset.row !== String(R)
                || cell.dataset.col !== String(C)
                || cell.getAttribute('aria-colindex') !== String(C + 1)
                || !cell.getAttribute('aria-label').startsWith(`row ${R + 1}, column ${C + 1},`)) {
                wrong.push(cell.id);
              }
            });
          });
          return wrong.slice(0, 10);
        }"""
    )
    return wrong


def test_the_account_control_leaves_the_board_where_it_was(browser: Browser, url: str) -> None:
    for screen in (LAPTOP, PHONE):
        page = open_page(browser, url, screen)
        messages: list[str] = []
        page.on("console", partial(heard, messages))
        page.reload()
        expect(page.locator("#board .cell").first).to_be_visible()
        board = page.locator("#board")
        where = board.bounding_box()
        page.click("#account-summary")
        expect(page.locator("#account-form")).to_be_visible()
        assert board.bounding_box() == where
        page.fill("#account-name", "Ann")
        page.fill("#account-password", PASSWORD)
        page.click("#sign-up" if screen is LAPTOP else "#sign-in")
        expect(page.locator("#account-summary")).to_have_text("Ann")
        assert board.bounding_box() == where
        page.keyboard.press("Escape")
        expect(page.locator("#account-signed-in")).to_be_hidden()
        assert board.bounding_box() == where
        assert [m for m in messages if m.startswith("error")] == []  # no 401 logged, signed out


def test_refusals_count_down_and_name_the_rule(browser: Browser, url: str) -> None:
    page = open_page(browser, url, LAPTOP)
    assert page.get_attribute("#account-name", "maxlength") == "24"
    assert page.get_attribute("#player", "maxlength") == "24"
    page.click("#account-summary")
    page.fill("#account-name", "<script>")
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    expect(page.locator("#account-error")).to_contain_text("<script>")  # the server's rule
    expect(page.locator("#account-error")).to_contain_text("a name is")

    page.route(
        "**/api/session",
        lambda route: (
            route.fulfill(
                status=429,
                headers={"Retry-After": "3", "Content-Type": "application/json"},
                body='{"code": "rate_limited", "detail": "too many sign-ins"}',
            )
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.fill("#account-name", "Ann")
    page.click("#sign-in")
    expect(page.locator("#account-error")).to_have_text(
        "Too many tries in a short time: wait 3 seconds, then try again."
    )
    expect(page.locator("#account-error")).to_have_text(
        "Too many tries in a short time: wait 2 seconds, then try again."
    )
    expect(page.locator("#account-error")).to_have_text("You can try again now.")


def test_a_watcher_is_told_about_the_player(browser: Browser, url: str) -> None:
    created = httpx.post(
        f"{url}/api/games",
        json={"preset": "beginner", "seed": 3, "first_click": "any", "player": "Ann"},
    ).json()
    page = open_page(browser, f"{url}/#{created['id']}", LAPTOP)
    expect(page.locator("#status")).to_have_text("Watching")
    mine = sorted(layout(3, 9, 9, 10, (0, 0), rule="any"))[0]
    moved = httpx.post(
        f"{url}/api/games/{created['id']}/reveal",
        json={"row": mine[0], "col": mine[1]},
        headers={"Authorization": f"Bearer {created['token']}"},
    )
    assert moved.json()["view"]["status"] == "LOST"
    expect(page.locator("#status")).to_have_text("Ann hit a mine. Game over.")
    expect(page.locator("#result h2")).to_have_text("Ann hit a mine")
    expect(page.locator("#status")).not_to_contain_text("You")


def test_a_moved_window_shows_the_server_s_cells_where_they_are(browser: Browser, url: str) -> None:
    page = open_page(browser, url, LAPTOP, bypass_csp=True)
    custom_game(page, 300, 300, 100)
    expect(page.locator("#board .cell")).to_have_count(100 * 100)
    game_id = page.evaluate("location.hash.slice(1)")
    token = game_token(page, game_id)
    flags = [(r, (r * 37 + 11) % 100) for r in range(0, 100, 3)]
    for row, col in flags:  # marks all over the first window, each in its own cell
        flagged = httpx.post(
            f"{url}/api/games/{game_id}/flag",
            json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert flagged.status_code == 200, flagged.text
    until(page, lambda: "".join(symbols(page)).count("F"), lambda count: count == len(flags))
    box = page.locator("#viewport").bounding_box()
    assert box is not None
    for _ in range(3):  # the window moves down and right by part of itself, more than once
        x, y = box["x"] + box["width"] - 20, box["y"] + box["height"] - 20
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x - 250, y - 150, steps=5)
        page.mouse.up()
        page.wait_for_timeout(300)
    expect(page.locator("#board .row").first).not_to_have_attribute("aria-rowindex", "1")
    top, left = page.evaluate(
        """() => { const cell = document.querySelector('#board .cell');
                   return [Number(cell.dataset.row), Number(cell.dataset.col)]; }"""
    )
    # Some of the first window is still shown: the window moved by part of itself.
    assert 0 < top < 100, top
    assert 0 < left < 100, left
    shown = httpx.get(
        f"{url}/api/games/{game_id}?top={top}&left={left}&height=100&width=100"
    ).json()["view"]["cells"]
    until(page, lambda: symbols(page), lambda found: found == shown)
    assert grid_out_of_order(page) == []


SHIFTS = """() => {
  // Every layout shift from now on, those right after an input too (CLS leaves those out; a
  // board that moves when its size is chosen moves all the same).
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const moved = entry.sources.map((source) => {
        const text = source.node?.nodeType === Node.TEXT_NODE;
        const node = text ? source.node.parentElement : source.node;
        const [from, to] = [source.previousRect, source.currentRect];
        const where = `(${from.x},${from.y} -> ${to.x},${to.y})`;
        return `${node ? node.outerHTML.slice(0, 60) : '?'} ${where}`;
      });
      window.__shifts.push([entry.value, moved.join(' ')]);
    }
  }).observe({ type: 'layout-shift' });
}"""


@pytest.mark.parametrize("screen", SCREENS)
def test_choosing_a_board_in_the_header_moves_nothing(
    browser: Browser, url: str, screen: dict[str, Any]
) -> None:
    page = open_page(browser, url, screen, bypass_csp=True)
    expect(page.locator("#status")).to_have_text("Playing")
    page.wait_for_timeout(300)  # the board fitted, the page at rest
    board = page.locator("#board")
    where = board.bounding_box()
    page.evaluate(SHIFTS)
    for choice in ("intermediate", "custom", "beginner", "custom", "expert"):
        page.select_option("#preset", choice)
        expect(page.locator("#custom")).to_be_visible(visible=choice == "custom")
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))")
        assert board.bounding_box() == where, choice
    shifts: list[tuple[float, str]] = page.evaluate("window.__shifts")
    assert sum(value for value, _ in shifts) < 0.001, shifts  # what moved, if anything did
    page.select_option("#preset", "custom")
    page.fill("#rows", "999999")  # a refusal shown as typed (in the fields' panel) either
    expect(page.locator("#rows-help")).to_contain_text("from 1 to")
    page.wait_for_timeout(200)
    assert board.bounding_box() == where
