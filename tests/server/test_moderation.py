"""Moderation by `mines admin`: accounts suspended and restored, renamed, hidden and shown,
networks blocked and unblocked, each logged with who and why, each seen through HTTP."""

from __future__ import annotations

import time
from typing import cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mines.cli.main import main
from mines.server.services.accounts import SESSION_SECONDS
from tests.server.conftest import PASSWORD, FakeClock, Server
from tests.server.test_leaderboard import entries, win


def admin(server: Server, *args: str, reason: str = "test") -> int:
    return main(["admin", *args, "--db", server.database, "--by", "ops", "--reason", reason])


def sign_in(server: Server, name: str = "Ann") -> TestClient:
    client = TestClient(server.client.app)
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client


@pytest.fixture
def ranked(any_server: Server, clock: FakeClock) -> Server:
    """Ann signed in with a ranked win of 30 s (on SQLite, and again on PostgreSQL)."""
    server = any_server
    server.sign_up("Ann")
    win(server, clock, 30.0)
    return server


def test_a_suspended_account_cannot_sign_in_or_rank_until_restored(
    ranked: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    other = sign_in(ranked)
    assert admin(ranked, "account", "suspend", "ann", reason="cheating") == 0
    assert "suspended 'Ann'" in capsys.readouterr().out
    assert ranked.client.get("/api/me").status_code == 401  # signed out everywhere
    assert other.get("/api/me").status_code == 401
    refused = TestClient(ranked.client.app).post(
        "/api/session", json={"name": "Ann", "password": PASSWORD}
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "account_suspended")
    wrong = TestClient(ranked.client.app).post(
        "/api/session", json={"name": "Ann", "password": "not the password"}
    )
    assert wrong.json()["code"] == "sign_in_failed"  # suspension told only with the password
    assert entries(ranked) == []
    assert admin(ranked, "account", "restore", "Ann", reason="appeal upheld") == 0
    assert "restored 'Ann'" in capsys.readouterr().out
    sign_in(ranked)
    assert entries(ranked) == [("Ann", 30.0)]
    assert admin_plain(ranked, "log") == 0
    log = capsys.readouterr().out.splitlines()
    assert "ops  restore  Ann  (appeal upheld)" in log[0]
    assert "ops  suspend  Ann  (cheating)" in log[1]


def test_a_renamed_account_shows_its_new_name_everywhere(
    ranked: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    assert admin(ranked, "account", "rename", "Ann", "Player 7", reason="offensive") == 0
    assert "renamed 'Ann' to 'Player 7'" in capsys.readouterr().out
    assert entries(ranked) == [("Player 7", 30.0)]
    assert ranked.client.get("/api/me").json()["name"] == "Player 7"
    assert ranked.client.get("/api/players/Player 7").status_code == 200
    assert ranked.client.get("/api/players/Ann").status_code == 404
    exported = ranked.client.get("/api/me/export").json()
    assert {g["player"] for g in exported["games"]} == {"Player 7"}
    assert sign_in(ranked, "Player 7").get("/api/me").status_code == 200
    # The new name follows the rule for names: not another's, not a look-alike.
    assert (
        TestClient(ranked.client.app)
        .post("/api/accounts", json={"name": "Bea", "password": PASSWORD})
        .status_code
        == 201
    )
    assert admin(ranked, "account", "rename", "Player 7", "bea") == 2
    assert "taken" in capsys.readouterr().err
    assert admin(ranked, "account", "rename", "Player 7", "") == 2
    assert admin(ranked, "account", "rename", "Nobody", "Cid") == 2
    assert "no account" in capsys.readouterr().err


def test_a_hidden_name_is_off_the_leaderboard_profiles_and_races(ranked: Server) -> None:
    room = {"player": "ann", "preset": "beginner"}
    assert ranked.client.post("/api/races", json=room).status_code == 201
    assert admin(ranked, "account", "hide", "Ann") == 0
    assert entries(ranked) == []
    assert ranked.client.get("/api/players/Ann").status_code == 404
    refused = ranked.client.post("/api/races", json=room)
    assert (refused.status_code, refused.json()["code"]) == (409, "join_refused")
    made = ranked.client.post("/api/races", json={"player": "Bea", "preset": "beginner"})
    joined = ranked.client.post(
        f"/api/races/{made.json()['room']['id']}/join", json={"player": "ANN"}
    )
    assert joined.status_code == 409
    assert ranked.client.get("/api/me").status_code == 200  # hidden, not suspended
    assert admin(ranked, "account", "show", "Ann") == 0
    assert entries(ranked) == [("Ann", 30.0)]
    assert ranked.client.post("/api/races", json=room).status_code == 201
    assert ranked.client.get("/api/players/Ann").status_code == 200


def test_a_blocked_network_is_refused_until_unblocked(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    app = cast(FastAPI, server.client.app)
    app.state.blocks.refresh = 0.0  # read the list at every request
    inside = TestClient(app, client=("203.0.113.7", 5000))
    outside = TestClient(app, client=("198.51.100.1", 5000))
    v6 = TestClient(app, client=("2001:db8::1", 5000))
    assert inside.get("/api/meta").status_code == 200
    assert admin(server, "block", "203.0.113.0/24", reason="flood") == 0
    assert admin(server, "block", "2001:db8::/32", reason="flood") == 0
    assert admin(server, "block", "203.0.113.9/24") == 0
    assert "203.0.113.0/24 was blocked already" in capsys.readouterr().out
    refused = inside.get("/api/meta")
    assert (refused.status_code, refused.json()["code"]) == (403, "address_blocked")
    assert v6.get("/api/meta").status_code == 403
    assert outside.get("/api/meta").status_code == 200
    assert admin(server, "unblock", "203.0.113.0/24", reason="over") == 0
    assert inside.get("/api/meta").status_code == 200
    assert admin(server, "block", "not-an-address") == 2
    assert "expected an IPv4 or IPv6 address" in capsys.readouterr().err
    assert admin_plain(server, "log") == 0
    assert "ops  unblock  203.0.113.0/24  (over)" in capsys.readouterr().out


def test_a_block_reaches_a_process_within_its_refresh(server: Server) -> None:
    app = cast(FastAPI, server.client.app)
    inside = TestClient(app, client=("203.0.113.7", 5000))
    assert inside.get("/api/meta").status_code == 200  # the list is read: empty
    assert admin(server, "block", "203.0.113.7") == 0
    assert inside.get("/api/meta").status_code == 200  # kept until the refresh
    app.state.blocks.refresh = 0.0
    assert inside.get("/api/meta").status_code == 403


def test_expired_sessions_are_pruned_by_admin(
    server: Server, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    clock.now = time.time() - SESSION_SECONDS - 60  # expired when the command runs
    server.sign_up("Ann")
    clock.now = time.time()
    TestClient(server.client.app).post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert admin_plain(server, "prune", "--dry-run") == 0
    assert "would delete 1 expired sign-in session(s)" in capsys.readouterr().out
    assert admin_plain(server, "prune") == 0
    assert "deleted 1 expired sign-in session(s)" in capsys.readouterr().out
    assert admin_plain(server, "prune") == 0
    assert "deleted 0 expired sign-in session(s)" in capsys.readouterr().out


def admin_plain(server: Server, *args: str) -> int:
    return main(["admin", *args, "--db", server.database])
