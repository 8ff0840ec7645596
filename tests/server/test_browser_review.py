"""The review page (`/review/<id>`), in Debian's chromium: the moves with their marks, the board
and its mine chances before each move as the solver has them, ←/→/Home/End and `#move=n`,
nothing for a game in progress, the links to it, and axe's scan."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from mines.record import GameRecord
from mines.replay import replay
from mines.solver import review
from tests.server.browsing import (
    AXE,
    DESKTOP,
    PHONE,
    axe_serious,
    blank_page,
    cell,
    needs_chromium,
    symbols,
)
from tests.server.conftest import layout, safe_cells
from tests.server.processes import get, post

pytestmark = [pytest.mark.browser, needs_chromium]

MARKS = {"wrong-flag": "?!", "risky": "?", "avoidable": "??", "lost": "✗"}
"""The marks the page shows, after lichess's analysis board; other verdicts have none."""
SEED = 5


def play(url: str, moves: list[tuple[str, int, int]], **board: Any) -> str:
    """A game played through the API; returns its ID."""
    created = post(f"{url}/api/games", json=board or {"preset": "beginner", "seed": SEED})
    assert created.status_code == 201, created.text
    game = created.json()
    headers = {"Authorization": f"Bearer {game['token']}"}
    for kind, row, col in moves:
        answer = post(
            f"{url}/api/games/{game['id']}/{kind}", json={"row": row, "col": col}, headers=headers
        )
        assert answer.status_code == 200, answer.text
    game_id: str = game["id"]
    return game_id


def lost_game(url: str) -> str:
    """Beginner, seed 5: the opening, a flag on a safe cell, two reveals, then a mine."""
    mines = layout(SEED, 9, 9, 10, (4, 4))
    safe = [cell for cell in safe_cells(9, 9, mines) if cell != (4, 4)]
    moves = [("reveal", 4, 4), ("flag", *safe[-1]), ("reveal", *safe[0]), ("reveal", *safe[1])]
    game_id = play(url, [*moves, ("reveal", *sorted(mines)[0])])
    assert get(f"{url}/api/games/{game_id}").json()["view"]["status"] == "LOST"
    return game_id


