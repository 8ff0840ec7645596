"""The key line that stands in for the footer on narrow terminals, and messages too long for
their two lines."""

from __future__ import annotations

import pytest
from textual.widgets import Footer, Static

from mines.tui.app import CUT
from mines.tui.help import HelpScreen
from mines.tui.keyline import KeyItem, KeyLine, fit
from mines.tui.layout import FOOTER_FROM_WIDTH
from tests.tui.conftest import AppMaker, drawn, footer_drawn, key_line_drawn, settle


def item(action: str, keys: str, description: str) -> KeyItem:
    return KeyItem(action, keys, description)


def test_fit_keeps_whole_entries_by_priority_in_their_order() -> None:
    items = [
        item("open", "space", "Reveal"),
        item("new_game", "n", "New"),
        item("next_theme", "t", "Theme"),
        item("help", "f1", "Help"),
        item("quit", "q", "Quit"),
    ]
    assert fit(items, 200) == items
    narrow = fit(items, 36)  # 12 + 5 + 7 + 6 and three gaps of 2: not Theme
    assert [i.action for i in narrow] == ["open", "new_game", "help", "quit"]
    assert [i.action for i in fit(items, 7)] == ["help"], "help first: it lists every key"


@pytest.mark.parametrize("size", [(60, 20), (40, 10), (80, 24)])
async def test_a_narrow_terminal_shows_whole_keys_with_help_among_them(
    make_app: AppMaker, size: tuple[int, int]
) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot, lambda: key_line_drawn(app), "the key line drawn")
        line = app.query_one("#keys", KeyLine)
        assert line.display
        assert not app.query_one(Footer).display
        text = str(line.render())
        assert len(text) <= size[0] - 2
        assert "f1 Help" in text
        assert "space Reveal" in text
        descriptions = {i.description for i in line.items}
        for entry in text.split("  "):
            _keys, description = entry.rsplit(" ", 1)
            assert description in descriptions, f"a cut entry: {entry!r} in {text!r}"


async def test_a_wide_terminal_keeps_textuals_footer(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(FOOTER_FROM_WIDTH, 30)) as pilot:
        await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
        assert app.query_one(Footer).display
        assert not app.query_one("#keys").display
        await pilot.resize_terminal(60, 20)
        await settle(pilot, lambda: app.layout.width == 60, "the layout of 60x20")
        assert not app.query_one(Footer).display
        assert app.query_one("#keys").display


async def test_the_footer_of_a_practice_game_fits_whole_where_it_shows(
    make_app: AppMaker,
) -> None:
    app = make_app(9, 9, [(0, 0)], practice=True)
    async with app.run_test(size=(FOOTER_FROM_WIDTH, 30)) as pilot:
        # The footer drawn with every key of now: one pause was not always enough (issue 46).
        await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
        bottom = drawn(app)[-1].rstrip()
        assert bottom.endswith("q Quit"), bottom
        assert "U Redo" in bottom


async def test_the_key_line_follows_the_bindings(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)], practice=True)
    async with app.run_test(size=(90, 24)) as pilot:
        await settle(pilot, lambda: key_line_drawn(app), "the key line drawn")
        line = app.query_one("#keys", KeyLine)
        assert "u Undo" in str(line.render()), "undo works in practice"
        await pilot.press("p")
        await settle(pilot, lambda: key_line_drawn(app) and app.check_action("undo", ()) is False)
        assert "u Undo" not in str(line.render()), "not while paused"


async def test_a_message_too_long_for_its_lines_points_to_f1_which_shows_it_whole(
    make_app: AppMaker,
) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(60, 20)) as pilot:
        long = " ".join(f"word{i}" for i in range(60)) + " end."
        app.say(long)
        await pilot.pause()
        shown = str(app.query_one("#message", Static).render())
        assert len(shown.splitlines()) == 2
        assert shown.endswith(CUT)
        assert all(len(line) <= 58 for line in shown.splitlines())
        app.say("Short.")
        await pilot.pause()
        assert str(app.query_one("#message", Static).render()) == "Short."
        app.say(long)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "word59 end." in " ".join(help_text.split())
        await pilot.press("escape")
        await pilot.resize_terminal(20, 8)  # too small: the notice, and no crash cutting it
        await pilot.pause()
        assert app.query_one("#too-small").display
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert str(app.query_one("#message", Static).render()).endswith(CUT)


async def test_a_tall_terminal_gives_messages_three_lines(make_app: AppMaker) -> None:
    app = make_app(9, 9, [(0, 0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.query_one("#message").size.height == 3
        app.say("word " * 60)
        await pilot.pause()
        assert len(str(app.query_one("#message").render()).splitlines()) == 3
        await pilot.resize_terminal(80, 20)
        await pilot.pause()
        assert app.query_one("#message").size.height == 2
        assert len(str(app.query_one("#message").render()).splitlines()) == 2
