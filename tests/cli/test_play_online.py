"""`mines play --server URL`: signing in on the terminal, the session kept for later runs and
forgotten by `--sign-out`, the game left unfinished gone on with, line mode on a server."""

from __future__ import annotations

import builtins
import getpass
import io
import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from mines.cli.main import main
from mines.tui.client import ServerClient
from mines.tui.sessions import Sessions
from tests.server.processes import ServerProcess, server_process

PASSWORD = "a secret only the player knows"


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("serve")
    with server_process(f"sqlite:///{folder / 'games.sqlite3'}") as server:
        yield server


class Terminal(io.StringIO):
    """Standard input on a terminal: the lines typed, and a tty to ask a password on."""

    def isatty(self) -> bool:
        return True


def typing(
    monkeypatch: pytest.MonkeyPatch, names: list[str], passwords: list[str], lines: str
) -> list[str]:
    """Names for `input`, passwords for `getpass`, then `lines` on stdin; the prompts shown."""
    prompts: list[str] = []

    def ask(prompt: str = "") -> str:
        prompts.append(prompt)
        if not names:
            raise EOFError
        return names.pop(0)

    def secret(prompt: str = "Password: ") -> str:
        prompts.append(prompt)
        return passwords.pop(0)

    monkeypatch.setattr(builtins, "input", ask)
    monkeypatch.setattr(getpass, "getpass", secret)
    monkeypatch.setattr("sys.stdin", Terminal(lines))
    return prompts


def test_sign_up_play_come_back_and_sign_out(
    serve: ServerProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    data_folder: Path,
) -> None:
    prompts = typing(monkeypatch, ["Line Lou"], [PASSWORD, PASSWORD], "o 4,4\nq\n")
    assert main(["play", "--server", serve.url, "--sign-up", "--plain", "--no-guess"]) == 0
    out, err = capsys.readouterr()
    assert prompts == ["Name: ", "Password: ", "Password again: "]
    assert f"Signed in to {serve.url[7:]} as Line Lou." in out
    assert "as Line Lou: a win ranks." in out
    assert "(4, 4) opened an area" in out
    assert f"The game goes on on {serve.url[7:]}: mines play --server {serve.url}" in out
    assert err == ""

    sessions = Sessions(data_folder)
    assert stat.S_IMODE(sessions.path.stat().st_mode) == 0o600
    kept = sessions.get(serve.url)
    assert kept.name == "Line Lou"
    assert kept.session is not None
    assert kept.game_id is not None
    for text in (sessions.path.read_text(encoding="utf-8"), out, serve.log()):
        assert PASSWORD not in text

    # Later: still signed in (nothing asked), and the unfinished game goes on.
    prompts = typing(monkeypatch, [], [], "q\n")
    assert main(["play", "--server", serve.url, "--plain"]) == 0
    out, _ = capsys.readouterr()
    assert prompts == []
    assert f"Going on with your unfinished game on {serve.url[7:]}." in out
    assert "as Line Lou" in out
    assert sessions.get(serve.url).game_id == kept.game_id

    assert main(["play", "--server", serve.url, "--sign-out"]) == 0
    assert capsys.readouterr().out == f"Signed out of {serve.url[7:]}.\n"
    assert sessions.get(serve.url).session is None
    assert ServerClient(serve.url, session=kept.session).me() is None  # ended on the server


def test_an_empty_name_plays_unranked(
    serve: ServerProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = typing(monkeypatch, [""], [], "q\n")
    assert main(["play", "--server", serve.url, "--plain", "--preset", "beginner"]) == 0
    out, _ = capsys.readouterr()
    assert prompts == ["Name: "]
    assert "Playing without an account: this game does not rank." in out
    assert "not signed in: this game does not rank." in out


def test_the_end_of_input_at_the_name_plays_unranked(
    serve: ServerProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typing(monkeypatch, [], [], "q\n")  # no name to read: input() meets the end (Ctrl-D)
    assert main(["play", "--server", serve.url, "--plain", "--preset", "beginner"]) == 0
    assert "Playing without an account: this game does not rank." in capsys.readouterr().out


def test_a_wrong_password_is_said_and_asked_again(
    serve: ServerProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ServerClient(serve.url).sign_up("Mo", PASSWORD)
    typing(monkeypatch, ["Mo", "Mo"], ["wrong password", PASSWORD], "q\n")
    assert main(["play", "--server", serve.url, "--plain", "--preset", "beginner"]) == 0
    out, _ = capsys.readouterr()
    assert "Not signed in: " in out
    assert "sign_in_failed" in out
    assert "Signed in to" in out


def test_anonymous_and_the_environment_variable(
    serve: ServerProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MINES_SERVER", serve.url)
    typing(monkeypatch, [], [], "q\n")
    assert main(["play", "--plain", "--anonymous", "--daily", "--no-guess"]) == 0
    out, _ = capsys.readouterr()
    assert "not signed in: this game does not rank." in out


def test_a_server_that_is_not_there_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--server", "http://127.0.0.1:9", "--plain", "--anonymous"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("mines: cannot reach http://127.0.0.1:9: ")
    assert err.count("\n") == 1
    assert out == ""


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--daily"], "need --server"),
        (["--server", "http://x", "--game-id", "9x9n10#1"], "--game-id is for games played here"),
        (["--server", "http://x", "--practice"], "--practice (undo) is for games played here"),
        (["--server", "http://x", "--daily", "--rows", "5"], "--daily is a preset's board"),
        (["--server", "ftp://x"], "--server needs an http:// or https:// address"),
    ],
)
def test_options_a_server_does_not_take(
    options: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--plain", *options]) == 2
    assert said in capsys.readouterr().err


def test_export_change_password_and_delete_from_the_terminal(
    serve: ServerProcess,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    data_folder: Path,
) -> None:
    new = "a new secret only the player knows"
    typing(monkeypatch, ["Leaving Lee"], [PASSWORD, PASSWORD], "q\n")
    assert main(["play", "--server", serve.url, "--sign-up", "--plain"]) == 0
    capsys.readouterr()
    exported = data_folder / "lee.json"
    typing(monkeypatch, [], [PASSWORD, new, new], "")
    assert (
        main(["play", "--server", serve.url, "--export", str(exported), "--change-password"]) == 0
    )
    out, _ = capsys.readouterr()
    assert "Password changed" in out
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    assert json.loads(exported.read_text())["account"]["name"] == "Leaving Lee"
    typing(monkeypatch, [], ["not it"], "")
    assert main(["play", "--server", serve.url, "--delete-account"]) == 2
    assert "wrong_password" in capsys.readouterr().err
    typing(monkeypatch, [], [new], "")
    assert main(["play", "--server", serve.url, "--delete-account"]) == 0
    assert "Deleted Leaving Lee" in capsys.readouterr().out
    assert Sessions(data_folder).get(serve.url).session is None
    assert ServerClient(serve.url).sign_up("Leaving Lee", PASSWORD) == "Leaving Lee"
