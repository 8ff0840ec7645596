"""The terminal game's client of the server (`mines.tui.client`, `RemoteGame`, the sessions
file), against a real `mines serve` process."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mines.errors import IllegalMoveError
from mines.moves import Move, MoveKind
from mines.solver import hint
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui.client import ServerClient, SignInError, server_url
from mines.tui.remote import RemoteGame, ServerError
from mines.tui.sessions import Kept, Sessions
from tests.server.processes import ServerProcess, free_port, server_process
from tests.server.tcpproxy import TcpProxy

PASSWORD = "correct horse battery staple"
HUMAN_STEP = 0.06
"""Seconds between scripted moves: a person's pace, so a win ranks (see browsing.HUMAN_STEP_MS)."""


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One `mines serve` for the module's tests (each makes its own accounts and games)."""
    folder = tmp_path_factory.mktemp("serve")
    with server_process(f"sqlite:///{folder / 'games.sqlite3'}") as server:
        yield server


def new_game(client: ServerClient, **spec: object) -> RemoteGame:
    created = client.create(spec or {"preset": "beginner"})
    return RemoteGame(client, created, created["token"])


def win(game: RemoteGame) -> None:
    """Win a no-guess game at a person's pace, each move a cell the solver proves safe in the
    view the client drew from the server's answers (not from a read of its own)."""
    game.play(Move(MoveKind.OPEN, game.rows // 2, game.cols // 2))
    for _ in range(game.rows * game.cols):  # a bound: a client that draws nothing stops here
        if game.status is not GameStatus.IN_PROGRESS:
            break
        found = hint(game.view())
        assert found.safe, found
        time.sleep(HUMAN_STEP)
        game.play(Move(MoveKind.OPEN, found.row, found.col))


def test_a_signed_up_players_no_guess_win_counts_in_their_profile(
    serve: ServerProcess,
) -> None:
    client = ServerClient(serve.url)
    assert client.sign_up("Terminal Ann", PASSWORD) == "Terminal Ann"
    assert client.me() == "Terminal Ann"
    game = new_game(client, preset="beginner", no_guess=True)
    assert (game.ranks, game.no_guess, game.preset) == (True, True, "beginner")
    win(game)
    assert game.status is GameStatus.WON
    # The client's picture is the server's: every cell the same after the patched moves.
    server_cells = client.game(game.id)["view"]["cells"]
    assert game.view().to_strings() == server_cells
    assert game.standing() == "It counts on the leaderboard."
    profile = client.player("Terminal Ann")
    assert (profile["games"], profile["wins"]) == (1, 1)
    assert profile["best_no_guess"]["beginner"] == pytest.approx(game.elapsed, abs=0.001)
    assert profile["history"][0]["id"] == game.id
    record = game.record()
    assert record.status is GameStatus.WON
    assert len(record.moves) >= 2
    client.close()


def test_an_anonymous_game_is_played_and_says_it_is_unranked(serve: ServerProcess) -> None:
    client = ServerClient(serve.url)
    assert client.me() is None
    game = new_game(client, preset="beginner", no_guess=True)
    assert game.ranks is False
    win(game)
    assert game.standing() == "Not ranked: nobody was signed in when it started."


def test_an_anonymous_daily_game_is_read_with_its_token(serve: ServerProcess) -> None:
    """Until its day is over only its player may read a daily game by its ID (others get
    `403 daily_not_over`): the client reads its own with the game's token, signed in or not."""
    client = ServerClient(serve.url)
    game = new_game(client, daily="beginner", no_guess=True)
    win(game)
    game.refresh()  # a whole read of the view, as after the server was away
    assert game.status is GameStatus.WON
    assert game.standing() == "Not ranked: nobody was signed in when it started."
    assert game.record().status is GameStatus.WON
    client.close()


def test_flags_set_a_state_so_a_retry_cannot_undo_them(serve: ServerProcess) -> None:
    client = ServerClient(serve.url)
    game = new_game(client)
    game.play(Move(MoveKind.FLAG, 0, 0))
    assert game.view(0, 0, 1, 1)[0, 0] is Cell.FLAG
    # Flagged meanwhile in another terminal (or by a try whose answer was lost): the client
    # still shows it hidden, asks for "flagged", and the flag stays.
    client.move(game.id, game.token, MoveKind.FLAG, 0, 1, flagged=True)
    game.play(Move(MoveKind.FLAG, 0, 1))
    assert client.game(game.id)["view"]["cells"][0][:2] == "FF"
    assert game.view(0, 0, 1, 2).to_strings() == ["FF"]
    assert game.mines_left == 8
    game.play(Move(MoveKind.FLAG, 0, 0))  # and a toggle of a flag it shows asks for "unflagged"
    assert game.view(0, 0, 1, 1)[0, 0] is Cell.HIDDEN
    assert game.mines_left == 9
    with pytest.raises(IllegalMoveError, match="flagged"):  # the server's rule, in its words
        game.play(Move(MoveKind.OPEN, 0, 1))


def test_moves_the_client_did_not_see_are_read_again(serve: ServerProcess) -> None:
    client = ServerClient(serve.url)
    game = new_game(client)
    client.move(game.id, game.token, MoveKind.OPEN, 4, 4)  # another terminal's reveal
    cells = client.game(game.id)["view"]["cells"]
    row, col = next((r, c) for r, line in enumerate(cells) for c, s in enumerate(line) if s == "H")
    game.play(Move(MoveKind.FLAG, row, col))
    assert game.view().to_strings() == client.game(game.id)["view"]["cells"]
    assert game.started


def test_sign_in_errors_say_what_was_wrong(serve: ServerProcess) -> None:
    client = ServerClient(serve.url)
    client.sign_up("Bea", PASSWORD)
    client.sign_out()
    assert client.session is None
    assert client.me() is None
    with pytest.raises(SignInError, match=r"sign_in_failed"):
        client.sign_in("Bea", "not the password")
    with pytest.raises(SignInError, match=r"name_taken"):
        ServerClient(serve.url).sign_up("bea", PASSWORD)
    assert client.sign_in("BEA", PASSWORD) == "Bea"
    # A session ended on the server (signed out elsewhere) reads as signed out here.
    other = ServerClient(serve.url, session=client.session)
    client.sign_out()
    assert other.me() is None
    assert other.session is None


def test_the_password_is_in_no_file_and_no_log(serve: ServerProcess, tmp_path: Path) -> None:
    client = ServerClient(serve.url)
    secret = "a password nobody else knows 42"
    client.sign_up("Cyd", secret)
    sessions = Sessions(tmp_path / "data")
    assert client.session is not None
    sessions.put(client.url, Kept(session=client.session, name="Cyd"))
    kept = sessions.path.read_text(encoding="utf-8")
    assert client.session in kept
    assert secret not in kept
    assert secret not in serve.log()
    assert sessions.get(client.url) == Kept(session=client.session, name="Cyd")


def test_the_sessions_file_is_for_its_owner_only(tmp_path: Path) -> None:
    sessions = Sessions(tmp_path / "data")
    old = os.umask(0)  # the widest umask: the mode must not come from it
    try:
        sessions.put("http://a", Kept(session="cookie", name="Ann"))
        assert stat.S_IMODE(sessions.path.stat().st_mode) == 0o600
        sessions.path.chmod(0o644)  # widened by someone: the next write narrows it again
        sessions.put("http://b", Kept(game_id="abc", token="t"))
        assert stat.S_IMODE(sessions.path.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert sessions.get("http://a").name == "Ann"
    assert sessions.get("http://b").token == "t"
    sessions.put("http://a", Kept())  # forgetting a server leaves the others
    assert sessions.get("http://a") == Kept()
    assert sessions.get("http://b").game_id == "abc"
    assert [p.name for p in sessions.path.parent.iterdir()] == ["servers.json"]
    sessions.path.write_text("not json", encoding="utf-8")
    assert sessions.get("http://b") == Kept()


def test_a_server_that_goes_away_mid_game_is_one_line_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    database, port = f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port()
    with server_process(database, port=port) as server:
        client = ServerClient(server.url)
        game = new_game(client, preset="beginner", no_guess=True)
        game.play(Move(MoveKind.OPEN, 4, 4))
        opened = game.opened
        server.process.terminate()
        server.process.wait()
        with pytest.raises(ServerError) as gone:
            game.play(Move(MoveKind.FLAG, 0, 0))
    message = str(gone.value)
    assert "\n" not in message
    assert "Traceback" not in message
    assert message.startswith(f"cannot reach {server.url}")
    assert f"mines play --server {server.url} goes on with it" in message
    with server_process(database, port=port):  # back, on the same database
        game.refresh()
        assert game.opened == opened
        assert game.status is GameStatus.IN_PROGRESS
        found = hint(game.view())
        game.play(Move(MoveKind.OPEN, found.row, found.col))
        assert game.opened > opened


def test_a_server_that_hangs_is_a_timeout_in_words(serve: ServerProcess) -> None:
    port = int(serve.url.rsplit(":", 1)[1])
    proxy = TcpProxy(port)
    client = ServerClient(proxy.url, timeout=0.5)
    game = new_game(client)
    proxy.stall()
    try:
        with pytest.raises(ServerError, match=r"did not answer within 0\.5 s") as hung:
            game.play(Move(MoveKind.OPEN, 4, 4))
        assert hung.value.code == "timeout"
        proxy.cut()  # the held request is dropped, never delivered late
        proxy.restore()
        # A lost answer's move may have been stored: the next answer brings the whole board.
        game.play(Move(MoveKind.OPEN, 4, 4))
        assert game.view().to_strings() == client.game(game.id)["view"]["cells"]
        assert game.started
    finally:
        proxy.close()


def test_rate_limits_say_when_to_try_again(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(database, extra=["--rate-limit-game", "1/minute"]) as server:
        client = ServerClient(server.url)
        game = new_game(client)
        game.play(Move(MoveKind.FLAG, 0, 0))
        with pytest.raises(ServerError, match=r"is rate limiting: try again in \d+ s") as limited:
            game.play(Move(MoveKind.FLAG, 0, 1))
    assert limited.value.status == 429


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            httpx.Response(
                503,
                json={"code": "storage_unavailable", "detail": "the database failed"},
                headers={"Retry-After": "5"},
            ),
            "host failed (503 storage_unavailable): the database failed; try again in 5 s",
        ),
        (
            httpx.Response(502, text="<html>Bad Gateway</html>"),
            "host failed (502 error): Bad Gateway; try again later",
        ),
        (httpx.Response(200, text="<html>a captive portal</html>"), "not a mines server's JSON"),
    ],
)
def test_a_failing_server_or_something_else_answering_is_one_line(
    answer: httpx.Response, said: str
) -> None:
    client = ServerClient("http://host", transport=httpx.MockTransport(lambda _: answer))
    with pytest.raises(ServerError) as failed:
        client.game("abc")
    assert said in str(failed.value)
    assert "\n" not in str(failed.value)


def test_server_addresses() -> None:
    assert server_url("localhost:8000/") == "http://localhost:8000"
    assert server_url(" https://mines.example ") == "https://mines.example"
    with pytest.raises(ValueError, match="http:// or https://"):
        server_url("ftp://mines.example")
