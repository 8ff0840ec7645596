"""A race in two browsers: the host creates and shares a room, a guest joins, both race."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.patience import PATIENCE
from tests.server.browsing import DESKTOP, PHONE, axe_serious, blank_page, needs_chromium
from tests.server.conftest import layout

pytestmark = [pytest.mark.browser, needs_chromium]

SEED = 11
FIRST = (4, 4)


def race_page(browser: Browser, address: str, device: dict[str, object]) -> Page:
    # axe is injected as an inline script, which the server's CSP rightly refuses.
    page = blank_page(browser, device, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    return page


def on_board(page: Page, row: int, col: int) -> str:
    symbol: str = page.locator(f"#cell-{row}-{col}").get_attribute("data-symbol") or ""
    return symbol


def test_two_browsers_race_one_board_to_its_result(browser: Browser, url: str) -> None:
    host = race_page(browser, f"{url}/race", DESKTOP)
    host.fill("#create-name", "Ann")
    host.select_option("#race-preset", "beginner")
    host.locator(".more summary").click()
    host.fill("#race-seed", str(SEED))
    host.click("#create-room")
    expect(host.locator("#share")).to_be_visible()
    link = host.input_value("#share-link")
    assert "/race/" in host.url
    assert link == host.url

    guest = race_page(browser, link, PHONE)  # the shared link, on a phone
    expect(guest.locator("#join")).to_be_visible()
    guest.fill("#join-name", "Bob")
    guest.click("#join-room")
    expect(host.locator("#players tbody tr")).to_have_count(2)  # the host sees Bob arrive
    expect(guest.locator("#start-race")).to_be_hidden()  # only the host starts

    watcher = race_page(browser, link, DESKTOP)  # nobody's browser in this race: it watches
    expect(watcher.locator("#board .cell").first).to_be_visible()
    host.click("#start-race")
    expect(host.locator("#room-status")).to_contain_text("Go!")
    expect(guest.locator("#room-status")).to_contain_text("Go!")

    host.click(f"#cell-{FIRST[0]}-{FIRST[1]}")
    expect(guest.locator(f"#cell-{FIRST[0]}-{FIRST[1]}")).to_have_attribute("data-mark", "A")
    mines = layout(SEED, 9, 9, 10, FIRST)
    mine = sorted(mines)[0]
    guest.locator(f"#cell-{mine[0]}-{mine[1]}").tap()  # a tap: the guest is out
    expect(host.locator(f"#cell-{mine[0]}-{mine[1]}")).to_have_attribute("data-symbol", "X")
    expect(guest.locator("#players tbody tr").nth(1)).to_contain_text("out")
    # Each is told in their own words: the one who hit it as "you", the others by name.
    expect(guest.locator("#race-said")).to_have_text("You hit a mine: you are out of the race.")
    expect(host.locator("#race-said")).to_have_text("Bob hit a mine and is out of the race.")
    expect(watcher.locator("#race-said")).to_have_text("Bob hit a mine and is out of the race.")

    for r in range(9):
        for c in range(9):
            if (r, c) in mines or on_board(host, r, c) != "H":
                continue
            host.click(f"#cell-{r}-{c}")
            expect(host.locator(f"#cell-{r}-{c}")).not_to_have_attribute("data-symbol", "H")
            if host.locator("#result").is_visible():
                break
    expect(host.locator("#result")).to_have_text("Ann wins with 71 points.")
    expect(guest.locator("#result")).to_have_text("Ann wins with 71 points.")
    expect(guest.locator("#players tbody tr").first).to_contain_text("winner")
    expect(watcher.locator("#players tbody tr").nth(1)).to_contain_text("out")  # not "ready"

    assert axe_serious(host) == []


def test_a_reload_rejoins_with_the_same_player(browser: Browser, url: str) -> None:
    host = race_page(browser, f"{url}/race", DESKTOP)
    host.fill("#create-name", "Ann")
    host.click("#create-room")
    expect(host.locator("#share")).to_be_visible()
    host.reload()
    expect(host.locator("#players tbody tr.you")).to_contain_text("Ann (you)")
    expect(host.locator("#start-race")).to_be_visible()
    expect(host.locator("#join")).to_be_hidden()


def finished_race(url: str) -> str:
    """A race of two that Ann wins alone, played through the API; its room's ID."""
    with httpx.Client(base_url=url, timeout=PATIENCE) as api:
        created = api.post("/api/races", json={"player": "Ann", "preset": "beginner", "seed": SEED})
        room, host = created.json()["room"]["id"], created.json()["token"]
        guest = api.post(f"/api/races/{room}/join", json={"player": "Bob"}).json()["token"]
        starts_in = api.post(f"/api/races/{room}/start", headers=bearer(host)).json()["starts_in"]
        time.sleep(starts_in)  # the countdown runs on the server's clock
        api.post(f"/api/races/{room}/reveal", json={"row": 4, "col": 4}, headers=bearer(guest))
        mines = layout(SEED, 9, 9, 10, FIRST)
        for r, c in [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]:
            answer = api.post(
                f"/api/races/{room}/reveal", json={"row": r, "col": c}, headers=bearer(host)
            )
            if answer.json()["state"] == "over":
                return str(room)
    raise AssertionError("the race did not end")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_finished_race_replays_from_the_servers_frames(browser: Browser, url: str) -> None:
    room = finished_race(url)
    frames = httpx.get(f"{url}/api/races/{room}/replay").json()
    final = httpx.get(f"{url}/api/races/{room}").json()
    ann = final["players"][0]["score"]
    page = race_page(browser, f"{url}/race/{room}", DESKTOP)
    expect(page.locator("#result")).to_have_text(f"Ann wins with {ann} points.")
    page.click("#replay-open")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-open")).to_be_hidden()
    total = len(frames["frames"])
    page.locator("#replay-scrub").fill("0")
    expect(page.locator("#replay-step")).to_have_text(f"move 0 of {total}")
    assert on_board(page, *FIRST) == "H"
    expect(page.locator("#players tbody tr").first).to_contain_text("0")
    page.click("#replay-forward")  # Bob's first reveal, marked as his
    expect(page.locator("#replay-step")).to_have_text(f"move 1 of {total}")
    for r, c, symbol in frames["frames"][0]["changed"]:
        assert on_board(page, r, c) == symbol
    expect(page.locator(f"#cell-{FIRST[0]}-{FIRST[1]}")).to_have_attribute("data-mark", "B")
    page.locator("#replay-scrub").fill(str(total))
    expect(page.locator("#replay-step")).to_have_text(f"move {total} of {total}")
    shown = ["".join(on_board(page, r, c) for c in range(9)) for r in range(9)]
    assert shown == final["view"]["cells"]
    expect(page.locator("#players tbody tr").first).to_contain_text(str(ann))
    page.click("#replay-close")
    expect(page.locator("#replay")).to_be_hidden()
    expect(page.locator("#replay-open")).to_be_visible()
