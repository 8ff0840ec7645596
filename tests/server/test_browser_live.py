"""A live view that survives, in Debian's chromium: the WebSocket comes back after a server
restart or a network drop (a TCP proxy the test cuts), says so while away, and resynchronises;
race rooms too."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.browsing import (
    DESKTOP,
    blank_page,
    cell,
    needs_chromium,
    new_game,
    open_page,
    server_env,
)
from tests.server.processes import free_port, post, server_process
from tests.server.tcpproxy import proxy_to

pytestmark = [pytest.mark.browser, needs_chromium]


def flag_by_api(url: str, page: Page, row: int, col: int) -> None:
    """A move made elsewhere (another device with the game's token), straight to the server."""
    game_id = page.evaluate("location.hash.slice(1)")
    token = page.evaluate(f"localStorage.getItem('mines:token:{game_id}')")
    answer = post(
        f"{url}/api/games/{game_id}/flag",
        json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text


def test_a_second_tab_comes_back_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    database, port = f"sqlite:///{tmp_path / 'live.sqlite3'}", free_port()
    with server_process(database, port=port, env=server_env()) as server:
        first = open_page(browser, server.url, DESKTOP)
        game_id = new_game(first, seed=5)
        cell(first, 0, 0).click()
        expect(cell(first, 0, 0)).to_have_attribute("data-symbol", "0")
        second = first.context.new_page()  # a second tab of the same browser: same token
        second.goto(f"{server.url}/#{game_id}")
        expect(cell(second, 0, 0)).to_have_attribute("data-symbol", "0")
        expect(second.locator("#status")).to_have_text("Playing")
        server.process.terminate()
        server.process.wait()
        away = second.locator("#live")
        expect(away).to_be_visible()  # it says so while the server is away
        expect(away).to_contain_text("trying again")
    with server_process(database, port=port, env=server_env()):
        expect(away).to_be_hidden()
        expect(second.locator("#announce")).to_contain_text("up to date")
        cell(first, 8, 8).click(button="right")
        expect(cell(first, 8, 8)).to_have_attribute("data-symbol", "F")
        expect(cell(second, 8, 8)).to_have_attribute("data-symbol", "F")  # live again


def test_after_a_network_drop_the_page_shows_what_happened_meanwhile(
    browser: Browser, url: str
) -> None:
    with proxy_to(int(url.rsplit(":", 1)[1])) as proxy:
        page = open_page(browser, proxy.url, DESKTOP)
        new_game(page, seed=5)
        cell(page, 0, 0).click()
        expect(cell(page, 0, 0)).to_have_attribute("data-symbol", "0")
        proxy.cut()
        expect(page.locator("#live")).to_be_visible()
        flag_by_api(url, page, 8, 8)  # moves the page cannot hear of while it is away
        flag_by_api(url, page, 8, 7)
        flag_by_api(url, page, 8, 8)
        proxy.restore()
        expect(page.locator("#live")).to_be_hidden()
        expect(cell(page, 8, 7)).to_have_attribute("data-symbol", "F")
        expect(cell(page, 8, 8)).to_have_attribute("data-symbol", "H")
        expect(page.locator("#mines-left")).to_have_attribute("data-value", "9")
        flag_by_api(url, page, 7, 8)  # and live from there on
        expect(cell(page, 7, 8)).to_have_attribute("data-symbol", "F")


def test_a_race_room_comes_back_after_a_network_drop(browser: Browser, url: str) -> None:
    with proxy_to(int(url.rsplit(":", 1)[1])) as proxy:
        page = blank_page(browser, DESKTOP)
        page.goto(f"{proxy.url}/race")
        page.fill("#create-name", "Ada")
        page.click("#create-room")
        page.wait_for_url(f"{proxy.url}/race/*")
        room_id = page.url.rsplit("/", 1)[1]
        players = page.locator("#players tbody tr")
        expect(players).to_have_count(1)
        proxy.cut()
        expect(page.locator("#live")).to_be_visible()
        joined = post(f"{url}/api/races/{room_id}/join", json={"player": "Grace"})
        assert joined.status_code == 200, joined.text
        proxy.restore()
        expect(page.locator("#live")).to_be_hidden()
        expect(players).to_have_count(2)  # the room read again on return
        expect(page.locator("#players")).to_contain_text("Grace")
