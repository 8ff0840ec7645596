"""The browser client on a desktop in Debian's chromium: keyboard, mouse, errors, themes, replay."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.server.browsing import (
    AXE,
    DESKTOP,
    PHONE,
    WAIT_MS,
    axe_serious,
    blank_page,
    cell,
    documented_error_codes,
    led,
    needs_chromium,
    new_game,
    open_page,
    server_view,
    sign_up,
    symbols,
    win_by_clicks,
)
from tests.server.conftest import layout

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def page(browser: Browser, url: str) -> Page:
    return open_page(browser, url, DESKTOP)


def focused(page: Page) -> str:
    name: str = page.evaluate("document.activeElement && document.activeElement.id")
    return name


def test_a_game_won_with_the_keyboard_alone(page: Page, url: str) -> None:
    page.select_option("#preset", "beginner")
    page.locator(".more summary").click()
    page.fill("#seed", "5")
    old = page.evaluate("location.hash")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_function("(old) => location.hash !== old", arg=old)
    assert focused(page) == "board"  # keys go to the board at once, no Tab needed
    expect(page.locator("#board")).to_have_attribute("aria-activedescendant", "cell-0-0")
    mines = layout(5, 9, 9, 10, (0, 0))
    page.keyboard.press("Space")
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "H")

    at = [0, 0]

    def go(row: int, col: int) -> None:
        while at[0] != row:
            page.keyboard.press("ArrowDown" if row > at[0] else "ArrowUp")
            at[0] += 1 if row > at[0] else -1
        while at[1] != col:
            page.keyboard.press("ArrowRight" if col > at[1] else "ArrowLeft")
            at[1] += 1 if col > at[1] else -1
        expect(page.locator("#board")).to_have_attribute(
            "aria-activedescendant", f"cell-{row}-{col}"
        )

    flagged = sorted(mines)[0]
    go(*flagged)
    page.keyboard.press("f")
    expect(cell(page, *flagged)).to_have_attribute("data-symbol", "F")
    assert led(page, "mines-left") == 9
    expect(page.locator("#announce")).to_contain_text("Flag placed")
    for row in range(9):
        for col in range(9):
            if (row, col) in mines or cell(page, row, col).get_attribute("data-symbol") != "H":
                continue
            go(row, col)
            page.keyboard.press("Space")
            expect(cell(page, row, col)).not_to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_contain_text("You won")
    # The classic end: every mine shows flagged, the counter reads 0, the face wears sunglasses.
    for mine in mines:
        expect(cell(page, *mine)).to_have_attribute("data-look", "F")
    assert led(page, "mines-left") == 0
    expect(page.locator("#face")).to_have_attribute("data-face", "win")
    expect(page.locator("#announce")).to_contain_text("You won")
    assert focused(page) == "board"
    assert server_view(url, page.evaluate("location.hash.slice(1)"))["status"] == "WON"

    page.keyboard.press("n")  # a new game from the board, and the board keeps the focus
    expect(page.locator("#face")).to_have_attribute("data-face", "smile")
    assert focused(page) == "board"


def test_grid_semantics_and_cell_names(page: Page) -> None:
    new_game(page, seed=5)
    grid = page.locator("#board")
    expect(grid).to_have_attribute("role", "grid")
    expect(page.locator("#board > [role=row]")).to_have_count(9)
    expect(page.locator("#board [role=row]").first.locator("[role=gridcell]")).to_have_count(9)
    expect(cell(page, 2, 3)).to_have_attribute("aria-label", "row 3, column 4, hidden")
    cell(page, 0, 0).click()
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", "row 1, column 1, empty")
    for control in page.locator("button, select, input").all():
        if control.is_visible():
            name = control.evaluate(
                "(e) => e.getAttribute('aria-label') || (e.labels && e.labels[0] && "
                "e.labels[0].textContent.trim()) || e.textContent.trim()"
            )
            assert name, control.evaluate("(e) => e.outerHTML")


def test_a_mouse_win_with_a_right_click_flag_and_a_running_then_frozen_timer(
    page: Page, url: str
) -> None:
    game_id = new_game(page, seed=5)
    mines = layout(5, 9, 9, 10, (0, 0))
    assert led(page, "timer") == 0
    cell(page, 0, 0).click()
    expect(cell(page, 0, 0)).not_to_have_attribute("data-symbol", "H")
    # Running: it leaves 0 (a loaded machine may paint 2 without ever painting 1).
    expect(page.locator("#timer")).to_have_attribute("data-value", re.compile(r"^[1-9][0-9]*$"))
    flagged = sorted(mines)[0]
    cell(page, *flagged).click(button="right")
    expect(cell(page, *flagged)).to_have_attribute("data-symbol", "F")
    for row in range(9):
        for col in range(9):
            target = cell(page, row, col)
            if (row, col) in mines or target.get_attribute("data-symbol") != "H":
                continue
            target.click()
            expect(target).not_to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_contain_text("You won")
    frozen = led(page, "timer")
    page.wait_for_timeout(1500)
    assert led(page, "timer") == frozen  # stopped at the win
    assert int(server_view(url, game_id)["elapsed"]) == frozen


def test_a_loss_shows_the_mines_the_exploded_one_and_a_wrong_flag(page: Page) -> None:
    new_game(page, seed=3, first_click="any")
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")  # "any" ignores the first click
    safe = next((r, c) for r in range(9) for c in range(9) if (r, c) not in mines)
    cell(page, *safe).click(button="right")
    row, col = sorted(mines)[0]
    cell(page, row, col).click()
    expect(page.locator("#status")).to_contain_text("Boom")
    expect(cell(page, row, col)).to_have_attribute("data-symbol", "X")
    expect(cell(page, *safe)).to_have_attribute("data-symbol", "W")
    expect(page.locator('#board [data-symbol="M"]')).to_have_count(len(mines) - 1)
    expect(page.locator("#face")).to_have_attribute("data-face", "lost")
    expect(page.locator("#replay-open")).to_be_visible()


def test_replay_plays_the_servers_frames_to_the_servers_final_view(page: Page, url: str) -> None:
    game_id = new_game(page, seed=3, first_click="any")
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    safe = [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]
    cell(page, *safe[0]).click(button="right")  # a wrong flag, shown W at the end
    cell(page, *sorted(mines)[1]).click(button="right")  # a right one
    cell(page, *safe[-1]).click()
    cell(page, *sorted(mines)[0]).click()
    expect(page.locator("#status")).to_contain_text("Boom")
    final = server_view(url, game_id)["cells"]

    page.click("#replay-open")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-step")).to_have_text("move 4 of 4")
    assert symbols(page) == final
    page.click("#replay-back")
    expect(page.locator("#replay-step")).to_have_text("move 3 of 4")
    assert symbols(page) != final
    page.locator("#replay-scrub").fill("0")
    expect(page.locator("#replay-step")).to_have_text("move 0 of 4")
    assert symbols(page) == ["H" * 9] * 9
    page.click("#replay-forward")
    expect(page.locator("#replay-step")).to_have_text("move 1 of 4")
    expect(cell(page, *safe[0])).to_have_attribute("data-symbol", "F")

    link = page.locator("#replay-link").get_attribute("href")
    assert link
    assert link.endswith(f"#replay={game_id}")
    shared = page.context.browser
    assert shared is not None
    other = blank_page(shared, DESKTOP)  # a stranger opening the shared link
    other.goto(link)
    expect(other.locator("#replay-step")).to_have_text("move 4 of 4")
    assert symbols(other) == final


def test_every_documented_error_code_has_words(page: Page) -> None:
    codes = documented_error_codes()
    assert len(codes) >= 10, codes
    words = page.evaluate(
        """async (codes) => {
            const { sayError, hasSentence } = await import('/static/js/words.js');
            const { ApiError } = await import('/static/js/api.js');
            return codes.map((code) => [code, hasSentence(code),
                sayError(new ApiError(400, code, 'raw server text', []))]);
        }""",
        codes,
    )
    for code, known, sentence in words:
        assert known, f"{code} has no sentence in words.js"
        assert "raw server text" not in sentence
        assert code not in sentence
    named = page.evaluate(
        """async () => {
            const { sayError } = await import('/static/js/words.js');
            const { ApiError } = await import('/static/js/api.js');
            return sayError(new ApiError(422, 'validation_error', 'x',
                [{field: 'body.rows', problem: 'Input should be greater than or equal to 1'}]));
        }"""
    )
    assert named == "The number of rows is not valid."


def test_server_errors_reach_the_player_in_words(browser: Browser, url: str) -> None:
    stranger = open_page(browser, url, DESKTOP)
    stranger.goto(f"{url}/#0123456789abcdef")
    stranger.reload()
    expect(stranger.locator("#error")).to_have_text(
        "This game is not on the server (any more). Start a new one."
    )
    player = open_page(browser, url, DESKTOP)
    game_id = new_game(player, seed=5)
    watcher = blank_page(browser, DESKTOP)  # no token: it may watch, not play
    watcher.goto(f"{url}/#{game_id}")
    expect(watcher.locator("#status")).to_have_text("Watching")
    cell(player, 0, 0).click()
    expect(cell(watcher, 0, 0)).not_to_have_attribute("data-symbol", "H")  # pushed live
    cell(watcher, 8, 8).click()
    expect(watcher.locator("#announce")).to_contain_text("only its player can move")


def test_custom_sizes_are_checked_as_typed_and_never_leave_new_game_dead(page: Page) -> None:
    page.select_option("#preset", "custom")
    page.fill("#rows", "-3")
    expect(page.locator("#rows-help")).to_contain_text("a whole number from 1 to")
    expect(page.locator("#rows")).to_have_attribute("aria-invalid", "true")
    page.fill("#rows", "10")
    page.fill("#mines", "1.5")
    expect(page.locator("#mines-help")).to_contain_text("a whole number from 0 to 199")
    old = page.evaluate("location.hash")
    page.click("#start")
    expect(page.locator("#form-error")).to_contain_text("Mines")
    assert focused(page) == "mines"
    assert page.evaluate("location.hash") == old  # nothing was sent
    page.select_option("#preset", "beginner")  # back to a preset: New game works again
    page.click("#start")
    page.wait_for_function("(old) => location.hash !== old", arg=old)
    expect(page.locator("#board .cell")).to_have_count(81)
    page.select_option("#preset", "custom")
    page.fill("#mines", "7")
    old = page.evaluate("location.hash")
    page.click("#start")
    page.wait_for_function("(old) => location.hash !== old", arg=old)
    expect(page.locator("#board .cell")).to_have_count(200)
    assert led(page, "mines-left") == 7


def test_themes_change_the_look_and_are_kept(page: Page) -> None:
    new_game(page, seed=5)
    cell(page, 0, 0).click()
    number = page.locator('#board [data-look="1"]').first

    def colours() -> tuple[str, str]:
        return (
            number.evaluate("(e) => getComputedStyle(e).color"),
            page.evaluate("getComputedStyle(document.body).backgroundColor"),
        )

    page.select_option("#theme", "light")
    light = colours()
    page.select_option("#theme", "dark")
    dark = colours()
    page.select_option("#theme", "colour-blind")
    safe = colours()
    assert light[1] != dark[1]
    assert light[0] != dark[0]
    assert safe[0] != light[0]
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "colour-blind")
    # States differ in shape, not colour alone: each has its own picture or digit.
    images = page.evaluate(
        """() => ['F', 'M', 'X', 'W'].map((look) => {
            const probe = document.createElement('div');
            probe.className = 'cell';
            probe.dataset.look = look;
            document.getElementById('board').append(probe);
            const image = getComputedStyle(probe).backgroundImage;
            probe.remove();
            return image;
        })"""
    )
    assert len(set(images)) == 4
    assert all("url(" in image for image in images)


def test_the_leaderboard_follows_the_board_played_and_marks_the_players_entry(
    page: Page, url: str
) -> None:
    page.select_option("#board-preset", "expert")
    page.select_option("#preset", "beginner")
    page.locator(".more summary").click()
    page.check("#no-guess")
    page.fill("#player", "Ada")
    sign_up(page, url, "Ada")  # only a signed-in game ranks, under the account's name
    old = page.evaluate("location.hash")
    page.click("#start")
    page.wait_for_function("(old) => location.hash !== old", arg=old)
    game_id = page.evaluate("location.hash.slice(1)")
    win_by_clicks(page, url, game_id)
    expect(page.locator("#status")).to_contain_text("You won")
    expect(page.locator("#board-preset")).to_have_value("beginner")
    expect(page.locator("#board-no-guess")).to_be_checked()
    mine = page.locator("#leaderboard tr.you")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Ada (you)")
    expect(mine).to_have_attribute("aria-current", "true")
    stats = page.locator("#stats")
    expect(stats).to_contain_text("Wins1 (100%)")
    page.reload()  # the same finished game again is not counted twice
    expect(page.locator("#stats")).to_contain_text("Games1")


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core (npm ci installs it)")
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_axe_finds_no_serious_or_critical_violation(
    browser: Browser, url: str, device: str
) -> None:
    page = open_page(browser, url, DESKTOP if device == "desktop" else PHONE, bypass_csp=True)
    new_game(page, seed=3, first_click="any")
    cell(page, 4, 4).click(button="right")
    for theme in ("light", "dark", "colour-blind"):
        page.select_option("#theme", theme)
        assert axe_serious(page) == [], theme


def test_the_players_own_moves_echoed_over_the_websocket_are_not_drawn_again(
    browser: Browser, url: str
) -> None:
    """The echo of a flag held back until after the unflag's answer: drawn, it would bring the
    flag back; the client knows its own moves and leaves the board as the answers drew it."""
    held: list[str] = []
    sockets: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        sockets.append(socket)
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if json.loads(text).get("type") == "move":
                held.append(text)  # every move's echo waits
            else:
                socket.send(text)

        server.on_message(from_server)

    page = blank_page(browser, DESKTOP)
    page.route_web_socket(re.compile(r".*/live(\?.*)?$"), route)
    page.goto(url)
    expect(page.locator("#board .cell").first).to_be_visible()
    new_game(page, seed=5)
    target = cell(page, 4, 4)
    target.click(button="right")
    expect(target).to_have_attribute("data-symbol", "F")
    target.click(button="right")
    expect(target).to_have_attribute("data-symbol", "H")
    for _ in range(int(WAIT_MS / 100)):  # both echoes held (a hang guard, not a deadline)
        if len(held) == 2:
            break
        page.wait_for_timeout(100)
    assert len(held) == 2, held
    sockets[-1].send(held[0])  # the flag's echo, late
    page.wait_for_timeout(500)
    expect(target).to_have_attribute("data-symbol", "H")
    expect(page.locator("#status")).to_have_text("Playing")


def test_the_chance_overlay_equals_analyze_and_a_hint_marks_a_safe_cell(
    page: Page, url: str
) -> None:
    from mines.solver import analyze
    from mines.status import GameStatus
    from mines.view import BoardView

    game_id = new_game(page, seed=5)
    cell(page, 0, 0).click()
    cell(page, 8, 8).click(button="right")
    page.check("#analysis")
    expect(page.locator("#board [data-chance]").first).to_be_attached()
    view = server_view(url, game_id)
    expected = analyze(
        BoardView.from_strings(
            view["cells"], status=GameStatus.IN_PROGRESS, mines_left=view["mines_left"]
        )
    )
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-chance]')].map((c) =>
            [+c.dataset.row, +c.dataset.col, c.dataset.chance, c.dataset.certain || null])"""
    )
    assert {(r, c) for r, c, _, _ in shown} == set(expected.probabilities)
    for row, col, text, certain in shown:
        chance = expected.probabilities[(row, col)]
        assert abs(float(text.rstrip("%")) - float(chance) * 100) <= 0.5
        if (row, col) in expected.safe:
            assert certain == "safe"
        elif (row, col) in expected.certain_mines:
            assert certain == "mine"
        else:
            assert certain is None
    page.locator("#board [data-chance]").first.hover()
    expect(page.locator("#cell-info")).to_contain_text("chance of a mine")

    page.click("#hint")
    hinted = page.locator("#board .cell.hint")
    expect(hinted).to_have_count(1)
    expect(page.locator("#announce")).to_contain_text("Hint: row")
    row, col = (
        int(hinted.get_attribute("data-row") or -1),
        int(hinted.get_attribute("data-col") or -1),
    )
    assert (row, col) not in layout(5, 9, 9, 10, (0, 0))  # this position has a safe cell
    page.uncheck("#analysis")
    expect(page.locator("#board [data-chance]")).to_have_count(0)
