"""A fair leaderboard: one entry per name, normalised names, assisted games never rank; and the
schema's version and migrations (a database made before versioning opens and plays on)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mines.server.database import open_storage
from mines.server.sql import SCHEMA_VERSION
from mines.server.storage import StorageError
from tests.server.conftest import FakeClock, Server, database_from_dump, layout, safe_cells


def win(server: Server, clock: FakeClock, seconds: float, **body: Any) -> dict[str, Any]:
    """A won beginner game on a server-drawn seed, `seconds` long."""
    seed = server.next_seed
    game = server.create(preset="beginner", **body)
    server.move(game, "reveal", 0, 0)
    clock.now += seconds
    for r, c in safe_cells(9, 9, layout(seed, 9, 9, 10, (0, 0))):
        if server.move(game, "reveal", r, c).json()["view"]["status"] == "WON":
            return game
    pytest.fail("the game was not won")


def entries(server: Server) -> list[tuple[str, float]]:
    board = server.client.get("/api/leaderboard?preset=beginner").json()
    return [(e["player"], e["time"]) for e in board["entries"]]


def test_one_entry_per_name_with_its_best_time(server: Server, clock: FakeClock) -> None:
    for seconds in (30.0, 12.0, 40.0, 15.0):
        win(server, clock, seconds, player="ann")
    win(server, clock, 20.0, player="bob")
    assert entries(server) == [("ann", 12.0), ("bob", 20.0)]


def test_look_alike_names_are_one_name(server: Server, clock: FakeClock) -> None:
    win(server, clock, 30.0, player="  Ann ")
    win(
        server, clock, 20.0, player="\uff21\uff4e\uff4e"
    )  # fullwidth letters: NFKC makes them "Ann"
    assert entries(server) == [("Ann", 20.0)]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("An\u200bn", "zero-width"),
        ("Ann\u202e", "zero-width"),
        ("Ann\x07", "control"),
        ("Ann\u0301\u0301\u0301", "combining"),
    ],
)
def test_invisible_and_stacked_characters_are_refused(
    server: Server, name: str, words: str
) -> None:
    answer = server.client.post("/api/games", json={"preset": "beginner", "player": name})
    assert answer.status_code == 422
    assert words in answer.json()["detail"]
    assert answer.json()["errors"][0]["field"] == "body.player"


def test_accents_are_letters(server: Server) -> None:
    assert server.create(preset="beginner", player="Zoe\u0308")["id"]  # NFKC: "Zoë"
    assert server.create(preset="beginner", player="Vi\u1ec7t")["id"]  # two marks on one e


def test_an_assisted_game_never_ranks(server: Server, clock: FakeClock) -> None:
    before = server.create(preset="beginner", player="helped")
    server.service.mark_assisted(before["id"])
    win(server, clock, 5.0, player="fair")
    # Marked after the win: the entry it had goes too.
    helped = win(server, clock, 3.0, player="late")
    assert entries(server)[0] == ("late", 3.0)
    server.service.mark_assisted(helped["id"])
    assert entries(server) == [("fair", 5.0)]


def test_marking_an_unknown_game_is_not_found(server: Server) -> None:
    from mines.server.errors import GameNotFoundError

    with pytest.raises(GameNotFoundError):
        server.service.mark_assisted("0000000000000000")


def test_a_database_made_before_versioning_is_migrated_and_plays_on(
    tmp_path: Path, clock: FakeClock
) -> None:
    # schema_v1.sql is the dump of a database made by the server before the schema had a
    # version: a beginner game by "Ada" with a reveal and a flag.
    path = database_from_dump("schema_v1.sql", tmp_path / "old.sqlite3")
    server = Server(f"sqlite:///{path}", clock)
    try:
        game = {"id": "6b7bcbd90c7d3c43", "token": "_k2fyNPgRYQTrAtf-65lpFdNQYc7VF7J"}
        view = server.client.get(f"/api/games/{game['id']}").json()["view"]
        assert view["cells"][0][0] == "F"
        assert view["cells"][4][4] != "H"
        assert server.move(game, "flag", 0, 0).status_code == 200
        server.service.mark_assisted(game["id"])
    finally:
        server.close()
    with sqlite3.connect(path) as migrated:
        assert migrated.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)
        ]
        assert migrated.execute("SELECT assisted FROM games").fetchall() == [(1,)]
    # Opening it again runs no migration twice.
    open_storage(f"sqlite:///{path}").close()


def test_a_database_newer_than_the_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    open_storage(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StorageError, match="newer than this server"):
        open_storage(f"sqlite:///{path}")
