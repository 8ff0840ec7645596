"""Accounts in Debian's chromium: a player's profile page, on a desktop and a phone."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from tests.server.browsing import AXE, DESKTOP, PHONE, blank_page, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_players_profile_page_shows_the_servers_figures(
    browser: Browser, url: str, device: str
) -> None:
    from tests.server.test_browser_page import ranked_win

    name = "W" * 24  # the widest name allowed
    won = ranked_win(url, name)
    # bypass_csp: axe is injected as an inline script, which the server's CSP rightly refuses.
    page = blank_page(browser, DESKTOP if device == "desktop" else PHONE, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/players/{name.lower()}")  # any look-alike of the name finds it
    expect(page.locator("#player-name")).to_have_text(name)
    figures = page.locator("#figures")
    expect(figures).to_contain_text("Games1")
    expect(figures).to_contain_text("Wins1 (100%)")
    profile = page.request.get(f"{url}/api/players/{name}").json()
    best = profile["best_no_guess"]["beginner"]
    row = page.locator("#best tbody tr").first
    expect(row.locator("td").nth(1)).to_have_text(f"{best:.2f} s")
    history = page.locator("#history li")
    expect(history).to_have_count(1)
    expect(history.first.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"/#replay={won}"
    )
    expect(history.first.get_by_role("link", name="Review")).to_have_attribute(
        "href", f"/review/{won}"
    )
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    if AXE.exists():
        page.add_script_tag(path=str(AXE))
        script = "async () => JSON.stringify((await axe.run()).violations)"
        found = json.loads(page.evaluate(script))
        serious = [v["id"] for v in found if v["impact"] in ("serious", "critical")]
        assert serious == []
    assert errors == []


def test_an_unknown_players_page_says_so(browser: Browser, url: str) -> None:
    page = blank_page(browser, DESKTOP)
    page.goto(f"{url}/players/Nobody")
    expect(page.locator("#error")).to_have_text("No player has that name.")
