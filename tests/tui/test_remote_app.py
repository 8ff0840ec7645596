"""The terminal app on a game kept by a real `mines serve`: the same board and keys, the
server's moves, and honest words for what a server's game does not offer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from mines.solver import hint
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.client import ServerClient
from mines.tui.clock import PausableClock
from mines.tui.remote import RemoteGame
from mines.tui.themes import THEMES
from tests.patience import PATIENCE
from tests.server.processes import ServerProcess, server_process
from tests.tui.conftest import drawn, footer_drawn, settle
from tests.tui.test_app_features import message

HUMAN_STEP = 0.06
"""Seconds between moves: a person's pace, so that a win ranks."""


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("serve")
    with server_process(f"sqlite:///{folder / 'games.sqlite3'}") as server:
        yield server


def remote_app(client: ServerClient, player: str | None, **spec: object) -> MinesApp:
    def make(rows: int, cols: int, mines: int) -> RemoteGame:
        made = client.create({"rows": rows, "cols": cols, "mines": mines})
        return RemoteGame(client, made, made["token"], player=player)

    created = client.create(spec or {"preset": "beginner"})
    game = RemoteGame(client, created, created["token"], player=player)
    return MinesApp(game, make_game=make, clock=PausableClock(), theme=THEMES["classic"])


def server_cells(client: ServerClient, app: MinesApp) -> list[str]:
    game = app.game
    assert isinstance(game, RemoteGame)
    cells: list[str] = client.game(game.id)["view"]["cells"]
    return cells


async def play_at(pilot: Pilot[None], app: MinesApp, row: int, col: int, key: str) -> None:
    app.board.move_cursor(row, col)
    await pilot.press(key)


async def test_a_server_game_is_played_with_the_apps_keys(serve: ServerProcess) -> None:
    client = ServerClient(serve.url)
    client.sign_up("Pilot Pat", "correct horse battery")
    app = remote_app(client, "Pilot Pat", preset="beginner", no_guess=True)
    async with app.run_test(size=(100, 30)) as pilot:
        assert message(app).startswith("On 127.0.0.1:")
        assert "as Pilot Pat: a win ranks." in message(app)
        await pilot.press("space")  # the cursor starts in the middle: a no-guess opening
        assert app.game.started
        shown = app.game.view().to_strings()
        assert shown == server_cells(client, app)
        hidden = next(
            (r, c) for r, line in enumerate(shown) for c, s in enumerate(line) if s == "H"
        )
        await play_at(pilot, app, *hidden, "f")
        assert server_cells(client, app)[hidden[0]][hidden[1]] == Cell.FLAG.value
        assert "mines left 9" in str(app.query_one("#status").render())
        await pilot.press("f")  # and off again, on the server
        assert server_cells(client, app)[hidden[0]][hidden[1]] == Cell.HIDDEN.value

        # What only a game played here offers says why not, and changes nothing.
        for key, said in [
            ("p", "cannot pause: its clock runs on the server"),
            ("g", "g is off for a game on a server"),
            ("u", "Undo is not offered on a server"),
        ]:
            await pilot.press(key)
            assert said in message(app), key
        assert app.board.display
        await settle(pilot, lambda: footer_drawn(app), "the footer drawn")
        footer = drawn(app)[-1]  # the keys that work here, and only those
        assert "? Hint" in footer
        assert "p Pause" not in footer
        assert "g Find" not in footer

        # The server's hint, once the player says a second time that the game may not rank.
        await pilot.press("question_mark")
        assert "takes this game off the leaderboard" in message(app)
        assert isinstance(app.game, RemoteGame)
        assert app.game.ranks
        await pilot.press("question_mark")
        assert app.hint_thread is not None
        await asyncio.to_thread(app.hint_thread.join, PATIENCE)
        await pilot.pause()
        assert message(app).startswith("Hint: ")
        # The cell named as the terminal game names cells, from 0: where the cursor went.
        assert f"{app.board.cursor}" in message(app)
        assert "column" not in message(app)
        assert not app.game.ranks

        # Played to the end by the keys, on cells the solver proves safe in what is drawn.
        for _ in range(app.game.rows * app.game.cols):  # a bound, should nothing be drawn
            if app.game.status is not GameStatus.IN_PROGRESS:
                break
            found = hint(app.game.view())
            assert found.safe
            time.sleep(HUMAN_STEP)
            await play_at(pilot, app, found.row, found.col, "space")
        assert app.game.status is GameStatus.WON
        assert app.game.view().to_strings() == server_cells(client, app)
        assert "Not ranked: it had help (a hint)." in message(app)
    assert client.player("Pilot Pat")["wins"] == 1


async def test_a_server_that_goes_away_is_a_line_and_the_game_stays(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("away")
    with server_process(f"sqlite:///{folder / 'games.sqlite3'}") as server:
        client = ServerClient(server.url)
        app = remote_app(client, None)
        async with app.run_test() as pilot:
            assert "not signed in: this game does not rank" in message(app)
            await pilot.press("space")
            opened = app.game.view().to_strings()
            server.process.terminate()
            server.process.wait()
            hidden = next(
                (r, c) for r, line in enumerate(opened) for c, s in enumerate(line) if s == "H"
            )
            await play_at(pilot, app, *hidden, "f")
            said = message(app)
            assert said.startswith(f"cannot reach {server.url}")
            assert "The game is kept on the server" in said
            assert app.game.view().to_strings() == opened  # nothing drawn that did not happen
            await pilot.press("n", "n")  # no new game either, and still no traceback
            assert message(app).startswith("No new game: cannot reach")
            assert app.game.view().to_strings() == opened
