"""Accounts in Debian's chromium: signing up, out and in on the game page, and a player's profile
page, on a desktop and a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.browsing import (
    AXE,
    DESKTOP,
    PHONE,
    axe_serious,
    blank_page,
    cell,
    needs_chromium,
    new_game,
    open_page,
    sign_up,
    win_by_clicks,
)
from tests.server.conftest import PASSWORD, layout
from tests.server.processes import get

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
        assert axe_serious(page) == []
    assert errors == []


def test_an_unknown_players_page_says_so(browser: Browser, url: str) -> None:
    page = blank_page(browser, DESKTOP)
    page.goto(f"{url}/players/Nobody")
    expect(page.locator("#error")).to_have_text("No player has that name.")


def test_sign_up_out_and_in_on_the_game_page(browser: Browser, url: str) -> None:
    page = open_page(browser, url, DESKTOP)
    page.click("#account-summary")
    page.fill("#account-name", "Ann")
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    expect(page.locator("#account-who")).to_have_text("Ann")
    expect(page.locator("#account-said")).to_contain_text("Signed in as Ann")
    expect(page.locator("#player")).to_have_value("Ann")
    assert "mines_session" not in page.evaluate("document.cookie")  # HttpOnly
    game_id = new_game(page, seed=None)
    assert get(f"{url}/api/games/{game_id}").json()["ranks"] is True  # a signed-in game
    expect(page.locator("#account-profile")).to_have_attribute("href", "/players/Ann")
    expect(page.locator("#account-signed-in")).to_be_hidden()  # a press elsewhere closed it
    page.click("#account-summary")
    page.click("#sign-out")
    expect(page.locator("#account-form")).to_be_visible()
    expect(page.locator("#account-summary")).to_have_text("Sign in")
    page.evaluate("document.querySelector('.more').open = false")  # new_game opens it
    game_id = new_game(page, seed=None)
    assert get(f"{url}/api/games/{game_id}").json()["ranks"] is False  # anonymous again
    page.click("#account-summary")
    page.fill("#account-name", "ann")
    page.fill("#account-password", "not the password")
    page.click("#sign-in")
    expect(page.locator("#account-error")).to_have_text(
        "That name and password do not match an account."
    )
    page.fill("#account-password", PASSWORD)
    page.click("#sign-in")
    expect(page.locator("#account-summary")).to_have_text("Ann")
    expect(page.locator("#account-signed-in")).to_be_visible()
    page.reload()  # the session outlives the page
    expect(page.locator("#account-summary")).to_have_text("Ann")


def test_a_look_alike_name_is_refused_in_words(browser: Browser, url: str) -> None:
    page = open_page(browser, url, PHONE)
    sign_up(page, url, "Ann")
    other = open_page(browser, url, PHONE)
    other.click("#account-summary")
    other.fill("#account-name", "\u0410nn")  # a Cyrillic A
    other.fill("#account-password", PASSWORD)
    other.click("#sign-up")
    expect(other.locator("#account-error")).to_contain_text("That name is taken")
    width = other.evaluate("document.documentElement.clientWidth")
    assert other.evaluate("document.documentElement.scrollWidth") <= width


def start_daily(page: Page) -> str:
    """Start today's no-guess Beginner daily board from the form; returns the game's ID."""
    page.select_option("#preset", "beginner")
    page.locator(".more summary").click()
    page.check("#no-guess")
    page.check("#daily")
    old = page.evaluate("location.hash")
    page.click("#start")
    page.wait_for_function("(old) => location.hash && location.hash !== old", arg=old)
    game_id: str = page.evaluate("location.hash.slice(1)")
    return game_id


def test_todays_daily_board_from_the_page_and_its_leaderboard(browser: Browser, url: str) -> None:
    page = open_page(browser, url, DESKTOP)
    sign_up(page, url, "Ann")
    page.reload()
    expect(page.locator("#account-summary")).to_have_text("Ann")
    game_id = start_daily(page)
    win_by_clicks(page, url, game_id)
    expect(page.locator("#status")).to_contain_text("You won")
    summary = page.request.get(f"{url}/api/games/{game_id}/summary").json()
    assert (summary["ranked"], summary["no_guess"]) == (True, True)
    today = page.request.get(f"{url}/api/leaderboard?board=daily&preset=beginner&no_guess=true")
    assert [e["player"] for e in today.json()["entries"]] == ["Ann"]
    page.select_option("#board-period", "daily")
    rows = page.locator("#leaderboard tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.get_by_role("link", name="Ann")).to_have_attribute("href", "/players/Ann")
    expect(rows.first.locator("td").last.locator("a")).to_have_count(0)  # no game named today
    page.select_option("#board-period", "all")
    expect(rows.first).to_contain_text("No times yet.")  # a daily win is not all-time
    page.goto(f"{url}/players/Ann")  # the profile: the daily best apart from the all-time one
    beginner = "tbody tr:first-child td:nth-of-type(2)"  # Beginner, no guessing
    expect(page.locator(f"#best-daily {beginner}")).to_have_text(f"{summary['elapsed']:.2f} s")
    expect(page.locator(f"#best {beginner}")).to_have_text("\u2013")  # a dash: none


def test_a_daily_game_is_its_players_page_until_the_day_is_over(browser: Browser, url: str) -> None:
    page = open_page(browser, url, DESKTOP)  # anonymous: the game's token is the player's key
    game_id = start_daily(page)
    win_by_clicks(page, url, game_id)
    expect(page.locator("#status")).to_contain_text("You won")
    expect(page.locator("#result-review")).to_have_attribute("href", f"/review/{game_id}")
    page.reload()  # the page reads its own daily game again, with its token
    expect(cell(page, 4, 4)).not_to_have_attribute("data-symbol", "H")
    page.goto(f"{url}/review/{game_id}")
    expect(page.locator("#moves button").first).to_be_visible()
    page.goto(f"{url}/#replay={game_id}")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#error")).to_have_text("")
    stranger = blank_page(browser, PHONE)
    stranger.goto(f"{url}/#{game_id}")
    expect(stranger.locator("#error")).to_contain_text("only its player can see it")
    stranger.goto(f"{url}/review/{game_id}")
    expect(stranger.locator("#error")).to_contain_text("only its player can see it")


OFFER = "Add this browser's statistics to your account?"


def lose_a_game(page: Page) -> None:
    """Lose a seeded Beginner game in the page: the browser counts it in its own statistics."""
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    new_game(page, seed=3, first_click="any")
    cell(page, *sorted(mines)[0]).click()
    expect(page.locator("#result")).to_be_visible()


def account_form(page: Page, name: str, button: str) -> list[str]:
    """Fill the open account box and press `button` ("#sign-up", "#sign-in"); returns the list
    the page's later requests for /api/meta go to (the offer asks it for the presets)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/meta") else None)
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click(button)
    return asked


