"""Leaving an account from the game page in Debian's chromium: the data downloaded, the password
changed, the account deleted."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from tests.server.browsing import DESKTOP, needs_chromium, open_page
from tests.server.conftest import PASSWORD

pytestmark = [pytest.mark.browser, needs_chromium]

NEW = "another long passphrase"


def test_download_change_password_and_delete_from_the_account_box(
    browser: Browser, url: str
) -> None:
    page = open_page(browser, url, DESKTOP)
    page.click("#account-summary")
    page.fill("#account-name", "Ann")
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    expect(page.locator("#account-who")).to_have_text("Ann")
    with page.expect_download() as download:
        page.click("#account-export")
    exported = json.loads(download.value.path().read_text())
    assert exported["account"]["name"] == "Ann"
    page.click("#account-manage summary")
    page.fill("#account-current", "not the password")
    page.fill("#account-new", NEW)
    page.click("#change-password")
    expect(page.locator("#account-error")).to_contain_text("not your current password")
    page.fill("#account-current", PASSWORD)
    page.click("#change-password")
    expect(page.locator("#account-said")).to_contain_text("Password changed")
    assert page.request.get(f"{url}/api/me").status == 200  # this session goes on
    page.fill("#account-current", NEW)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-account")
    expect(page.locator("#account-said")).to_contain_text("Your account is deleted")
    expect(page.locator("#account-summary")).to_have_text("Sign in")
    assert page.request.get(f"{url}/api/me").status == 401
    assert page.request.get(f"{url}/api/players/Ann").status == 404
