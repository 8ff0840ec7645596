"""The installable app: the manifest and its icons, the service worker served at the root
with the release's shell, and the page in German, Spanish or Chinese by the browser's languages
or the picker; offline after a first visit, the reviews already opened still readable."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from mines.server.web.middleware import CONTENT_SECURITY_POLICY
from tests.server.browsing import DESKTOP, PHONE, blank_page, needs_chromium
from tests.server.processes import get
from tests.server.test_browser_review import lost_game


def test_the_manifest_names_the_app_its_icons_and_its_start(url: str) -> None:
    answer = get(f"{url}/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    manifest = json.loads(answer.text)
    assert manifest["name"]
    assert manifest["short_name"] == "mines"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert manifest["theme_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        # Named by version: kept for a year, as every file of the release is.
        assert icon["src"].startswith("/static/"), icon
        assert icon["src"].count("/") == 4, icon
        if icon["type"] == "image/png":
            image = get(f"{url}{icon['src']}")
            assert image.status_code == 200
            assert image.headers["content-type"] == "image/png"
            assert "immutable" in image.headers["cache-control"]
            sizes[icon["sizes"]] = Image.open(io.BytesIO(image.content)).size
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}


def test_the_worker_is_served_at_the_root_with_this_releases_shell(url: str) -> None:
    answer = get(f"{url}/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] in (
        "text/javascript",
        "application/javascript",
    )
    # Never kept without asking: a new release's worker is found at the next visit.
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    page = get(f"{url}/").text
    version = page.split('"/static/', 1)[1].split("/", 1)[0]
    assert f'const VERSION = "{version}";' in answer.text
    assert f'"/static/{version}/js/main.js"' in answer.text
    assert f'"/static/{version}/i18n/de.json"' in answer.text
    assert '"/review/shell"' in answer.text
    assert "sw.js" not in answer.text.split("const SHELL", 1)[1].split("\n", 1)[0]
    assert get(f"{url}/static/sw.js").status_code == 404  # only at the root, its scope


@pytest.mark.browser
@needs_chromium
def test_the_page_is_installable(browser: Browser, url: str) -> None:
    page = blank_page(browser, PHONE)
    page.goto(url)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    session = page.context.new_cdp_session(page)
    errors: dict[str, Any] = session.send("Page.getInstallabilityErrors")
    # Playwright's contexts are incognito, where Chrome installs nothing by design; every
    # check of the page itself (manifest, icons, worker, HTTPS or localhost) passes.
    found = [error["errorId"] for error in errors["installabilityErrors"]]
    assert [error for error in found if error != "in-incognito"] == []
    manifest: dict[str, Any] = session.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert not manifest["errors"]


def _offline_ready(page: Page) -> None:
    """Wait until the worker controls the page (it took the shell at its install)."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


@pytest.mark.browser
@needs_chromium
def test_the_page_opens_offline_after_a_first_visit_and_says_play_needs_the_server(
    browser: Browser, url: str
) -> None:
    page = blank_page(browser, DESKTOP)
    page.goto(url)
    expect(page.locator("#board .cell").first).to_be_visible()
    _offline_ready(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("mines")
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Playing and races need the server")
    page.goto(f"{url}/race")
    expect(page.locator("#offline")).to_be_visible()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#offline")).to_be_hidden()


@pytest.mark.browser
@needs_chromium
def test_a_review_opened_once_is_readable_offline(browser: Browser, url: str) -> None:
    game_id = lost_game(url)
    never_opened = lost_game(url)
    page = blank_page(browser, DESKTOP)
    page.goto(url)
    _offline_ready(page)
    page.goto(f"{url}/review/{game_id}")
    expect(page.locator("#moves button").first).to_be_visible()
    moves = page.locator("#moves button").count()
    page.context.set_offline(True)
    page.goto(f"{url}/review/{game_id}")
    expect(page.locator("#moves button")).to_have_count(moves)
    expect(page.locator("#offline")).to_be_visible()
    page.goto(f"{url}/review/{never_opened}")
    expect(page.locator("#error")).to_contain_text("cannot be reached")


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize(
    ("locale", "new_game", "lang"),
    [
        ("de-DE", "Neues Spiel", "de"),
        ("es-419", "Partida nueva", "es"),
        ("zh-CN", "新游戏", "zh-Hans"),
    ],
)
def test_the_page_speaks_the_browsers_language(
    browser: Browser, url: str, locale: str, new_game: str, lang: str
) -> None:
    page = blank_page(browser, DESKTOP, locale=locale)
    page.goto(url)
    expect(page.locator("#board .cell").first).to_be_visible()
    expect(page.locator("#start")).to_have_text(new_game)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#lang").input_value() == lang
    # Screen-reader text too: the board's label, a cell's, the counters'.
    assert page.locator("#board").get_attribute("aria-label") != "Minefield"
    assert "row" not in (page.locator("#board .cell").first.get_attribute("aria-label") or "")
    assert not (page.locator("#mines-left").get_attribute("aria-label") or "").startswith("Mines")


@pytest.mark.browser
@needs_chromium
def test_numbers_and_plurals_follow_the_language(browser: Browser, url: str) -> None:
    page = blank_page(browser, DESKTOP, locale="de-DE")
    page.goto(url)
    expect(page.locator("#board .cell").first).to_be_visible()
    said = page.evaluate(
        """async () => {
          const i18n = await import(document.querySelector('link[href$="/js/i18n.js"]').href);
          const tn = (n) => i18n.tn("{n} cell revealed.", "{n} cells revealed.", n);
          return [tn(1), tn(1234),
                  i18n.fixed(3.5, 2), i18n.t("row {row}, column {col}", {row: 3, col: 12})];
        }"""
    )
    assert said == ["1 Feld aufgedeckt.", "1.234 Felder aufgedeckt.", "3,50", "Zeile 3, Spalte 12"]


@pytest.mark.browser
@needs_chromium
def test_the_picker_chooses_the_language_and_it_is_remembered(browser: Browser, url: str) -> None:
    page = blank_page(browser, DESKTOP, locale="en-US")
    page.goto(url)
    expect(page.locator("#start")).to_have_text("New game")
    page.select_option("#lang", "es")
    expect(page.locator("#start")).to_have_text("Partida nueva")
    page.goto(f"{url}/race")
    expect(page.locator("#lang")).to_have_value("es")
    assert page.evaluate("document.documentElement.lang") == "es"
    page.select_option("#lang", "en")
    expect(page.locator("#lang")).to_have_value("en")
    assert page.evaluate("document.documentElement.lang") == "en"
