"""Accounts over HTTP: sign up, in and out, sessions, look-alike names, cross-site writes, rates."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mines.server.api.sessions import COOKIE
from mines.server.common.settings import RateLimits
from mines.server.db.sql import SCHEMA_VERSION
from mines.server.services.accounts import SESSION_SECONDS
from mines.server.services.names import NAME_RULE
from tests.server.conftest import (
    PASSWORD,
    UNLIMITED,
    FakeClock,
    Server,
    database_from_dump,
    sign_up,
)


def test_an_account_is_made_signed_in_and_signed_out(any_server: Server) -> None:
    client = any_server.client
    assert client.get("/api/me").status_code == 401
    made = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert made.status_code == 201
    assert made.json()["name"] == "Ann"
    assert client.get("/api/me").json()["name"] == "Ann"
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/me").json()["code"] == "not_signed_in"
    again = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert again.status_code == 200
    assert client.get("/api/me").json()["name"] == "Ann"


def test_the_cookie_is_httponly_lax_and_secure_only_over_tls(server: Server) -> None:
    made = server.client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    cookie = made.headers["set-cookie"].lower()
    assert cookie.startswith(f"{COOKIE}=")
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert "secure" not in cookie
    assert f"max-age={SESSION_SECONDS}" in cookie
    tls = TestClient(server.client.app, base_url="https://mines.example")
    signed = tls.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert "secure" in signed.headers["set-cookie"].lower()


def test_a_sign_in_rotates_the_session_and_a_sign_out_revokes_it(server: Server) -> None:
    client = server.client
    sign_up(client, "Ann")
    first = client.cookies[COOKIE]
    client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    second = client.cookies[COOKIE]
    assert second != first
    stale = TestClient(client.app, cookies={COOKIE: first})
    assert stale.get("/api/me").status_code == 401  # the old session ended at the sign-in
    copy = TestClient(client.app, cookies={COOKIE: second})
    assert copy.get("/api/me").json()["name"] == "Ann"
    client.delete("/api/session")
    assert copy.get("/api/me").status_code == 401  # ended on the server, not only in a browser


def test_a_session_expires(server: Server, clock: FakeClock) -> None:
    sign_up(server.client, "Ann")
    clock.now += SESSION_SECONDS - 1
    assert server.client.get("/api/me").status_code == 200
    clock.now += 2
    assert server.client.get("/api/me").status_code == 401


def test_a_wrong_password_and_an_unknown_name_fail_alike(server: Server) -> None:
    sign_up(server.client, "Ann")
    wrong = server.client.post("/api/session", json={"name": "Ann", "password": "not the one"})
    unknown = server.client.post("/api/session", json={"name": "Bea", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "code": "sign_in_failed",
            "detail": "this name and password do not sign in",
        }
    )


def test_a_name_signs_in_whatever_its_case_or_look_alike_letters(server: Server) -> None:
    sign_up(server.client, "Ann")
    other = TestClient(server.client.app)
    answer = other.post("/api/session", json={"name": "ANN", "password": PASSWORD})
    assert answer.json()["name"] == "Ann"


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("ann", id="lower case"),
        pytest.param("\u0410nn", id="Cyrillic A"),  # a look-alike before it is a mixed script
        pytest.param("\uff21\uff4e\uff4e", id="fullwidth"),
        pytest.param("\u0391\u039d\u039d", id="Greek capitals"),
    ],
)
def test_a_look_alike_of_a_taken_name_is_refused(server: Server, name: str) -> None:
    assert sign_up(server.client, "Ann") == 201
    answer = server.client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 409
    assert answer.json()["code"] == "name_taken"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        pytest.param("\u3164", "invisible", id="U+3164"),
        pytest.param("\uffa0", "invisible", id="U+FFA0"),
        pytest.param("\u17b4", "invisible", id="U+17B4"),
        pytest.param("Ann\u200b", "invisible", id="zero-width space"),
        pytest.param("Ann\ufe0f", "invisible", id="variation selector"),
        pytest.param("\u0410nn", "mixes CYRILLIC and LATIN", id="Cyrillic A alone"),
        pytest.param("<b>Ann</b>", "starts with '<'", id="markup"),
    ],
)
def test_an_invalid_name_is_refused_with_the_rule(server: Server, name: str, words: str) -> None:
    answer = server.client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid_name"
    assert words in answer.json()["detail"]


def test_the_name_is_stored_in_its_normal_form(server: Server) -> None:
    made = server.client.post("/api/accounts", json={"name": " \uff21nn ", "password": PASSWORD})
    assert made.json()["name"] == "Ann"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        pytest.param("Ann\u200b", "invisible or unassigned character, U+200B", id="zero-width"),
        pytest.param("x" * 25, "25 characters long, past 24", id="too long"),
        pytest.param("-Ann", "starts with '-'", id="first character"),
        pytest.param("Ann\u0301\u0301\u0301", "stacks more than 2", id="stacked marks"),
        pytest.param("Ann\x07", "control character", id="control"),
    ],
)
def test_one_name_is_judged_alike_by_accounts_games_and_races(
    server: Server, name: str, words: str
) -> None:
    """Once three pipelines: `Ann\u200b` made an account "Ann" and was a 422 for a game."""
    account = server.client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    game = server.client.post("/api/games", json={"preset": "beginner", "player": name})
    race = server.client.post("/api/races", json={"preset": "beginner", "player": name})
    details = [answer.json()["detail"] for answer in (account, game, race)]
    assert [a.status_code for a in (account, game, race)] == [422] * 3
    assert all(words in detail and NAME_RULE in detail for detail in details), details
    fine = "_Ann"  # the page said a name starts with a letter or digit; the rule allows `_`
    for path in ("/api/games", "/api/races"):
        answer = server.client.post(path, json={"preset": "beginner", "player": fine})
        assert answer.status_code == 201, answer.text
    assert sign_up(server.client, fine) == 201


def test_a_short_password_is_refused(server: Server) -> None:
    answer = server.client.post("/api/accounts", json={"name": "Ann", "password": "short"})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "body.password"


def test_a_password_is_never_stored_or_logged_in_clear(
    server: Server, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "unmistakable-Pa55word-of-Ann"
    caplog.set_level(logging.DEBUG)
    sign_up(server.client, "Ann", secret)
    server.client.post("/api/session", json={"name": "Ann", "password": secret})
    server.client.post("/api/session", json={"name": "Ann", "password": secret + "x"})
    token = server.client.cookies[COOKIE]
    server.close()
    files = list(Path(sqlite_url.removeprefix("sqlite:///")).parent.glob("games.sqlite3*"))
    stored = b"".join(path.read_bytes() for path in files)
    assert b"argon2id" in stored  # the hash is there, so the scan reads the right files
    assert secret.encode() not in stored
    assert token.encode() not in stored  # the session token is kept as its hash only
    assert secret not in caplog.text


CROSS_SITE = [
    pytest.param({"Sec-Fetch-Site": "cross-site"}, id="cross-site fetch"),
    pytest.param({"Sec-Fetch-Site": "same-site"}, id="sibling subdomain"),
    pytest.param({"Origin": "https://evil.example"}, id="other origin"),
    pytest.param({"Origin": "null"}, id="opaque origin"),
]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_request_cannot_act_with_the_cookie(
    server: Server, headers: dict[str, str]
) -> None:
    sign_up(server.client, "Ann")
    refused = server.client.delete("/api/session", headers=headers)
    assert refused.status_code == 403
    assert refused.json()["code"] == "cross_site"
    assert server.client.get("/api/me").status_code == 200  # still signed in
    game = server.client.post("/api/games", json={"preset": "beginner"}, headers=headers)
    assert game.status_code == 403


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_another_site_cannot_sign_a_visitor_in(server: Server, headers: dict[str, str]) -> None:
    sign_up(TestClient(server.client.app), "Mallory")
    visitor = TestClient(server.client.app)
    answer = visitor.post(
        "/api/session", json={"name": "Mallory", "password": PASSWORD}, headers=headers
    )
    assert answer.status_code == 403
    assert COOKIE not in visitor.cookies


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({"Sec-Fetch-Site": "same-origin"}, id="same-origin fetch"),
        pytest.param({"Sec-Fetch-Site": "none"}, id="typed by the person"),
        pytest.param({"Origin": "http://testserver"}, id="own origin"),
        pytest.param({}, id="a program"),
    ],
)
def test_the_sites_own_requests_act(server: Server, headers: dict[str, str]) -> None:
    sign_up(server.client, "Ann")
    assert server.client.post("/api/games", json={}, headers=headers).status_code != 403
    assert server.client.delete("/api/session", headers=headers).status_code == 204


def limited_server(url: str, clock: FakeClock, signin: str) -> Server:
    rates = RateLimits(UNLIMITED.address, UNLIMITED.create, UNLIMITED.game, signin)
    return Server(url, clock, rates=rates)


def from_address(server: Server, address: str) -> TestClient:
    return TestClient(server.client.app, client=(address, 40000))


def test_sign_ins_to_one_name_are_limited_from_every_address(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = limited_server(sqlite_url, clock, "3/minute")
    try:
        assert sign_up(from_address(server, "10.0.0.9"), "Ann") == 201
        one, two = from_address(server, "10.0.0.1"), from_address(server, "10.0.0.2")
        guess = {"name": "Ann", "password": "wrong guess"}
        assert [one.post("/api/session", json=guess).status_code for _ in range(3)] == [401] * 3
        refused = two.post("/api/session", json={"name": "ann", "password": PASSWORD})
        assert refused.status_code == 429  # the right password too, and from elsewhere
        assert refused.json()["code"] == "rate_limited"
        assert "this name" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        other = two.post("/api/session", json={"name": "Bea", "password": PASSWORD})
        assert other.status_code == 401  # the second address may still try other names
    finally:
        server.close()


def test_sign_ins_from_one_address_are_limited(sqlite_url: str, clock: FakeClock) -> None:
    server = limited_server(sqlite_url, clock, "3/minute")
    try:
        client = from_address(server, "10.0.0.1")
        names = ["Ann", "Bea", "Cy", "Di"]
        codes = [client.post("/api/session", json={"name": n, "password": PASSWORD}).status_code
                 for n in names]  # fmt: skip
        assert codes == [401, 401, 401, 429]
        assert (
            "your address"
            in client.post("/api/session", json={"name": "Ed", "password": PASSWORD}).json()[
                "detail"
            ]
        )
        assert (
            from_address(server, "10.0.0.2")
            .post("/api/session", json={"name": "Ed", "password": PASSWORD})
            .status_code
            == 401
        )
    finally:
        server.close()


def test_a_database_of_schema_5_gains_accounts(tmp_path: Path, clock: FakeClock) -> None:
    # schema_v5.sql is a database made by the server at schema version 5: a Beginner game
    # 3e1edc68523290d7 won by "Ann" in 32.5 s (ranked then, by name) and a game by "Bea" not
    # yet begun. Names were not owned then: the old win is kept, and no longer ranks.
    path = database_from_dump("schema_v5.sql", tmp_path / "v5.sqlite3")
    server = Server(f"sqlite:///{path}", clock)
    try:
        assert server.client.get("/api/leaderboard?preset=beginner").json()["entries"] == []
        summary = server.client.get("/api/games/3e1edc68523290d7/summary").json()
        assert (summary["status"], summary["elapsed"]) == ("WON", 32.5)
        assert summary["unranked"] == "anonymous"
        assert sign_up(server.client, "Ann") == 201
        assert server.client.get("/api/me").json()["name"] == "Ann"
        assert sign_up(TestClient(server.client.app), "ann") == 409
    finally:
        server.close()
    with sqlite3.connect(path) as migrated:
        version = migrated.execute("SELECT version FROM schema_version").fetchall()
        assert version == [(SCHEMA_VERSION,)]
        columns = {row[1] for row in migrated.execute("PRAGMA table_info(games)")}
        assert {"account_id", "finished_at", "elapsed", "three_bv"} <= columns


def test_a_wrong_method_on_the_session_lists_every_one_of_its_methods(server: Server) -> None:
    """GET reads who is signed in, POST signs in, DELETE signs out: three routes on one path,
    and Starlette's own 405 would list only the first's method."""
    answer = server.client.put("/api/session", json={})
    assert answer.status_code == 405
    assert answer.headers["Allow"] == "DELETE, GET, POST"
