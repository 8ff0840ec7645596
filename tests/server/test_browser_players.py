"""A regular player's pages in Debian's chromium: the profile pages through every finished
game and filters it; the race page lists the public rooms, live, and never a private one."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.browsing import AXE, DESKTOP, PHONE, axe_serious, blank_page, needs_chromium
from tests.server.conftest import PASSWORD, layout
from tests.server.processes import patient_client

pytestmark = [pytest.mark.browser, needs_chromium]

GAMES = 23
"""Past the page of 20: the profile needs a second page for them."""


def create(client: httpx.Client, url: str, body: dict[str, object]) -> httpx.Response:
    """A new game, waiting out the server's limit on new games as its answer asks."""
    while (created := client.post(f"{url}/api/games", json=body)).status_code == 429:
        time.sleep(float(created.headers.get("Retry-After", "1")))
    assert created.status_code == 201, created.text
    return created


def lose(client: httpx.Client, url: str, seed: int) -> str:
    """A Beginner game lost on its first mine (first click anywhere, a chosen seed)."""
    created = create(client, url, {"preset": "beginner", "seed": seed, "first_click": "any"})
    game = created.json()
    row, col = sorted(layout(seed, 9, 9, 10, (0, 0), rule="any"))[0]
    headers = {"Authorization": f"Bearer {game['token']}"}
    answer = client.post(
        f"{url}/api/games/{game['id']}/reveal", json={"row": row, "col": col}, headers=headers
    )
    assert answer.json()["view"]["status"] == "LOST", answer.text
    return str(game["id"])


def custom_win(client: httpx.Client, url: str) -> str:
    """A 3 x 3 board without mines, won by its first reveal (with no flag: a no-flag win)."""
    created = create(client, url, {"rows": 3, "cols": 3, "mines": 0})
    game = created.json()
    headers = {"Authorization": f"Bearer {game['token']}"}
    answer = client.post(
        f"{url}/api/games/{game['id']}/reveal", json={"row": 0, "col": 0}, headers=headers
    )
    assert answer.json()["view"]["status"] == "WON", answer.text
    return str(game["id"])


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_profile_pages_through_the_history_and_filters_it(
    browser: Browser, url: str, device: str
) -> None:
    with patient_client() as client:
        made = client.post(f"{url}/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert made.status_code == 201, made.text
        lost = [lose(client, url, seed) for seed in range(1, GAMES + 1)]
        won = custom_win(client, url)
    page = blank_page(browser, DESKTOP if device == "desktop" else PHONE, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/players/Ann")
    games = page.locator("#history li")
    expect(games).to_have_count(20)
    expect(games.first.get_by_role("link", name="Review")).to_have_attribute(
        "href", f"/review/{won}"
    )
    more = page.get_by_role("button", name="More games")
    more.click()
    expect(games).to_have_count(GAMES + 1)
    expect(more).to_be_hidden()  # the last page: nothing more to ask
    expect(games.last.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"/#replay={lost[0]}"
    )
    page.locator("#history-result").select_option("won")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("3\u00d73, 0 mines: won")  # 3 x 3, as the page writes it
    expect(games.first).to_contain_text("no flags")
    page.locator("#history-board").select_option("expert")
    expect(games).to_have_count(0)
    expect(page.locator("#history-empty")).to_have_text("No finished games match.")
    page.locator("#history-board").select_option("beginner")
    page.locator("#history-result").select_option("lost")
    expect(games).to_have_count(20)
    expect(more).to_be_visible()
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    if AXE.exists():
        assert axe_serious(page) == []
    assert errors == []


def lobby_page(browser: Browser, url: str) -> Page:
    page = blank_page(browser, DESKTOP, bypass_csp=True)
    page.goto(f"{url}/race")
    expect(page.locator("#lobby")).to_be_visible()
    return page


def test_the_race_page_lists_public_rooms_live_and_never_a_private_one(
    browser: Browser, url: str
) -> None:
    page = lobby_page(browser, url)
    rooms = page.locator("#lobby-rooms li")
    expect(page.locator("#lobby-rooms-empty")).to_be_visible()
    with httpx.Client(base_url=url, timeout=30) as api:
        private = api.post("/api/races", json={"player": "Zed", "preset": "beginner"})
        public = api.post(
            "/api/races",
            json={"player": "Ann", "preset": "beginner", "public": True, "name": "Lunch race"},
        )
        assert (private.status_code, public.status_code) == (201, 201)
        room_id = public.json()["room"]["id"]
        # Pushed by the lobby's socket: the page was not reloaded.
        expect(rooms).to_have_count(1)
        expect(rooms.first).to_contain_text("Lunch race: Beginner")
        expect(rooms.first).to_contain_text("1 of 8 players (Ann)")
        expect(rooms.first.get_by_role("link", name="Join")).to_have_attribute(
            "href", f"/race/{room_id}"
        )
        assert private.json()["room"]["id"] not in page.content()
        joined = api.post(f"/api/races/{room_id}/join", json={"player": "Bob"})
        assert joined.status_code == 200, joined.text
        expect(rooms.first).to_contain_text("2 of 8 players (Ann, Bob)")
        token = public.json()["token"]
        started = api.post(
            f"/api/races/{room_id}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.status_code == 200, started.text
    watch = page.locator("#lobby-live li")
    expect(watch).to_have_count(1)
    expect(rooms).to_have_count(0)
    expect(watch.first.get_by_role("link", name="Watch")).to_have_attribute(
        "href", f"/race/{room_id}"
    )
    if AXE.exists():
        assert axe_serious(page) == []


def test_a_room_made_public_from_the_page_is_listed(browser: Browser, url: str) -> None:
    host = lobby_page(browser, url)
    other = lobby_page(browser, url)
    host.fill("#create-name", "Cleo")
    host.select_option("#race-preset", "beginner")
    host.get_by_label("List this room in the lobby").check()
    host.get_by_label("Room name in the lobby").fill("Cleo's table")
    host.click("#create-room")
    expect(host.locator("#room")).to_be_visible()
    expect(host.locator("#lobby")).to_be_hidden()
    expect(other.locator("#lobby-rooms li")).to_contain_text("Cleo's table")
