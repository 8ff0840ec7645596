"""What the browser tests share: a server, Debian's chromium, pages on desktop and phone."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from tests.patience import PATIENCE
from tests.server.conftest import PASSWORD
from tests.server.processes import get, server_process
from tests.services import service_missing, unless_present

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
"""A 390 x 844 phone with touch, as the issue's report was made on."""

WAIT_MS = float(os.environ.get("MINES_BROWSER_WAIT", PATIENCE)) * 1000
"""How long a page may take to do what a test waits for: a bound for a loaded machine, not a
target (`./dev bench browser` measures speed). Playwright's defaults (5 s for `expect`, 30 s
for actions) were hit on 2 cores running three suites at once, the server busy generating a
no-guess board, not wrong. `MINES_BROWSER_WAIT=15` (seconds) makes a new test that is
meant to fail on the old code (`MINES_BROWSER_SRC`) fail in seconds rather than minutes."""
expect.set_options(timeout=WAIT_MS)

CHROMIUM_MISSING = "needs Debian's chromium at /usr/bin/chromium"
needs_chromium = unless_present(CHROMIUM.exists(), CHROMIUM_MISSING)


OTHER_SRC = os.environ.get("MINES_BROWSER_SRC")
"""Another checkout's `src` to serve instead of this one's: run a new browser test against the
code before a change (`MINES_BROWSER_SRC=/path/to/old/src`) and watch it fail there first."""


def server_env() -> dict[str, str] | None:
    return None if OTHER_SRC is None else {**os.environ, "PYTHONPATH": OTHER_SRC}


@contextmanager
def serving(tmp_path: Path) -> Iterator[str]:
    with server_process(f"sqlite:///{tmp_path / 'browser.sqlite3'}", env=server_env()) as server:
        yield server.url


@contextmanager
def chromium() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        service_missing(CHROMIUM_MISSING)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=WAIT_MS
        )
        try:
            yield browser
        finally:
            browser.close()


def blank_page(browser: Browser, device: dict[str, Any], **options: Any) -> Page:
    """A page in a context of its own, whose every wait is the hang guard `WAIT_MS`."""
    context = browser.new_context(**device, **options)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def open_page(browser: Browser, url: str, device: dict[str, Any], **options: Any) -> Page:
    page = blank_page(browser, device, **options)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("#board .cell").first).to_be_visible()
    return page


def axe_serious(page: Page) -> list[tuple[str, list[Any]]]:
    """axe-core's serious and critical violations on the page as it is now, each with the
    first few elements it names. The page's context needs `bypass_csp=True`: axe is injected
    as an inline script, which the server's CSP rightly refuses."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def cell(page: Page, row: int, col: int) -> Locator:
    return page.locator(f'#board [data-row="{row}"][data-col="{col}"]')


def symbols(page: Page) -> list[str]:
    """The board as the page shows it, in the server's symbols, one string per row."""
    result: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#board [role=row]')].map(
            (row) => [...row.children].map((cell) => cell.dataset.symbol).join(''))"""
    )
    return result


HUMAN_STEP_MS = 60
"""A pause between moves that keeps a scripted win under the human pace of `HUMAN_PACE`, so
that it ranks: a win takes at least as many clicks as its 3BV and its time starts at the
first, so with 60 ms between clicks it makes at most 2 / 0.06 = 33 3BV/s, under Beginner's 50."""


def sign_up(page: Page, url: str, name: str) -> None:
    """Make an account and sign the page's browser in to it (the context keeps the cookie)."""
    answer = page.request.post(f"{url}/api/accounts", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()


def new_game(
    page: Page, seed: int | None, first_click: str = "opening", board: str = "beginner"
) -> str:
    """Start a game from the form; returns its ID (from the address)."""
    old = page.evaluate("location.hash")
    page.select_option("#preset", board)
    page.locator(".more summary").click()
    page.fill("#seed", "" if seed is None else str(seed))
    page.select_option("#first-click", first_click)
    page.click("#start")
    page.wait_for_function("(old) => location.hash && location.hash !== old", arg=old)
    expect(page.locator("#status")).to_have_text("Playing")
    game_id: str = page.evaluate("location.hash.slice(1)")
    return game_id


def server_view(url: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    """The game's whole view as the server has it; with the game's `token`, as its player
    reads it (a daily game's only way until its day is over)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    view: dict[str, Any] = get(f"{url}/api/games/{game_id}", headers=headers).json()["view"]
    return view


def game_token(page: Page, game_id: str) -> str | None:
    """The token the page's browser keeps for a game it created (js/api.js, `gameToken`)."""
    token: str | None = page.evaluate("(id) => localStorage.getItem(`mines:token:${id}`)", game_id)
    return token


def led(page: Page, name: str) -> int:
    return int(page.locator(f"#{name}").get_attribute("data-value") or "nan")


CONTRACT_CODES = [
    "validation_error",
    "invalid_board",
    "invalid_request",
    "illegal_move",
    "game_over",
    "cell_flagged",
    "game_not_found",
    "not_authenticated",
    "forbidden",
    "storage_unavailable",
    "body_too_large",
    "rate_limited",
    "server_full",
    "no_guess_too_large",
    "no_guess_timeout",
]
"""The codes the helpers agreed on, for as long as docs/server.md has no table of them."""


def documented_error_codes() -> list[str]:
    """The codes in the "Error codes" table of docs/server.md (else the agreed ones)."""
    text = (ROOT / "docs" / "server.md").read_text()
    if "### Error codes" not in text:
        return CONTRACT_CODES
    table = text.split("### Error codes", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)


def custom_game(page: Page, rows: int, cols: int, mines: int) -> None:
    """Start a custom board from the form and wait until it is the page's game."""
    page.select_option("#preset", "custom")
    page.fill("#rows", str(rows))
    page.fill("#cols", str(cols))
    page.fill("#mines", str(mines))
    old = page.evaluate("location.hash")
    page.click("#start")
    page.wait_for_function("(old) => location.hash !== old", arg=old)


def safe_move(view: dict[str, Any]) -> tuple[int, int]:
    """A cell the solver proves safe in a view of a whole board in progress."""
    from mines.solver import hint
    from mines.status import GameStatus
    from mines.view import BoardView

    shown = BoardView.from_strings(
        view["cells"], status=GameStatus.IN_PROGRESS, mines_left=view["mines_left"]
    )
    move = hint(shown)
    assert move.safe, move
    return move.row, move.col


def win_by_clicks(page: Page, url: str, game_id: str) -> None:
    """Win a no-guess Beginner game in the page by clicks at a person's pace, each one on a cell
    the solver proves safe in the server's view."""
    cell(page, 4, 4).click()  # a no-guess board opens wherever it is first clicked
    token = game_token(page, game_id)  # a daily game's view is its player's
    for _ in range(81):  # and from there the solver always knows a safe cell
        view = server_view(url, game_id, token)
        if view["status"] != "IN_PROGRESS":
            break
        row, col = safe_move(view)
        page.wait_for_timeout(HUMAN_STEP_MS)  # at a person's pace: a bot's does not rank
        cell(page, row, col).click()
        expect(cell(page, row, col)).not_to_have_attribute("data-symbol", "H")