def review_page(browser: Browser, url: str, game_id: str, device: dict[str, Any] = DESKTOP) -> Page:
    # bypass_csp: axe is injected as an inline script, which the server's CSP rightly refuses.
    page = blank_page(browser, device, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/review/{game_id}")
    expect(page.locator("#moves button").first).to_be_visible()
    assert errors == []
    return page


def chances_shown(page: Page) -> dict[tuple[int, int], tuple[str, str | None]]:
    found: list[list[Any]] = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-chance]')].map(
            (c) => [+c.dataset.row, +c.dataset.col, c.dataset.chance, c.dataset.certain || null])"""
    )
    return {(r, c): (chance, certain) for r, c, chance, certain in found}


def test_the_page_steps_through_the_moves_with_the_boards_and_the_solvers_chances(
    browser: Browser, url: str
) -> None:
    game_id = lost_game(url)
    data = get(f"{url}/api/games/{game_id}/review").json()
    record = GameRecord.from_dict(get(f"{url}/api/games/{game_id}/record").json())
    judged = review(record)
    total = len(data["moves"])
    page = review_page(browser, url, game_id)
    expect(page.locator("#summary-text")).to_have_text(data["summary"])
    # The words are the server's, as the terminal's are: the figures and each move's label.
    expect(page.locator("#figures dt")).to_have_text([term for term, _ in data["figures"]])
    expect(page.locator("#figures dd")).to_have_text([words for _, words in data["figures"]])
    buttons = page.locator("#moves button")
    expect(buttons).to_have_count(total + 1)  # every move, then the end
    for index, move in enumerate(data["moves"]):
        expect(buttons.nth(index)).to_contain_text(move["label"])
        mark = buttons.nth(index).locator(".mark")
        if move["verdict"] in MARKS:
            expect(mark).to_have_text(MARKS[move["verdict"]])
        else:
            expect(mark).to_have_count(0)
    shown = {data["moves"][i]["verdict"] for i in range(total)}
    assert {"wrong-flag", "lost"} <= shown  # the game has marks to show

    expect(page.locator("#comment")).to_contain_text(f"Move 1 of {total}")
    assert symbols(page) == data["start"]
    page.keyboard.press("End")
    expect(page.locator("#comment")).to_contain_text("The end: lost")
    assert symbols(page) == replay(record).view().to_strings()
    assert page.evaluate("location.hash") == f"#move={total}"
    page.keyboard.press("Home")
    expect(page.locator("#comment")).to_contain_text(f"Move 1 of {total}")
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#comment")).to_contain_text(f"Move {step + 1} of {total}")
        assert symbols(page) == replay(record, stop=step).view().to_strings()
        move = judged.moves[step]
        expect(cell(page, move.move.row, move.move.col)).to_have_class(re.compile(r"\bmoved\b"))
        chances = chances_shown(page)
        board = move.board
        hidden = {(r, c) for r in range(9) for c in range(9) if board.symbol(r, c) in ("H", "F")}
        assert set(chances) == hidden
        for (r, c), (text, certain) in chances.items():
            exact = move.chances.chance(r, c)
            assert certain == ("safe" if exact == 0 else "mine" if exact == 1 else None)
            assert abs(float(text.rstrip("%")) - float(exact) * 100) <= 0.5, (r, c, text, exact)
    expect(page.locator("#comment")).to_contain_text(judged.moves[3].comment)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#comment")).to_contain_text(f"Move 3 of {total}")
    assert page.evaluate("location.hash") == "#move=2"

    # On the board the arrows move from cell to cell and say each one's chance.
    page.focus("#board")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#cell-info")).to_contain_text("Row 2, column 1:")
    expect(page.locator("#comment")).to_contain_text(f"Move 3 of {total}")  # not a step

    # The address says which move: opened at #move=3, the page shows the fourth move.
    again = review_page(browser, url, f"{game_id}#move=3")
    expect(again.locator("#comment")).to_contain_text(f"Move 4 of {total}")
    expect(again.locator("#moves button[aria-current=step]")).to_contain_text("4. ")
    again.locator("#moves button").last.click()
    expect(again.locator("#comment")).to_contain_text("The end")
    assert again.evaluate("location.hash") == f"#move={total}"


def test_a_game_in_progress_shows_no_review_and_no_board(browser: Browser, url: str) -> None:
    game_id = play(url, [("reveal", 4, 4)])
    page = blank_page(browser, DESKTOP)
    page.goto(f"{url}/review/{game_id}")
    expect(page.locator("#error")).to_have_text(
        "This game is not over yet: its review opens once it ends."
    )
    expect(page.locator("#analysis")).to_be_hidden()
    expect(page.locator("#board .cell")).to_have_count(0)
    expect(page.locator("#retry")).to_be_hidden()


def test_the_end_box_the_replay_and_the_leaderboard_link_to_the_review(
    browser: Browser, url: str
) -> None:
    # A ranked win (a preset, the server's seed) by the solver, through the API.
    from tests.server.test_browser_page import ranked_win

    won = ranked_win(url, "Ada")
    page = blank_page(browser, DESKTOP)
    page.goto(f"{url}/#replay={won}")
    expect(page.locator("#replay-review")).to_have_attribute("href", f"/review/{won}")
    page.select_option("#board-preset", "beginner")
    page.check("#board-no-guess")
    link = page.locator("#leaderboard tbody tr td:last-child a")  # the name links the profile
    expect(link).to_have_attribute("href", f"/review/{won}")
    # The end-of-game box of a game just lost in the page.
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    page.goto(f"{url}/")
    from tests.server.browsing import new_game

    lost = new_game(page, seed=3, first_click="any")
    cell(page, *sorted(mines)[0]).click()
    review_link = page.locator("#result-review")
    expect(review_link).to_have_attribute("href", f"/review/{lost}")
    review_link.click()
    expect(page.locator("#summary-text")).to_contain_text("Lost")
    expect(page.locator("#moves button")).to_have_count(2)


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core (npm ci installs it)")
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_review_page_fits_and_axe_finds_no_serious_or_critical_violation(
    browser: Browser, url: str, device: str
) -> None:
    if device == "desktop":
        game_id = lost_game(url)
    else:  # the widest preset on the narrowest screen: the board scrolls in its frame
        mine = sorted(layout(SEED, 16, 30, 99, (8, 15)))[0]
        expert = {"preset": "expert", "seed": SEED}
        game_id = play(url, [("reveal", 8, 15), ("reveal", *mine)], **expert)
    page = review_page(browser, url, game_id, DESKTOP if device == "desktop" else PHONE)
    page.keyboard.press("ArrowRight")
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    assert axe_serious(page) == []
