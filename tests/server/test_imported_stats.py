"""A browser's own statistics added to an account: once, strictly checked, shown apart from the
account's games as not verified, and never ranked."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mines.server.db.sql import SCHEMA_VERSION
from tests.server.conftest import PASSWORD, FakeClock, Server, database_from_dump
from tests.server.test_accounts import CROSS_SITE
from tests.server.test_profiles import play

IMPORT = "/api/me/imported-stats"
BEGINNER = {
    "preset": "beginner",
    "no_guess": False,
    "games": 12,
    "wins": 7,
    "best_streak": 3,
    "best_time": 5.25,
    "best_three_bv_per_second": 2.5,
}
"""A browser's Beginner figures: a best time far better than the account's own."""
EXPERT_NO_GUESS = {**BEGINNER, "preset": "expert", "no_guess": True, "wins": 0, "best_streak": 0,
                   "best_time": None, "best_three_bv_per_second": None}  # fmt: skip


def test_a_browsers_stats_are_taken_once_and_shown_apart(
    any_server: Server, clock: FakeClock
) -> None:
    server = any_server
    server.sign_up("Ann")
    play(server, clock, 30.0, True)  # the account's own ranked win
    assert server.client.get("/api/me").json()["stats_imported"] is False
    clock.now += 100
    taken = server.client.post(IMPORT, json={"boards": [EXPERT_NO_GUESS, BEGINNER]})
    assert taken.status_code == 201, taken.text
    assert taken.json() == {
        "imported_at": clock.now,
        "verified": False,
        "boards": [BEGINNER, EXPERT_NO_GUESS],  # in the presets' order
    }
    profile = server.client.get("/api/players/Ann").json()
    assert profile["imported"] == taken.json()
    # Apart: the account's own figures and the leaderboard count its games only.
    assert (profile["games"], profile["wins"], profile["best"]) == (1, 1, {"beginner": 30.0})
    assert profile["three_bv_per_second"]["best"] < 10
    board = server.client.get("/api/leaderboard?preset=beginner").json()["entries"]
    assert [(e["player"], e["time"]) for e in board] == [("Ann", 30.0)]
    assert server.client.get("/api/me").json()["stats_imported"] is True
    again = server.client.post(IMPORT, json={"boards": [{**BEGINNER, "games": 99}]})
    assert (again.status_code, again.json()["code"]) == (409, "already_imported")
    assert "only once" in again.json()["detail"]
    assert server.client.get("/api/players/Ann").json()["imported"] == taken.json()


def test_a_player_who_took_none_shows_no_imported_stats(server: Server) -> None:
    server.sign_up("Ann")
    assert server.client.get("/api/players/Ann").json()["imported"] is None


def test_taking_stats_needs_a_signed_in_account(server: Server) -> None:
    answer = server.client.post(IMPORT, json={"boards": [BEGINNER]})
    assert (answer.status_code, answer.json()["code"]) == (401, "not_signed_in")


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_another_site_cannot_add_stats_with_the_cookie(
    server: Server, headers: dict[str, str]
) -> None:
    server.sign_up("Ann")
    answer = server.client.post(IMPORT, json={"boards": [BEGINNER]}, headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (403, "cross_site")
    assert server.client.get("/api/players/Ann").json()["imported"] is None


def board(**changes: Any) -> dict[str, Any]:
    return {"boards": [{**BEGINNER, **changes}]}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (board(wins=13), "wins (13) may not be more than games (12)"),
        (board(best_streak=8), "best_streak (8) may not be more than wins (7)"),
        (board(games=0, wins=0, best_streak=0), "need a win"),
        (board(games=-1), "greater than or equal to 0"),
        (board(games=1_000_001, wins=1), "less than or equal to 1000000"),
        (board(best_time=0), "greater than 0"),
        (board(best_time=-3.5), "greater than 0"),
        (board(best_time=2e6), "less than or equal to 1000000"),
        (board(best_three_bv_per_second=0.0), "greater than 0"),
        (board(preset="huge"), "'beginner', 'intermediate' or 'expert'"),
        (board(games="12"), "valid integer"),
        (board(games=12.0), "valid integer"),
        (board(no_guess="no"), "valid boolean"),
        (board(best_time="5"), "valid number"),
        (board(streak=3), "Extra inputs are not permitted"),
        ({"boards": [BEGINNER, BEGINNER]}, "each board may come once; beginner (classic)"),
        ({"boards": []}, "at least 1 item"),
        ({"boards": [BEGINNER] * 7}, "at most 6 items"),
        ({}, "Field required"),
    ],
)
def test_stats_that_no_browser_could_count_are_refused_with_the_rule(
    server: Server, body: dict[str, Any], words: str
) -> None:
    server.sign_up("Ann")
    answer = server.client.post(IMPORT, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "validation_error"
    assert words in answer.json()["detail"]
    assert server.client.post(IMPORT, json={"boards": [BEGINNER]}).status_code == 201  # still


def test_a_database_of_schema_10_gains_imported_stats(tmp_path: Path, clock: FakeClock) -> None:
    # schema_v10.sql is a database made by the server at schema version 10: the account "Ann"
    # (password PASSWORD) with a Beginner game f54b20425d7d0e1f won signed in, in 30 s.
    path = database_from_dump("schema_v10.sql", tmp_path / "v10.sqlite3")
    server = Server(f"sqlite:///{path}", clock)
    try:
        signed_in = server.client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert signed_in.json()["stats_imported"] is False
        profile = server.client.get("/api/players/Ann").json()
        assert (profile["games"], profile["best"], profile["imported"]) == (
            1,
            {"beginner": 30.0},
            None,
        )
        assert server.client.post(IMPORT, json={"boards": [BEGINNER]}).status_code == 201
        assert server.client.get("/api/players/Ann").json()["imported"]["boards"] == [BEGINNER]
    finally:
        server.close()
    with sqlite3.connect(path) as migrated:
        assert migrated.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)
        ]
        columns = {row[1] for row in migrated.execute("PRAGMA table_info(accounts)")}
        assert "stats_imported_at" in columns
