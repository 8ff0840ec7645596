"""Accounts people can leave: a password changed, an account deleted (its data gone from every
table, its games kept anonymous), everything exported, expired sessions pruned."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from mines.server.api.sessions import COOKIE
from mines.server.db.sql import SqlStorage
from mines.server.db.sqlite import SqliteStorage
from mines.server.services.accounts import SESSION_SECONDS
from tests.server.conftest import PASSWORD, FakeClock, Server, sign_up
from tests.server.test_leaderboard import entries, win

NEW_PASSWORD = "a new and longer passphrase"


def all_rows(server: Server) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a test server's database (SQLite, or its PostgreSQL schema)."""
    storage = server.service.storage
    assert isinstance(storage, SqlStorage)
    with storage.transaction(write=False) as cursor:
        if isinstance(storage, SqliteStorage):
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            cursor.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        tables = [str(name) for (name,) in cursor.fetchall()]
        found = {}
        for table in tables:
            cursor.execute(f"SELECT * FROM {table}")
            found[table] = [tuple(row) for row in cursor.fetchall()]
        return found


def test_a_password_change_signs_out_every_other_session(server: Server) -> None:
    sign_up(server.client, "Ann")
    other = TestClient(server.client.app)
    other.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert other.get("/api/me").status_code == 200
    changed = server.client.put(
        "/api/me/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json() == {"signed_out": 1}
    assert server.client.get("/api/me").status_code == 200  # this session goes on
    assert other.get("/api/me").status_code == 401
    old = TestClient(server.client.app).post(
        "/api/session", json={"name": "Ann", "password": PASSWORD}
    )
    assert old.status_code == 401
    new = TestClient(server.client.app).post(
        "/api/session", json={"name": "Ann", "password": NEW_PASSWORD}
    )
    assert new.status_code == 200


def test_a_change_or_deletion_with_a_wrong_password_changes_nothing(server: Server) -> None:
    sign_up(server.client, "Ann")
    wrong = {"password": "not the password", "new_password": NEW_PASSWORD}
    answer = server.client.put("/api/me/password", json=wrong)
    assert (answer.status_code, answer.json()["code"]) == (403, "wrong_password")
    gone = server.client.request("DELETE", "/api/me", json={"password": "not the password"})
    assert (gone.status_code, gone.json()["code"]) == (403, "wrong_password")
    assert server.client.get("/api/me").json()["name"] == "Ann"
    again = TestClient(server.client.app).post(
        "/api/session", json={"name": "Ann", "password": PASSWORD}
    )
    assert again.status_code == 200


def test_leaving_needs_a_session(server: Server) -> None:
    assert server.client.get("/api/me/export").json()["code"] == "not_signed_in"
    answer = server.client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert answer.status_code == 401
    short = server.client.put("/api/me/password", json={"password": "x", "new_password": "short"})
    assert short.status_code == 422


def test_a_deleted_accounts_data_is_gone_from_every_table(
    any_server: Server, clock: FakeClock
) -> None:
    server = any_server
    server.sign_up("Zelda Quux")
    game = win(server, clock, 30.0)
    server.client.post(
        "/api/me/imported-stats",
        json={"boards": [{"preset": "beginner", "no_guess": False, "games": 3, "wins": 1}]},
    )
    assert entries(server) == [("Zelda Quux", 30.0)]
    other = TestClient(server.client.app)
    other.post("/api/session", json={"name": "Zelda Quux", "password": PASSWORD})
    account_id = server.accounts.account(server.client.cookies[COOKIE]).id
    password_hash = server.accounts.account(server.client.cookies[COOKIE]).password_hash
    rows = all_rows(server)
    text = repr(rows)
    for kept in ("Zelda Quux", account_id, password_hash):
        assert kept in text
    assert rows["sessions"]
    assert rows["imported_stats"]

    answer = server.client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert answer.status_code == 204
    assert COOKIE not in server.client.cookies
    assert other.get("/api/me").status_code == 401
    text = repr(all_rows(server))
    for kept in ("Zelda Quux", "zelda quux", account_id, password_hash):
        assert kept not in text
    rows = all_rows(server)
    for table in ("sessions", "imported_stats", "accounts"):
        assert rows[table] == []
    # The game stays, replayable, an anonymous player's; it no longer ranks.
    assert entries(server) == []
    assert server.client.get(f"/api/games/{game['id']}").status_code == 200
    assert server.client.get("/api/players/Zelda Quux").status_code == 404
    # The name is free again.
    assert sign_up(TestClient(server.client.app), "Zelda Quux") == 201


def test_the_export_holds_what_the_server_keeps(server: Server, clock: FakeClock) -> None:
    server.sign_up("Ann")
    game = win(server, clock, 20.0)
    answer = server.client.get("/api/me/export")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    found = answer.json()
    assert found["account"]["name"] == "Ann"
    assert [g["id"] for g in found["games"]] == [game["id"]]
    assert found["games"][0]["moves"][0]["move"] == "O0,0"  # the stored notation
    assert found["games"][0]["status"] == "WON"
    assert [r["game_id"] for r in found["results"]] == [game["id"]]
    assert len(found["sessions"]) == 1
    assert "password_hash" not in repr(found)
    account = server.accounts.account(server.client.cookies[COOKIE])
    assert account.password_hash not in answer.text
    assert server.client.cookies[COOKIE] not in answer.text


def test_expired_sessions_are_pruned(server: Server, clock: FakeClock) -> None:
    sign_up(server.client, "Ann")
    clock.now += SESSION_SECONDS / 2
    sign_up(TestClient(server.client.app), "Bea")
    assert server.accounts.prune_sessions() == 0
    clock.now += SESSION_SECONDS / 2
    assert server.accounts.prune_sessions() == 1
    assert len(all_rows(server)["sessions"]) == 1