def not_offered(page: Page, name: str, asked: list[str]) -> None:
    """The sign-in as `name` is done and no offer was made: the page shows the name, and it
    never asked for the presets the offer lists (it would have, in the same task)."""
    expect(page.locator("#account-summary")).to_have_text(name)
    page.evaluate("() => new Promise((done) => setTimeout(done))")  # the page's next task
    assert asked == []
    expect(page.get_by_role("dialog", name=OFFER)).to_be_hidden()


def fits(page: Page, selector: str) -> None:
    """The element lies inside the viewport's width and the page does not scroll sideways."""
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(selector).bounding_box()
    assert box is not None
    assert box["x"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= width, (selector, box, width)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_browsers_stats_are_offered_once_and_taken_by_the_account(
    browser: Browser, url: str, device: str
) -> None:
    page = open_page(browser, url, DESKTOP if device == "desktop" else PHONE, bypass_csp=True)
    lose_a_game(page)
    page.click("#account-summary")
    account_form(page, "Ann", "#sign-up")
    dialog = page.get_by_role("dialog", name=OFFER)
    expect(dialog).to_be_visible()
    expect(dialog.locator("li")).to_have_text(["Beginner: 1 game, 0 wins"])
    expect(dialog).to_contain_text("only once")  # a second import is refused (409)
    expect(dialog.get_by_role("button", name="Keep them in this browser only")).to_be_focused()
    fits(page, "#import-stats")
    if AXE.exists():
        assert axe_serious(page) == []
    if device == "desktop":
        page.keyboard.press("Tab")  # the keyboard alone: to "Add them", and press it
        expect(dialog.get_by_role("button", name="Add them to my account")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        dialog.get_by_role("button", name="Add them to my account").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator("#account-said")).to_contain_text("added to your profile")
    expect(page.locator("#sign-out")).to_be_focused()  # where the focus was before the offer
    imported = page.request.get(f"{url}/api/players/Ann").json()["imported"]
    assert (imported["verified"], imported["boards"]) == (
        False,
        [
            {
                "preset": "beginner",
                "no_guess": False,
                "games": 1,
                "wins": 0,
                "best_streak": 0,
                "best_time": None,
                "best_three_bv_per_second": None,
            }
        ],
    )
    page.click("#sign-out")
    asked = account_form(page, "Bea", "#sign-up")  # another account, in the same browser
    not_offered(page, "Bea", asked)
    page.goto(f"{url}/players/Ann")
    expect(page.locator("#imported h2")).to_have_text("Imported from a browser, not verified")
    expect(page.locator("#imported li")).to_have_text(["Beginner: 1 game, 0 wins"])
    fits(page, "#imported")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_declined_offer_is_not_made_again_in_this_browser(
    browser: Browser, url: str, device: str
) -> None:
    page = open_page(browser, url, DESKTOP if device == "desktop" else PHONE)
    lose_a_game(page)
    sign_up(page, url, "Ann")  # made elsewhere: here it signs in
    page.request.delete(f"{url}/api/session")
    page.reload()
    page.click("#account-summary")
    account_form(page, "Ann", "#sign-in")
    dialog = page.get_by_role("dialog", name=OFFER)
    expect(dialog).to_be_visible()
    if device == "desktop":
        page.keyboard.press("Escape")
    else:
        dialog.get_by_role("button", name="Keep them in this browser only").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator("#account-said")).to_have_text(
        "This browser's statistics stay in this browser only."
    )
    assert page.request.get(f"{url}/api/players/Ann").json()["imported"] is None
    page.click("#sign-out")
    asked = account_form(page, "Ann", "#sign-in")
    not_offered(page, "Ann", asked)
    expect(page.locator("#stats")).to_contain_text("Games1")  # still this browser's own


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core (npm ci installs it)")
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_account_box_signed_out_and_in_fits_and_axe_finds_nothing_serious(
    browser: Browser, url: str, device: str
) -> None:
    page = open_page(browser, url, DESKTOP if device == "desktop" else PHONE, bypass_csp=True)
    page.click("#account-summary")
    expect(page.locator("#account-form")).to_be_visible()
    assert axe_serious(page) == []
    fits(page, "#account")
    name = "W" * 24  # the longest name allowed, of the widest letter
    account_form(page, name, "#sign-up")
    expect(page.locator("#account-signed-in")).to_be_visible()
    expect(page.locator("#account-who")).to_have_text(name)
    assert axe_serious(page) == []
    for selector in ("#account", "#account-summary", "#account-who", "#sign-out"):
        fits(page, selector)
    page.click("#account-summary")  # closed: the header shows the name alone
    expect(page.locator("#account-signed-in")).to_be_hidden()
    fits(page, "#account-summary")
