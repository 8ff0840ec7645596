"""`/docs` in Debian's chromium: Swagger UI from the server itself, under its Content-Security-
Policy and with every other address blocked, lists the API's operations."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.server.browsing import DESKTOP, blank_page, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium]


def test_docs_list_the_operations_offline_under_the_csp(browser: Browser, url: str) -> None:
    page = blank_page(browser, DESKTOP)
    outside: list[str] = []
    problems: list[str] = []

    def offline(route: Route) -> None:
        if route.request.url.startswith(url):
            route.continue_()
        else:  # no network: a CDN would be unreachable
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", offline)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{url}/docs")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any(re.fullmatch(r"/api/games/\{game_id\}/reveal", p.strip()) for p in paths), paths
    assert any(p.strip() == "/readyz" for p in paths), paths
    expect(page.locator(".info .title")).to_contain_text("mines")
    assert outside == []
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
