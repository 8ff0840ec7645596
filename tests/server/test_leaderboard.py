"""A fair leaderboard: one entry per account, only signed-in human-paced wins, assisted games
never; each unranked game says why; and the schema's version and migrations (a database made
before versioning opens and plays on)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mines.game import Game
from mines.server.db.database import open_storage
from mines.server.db.sql import SCHEMA_VERSION
from mines.server.db.storage import StorageError
from mines.server.services.leaderboard import HUMAN_PACE
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


def summary(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = server.client.get(f"/api/games/{game['id']}/summary").json()
    return answer


def test_one_entry_per_account_with_its_best_time(server: Server, clock: FakeClock) -> None:
    server.sign_up("ann")
    for seconds in (30.0, 12.0, 40.0, 15.0):
        win(server, clock, seconds)
    server.sign_up("bob")
    win(server, clock, 20.0)
    assert entries(server) == [("ann", 12.0), ("bob", 20.0)]


def test_a_win_ranks_under_the_accounts_name_whatever_player_it_gave(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("Ann")
    win(server, clock, 30.0, player="Zed")
    assert entries(server) == [("Ann", 30.0)]


def test_an_account_win_ranks_once_and_says_so(server: Server, clock: FakeClock) -> None:
    server.sign_up("Ann")
    game = win(server, clock, 30.0)
    assert entries(server) == [("Ann", 30.0)]
    said = summary(server, game)
    assert said["ranked"] is True
    assert "unranked" not in said
    server.client.get(f"/api/games/{game['id']}/record")  # reading it again ranks nothing more
    assert entries(server) == [("Ann", 30.0)]


def test_an_anonymous_win_is_stored_but_unranked(server: Server, clock: FakeClock) -> None:
    game = win(server, clock, 30.0, player="Ann")
    assert entries(server) == []
    said = summary(server, game)
    assert (said["status"], said["ranked"], said["unranked"]) == ("WON", False, "anonymous")


def test_a_bot_paced_win_is_stored_and_replayable_but_unranked(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("Bot")
    game = win(server, clock, 0.05)  # the project's own Bot won Beginner in 9-83 ms
    assert entries(server) == []
    said = summary(server, game)
    assert (said["ranked"], said["unranked"]) == (False, "too_fast")
    assert said["three_bv_per_second"] > HUMAN_PACE["beginner"]
    frames = server.client.get(f"/api/games/{game['id']}/replay")
    assert frames.status_code == 200


def test_a_win_at_the_human_pace_ranks(server: Server, clock: FakeClock) -> None:
    server.sign_up("Ann")
    seed = server.next_seed
    three_bv = Game.from_position(9, 9, layout(seed, 9, 9, 10, (0, 0)), revealed=[(0, 0)]).three_bv
    # Just slower than the ceiling ranks; just faster does not.
    win(server, clock, three_bv / HUMAN_PACE["beginner"] * 1.01)
    assert len(entries(server)) == 1
    server.sign_up("Bo")
    seed = server.next_seed
    three_bv = Game.from_position(9, 9, layout(seed, 9, 9, 10, (0, 0)), revealed=[(0, 0)]).three_bv
    win(server, clock, three_bv / HUMAN_PACE["beginner"] * 0.99)
    assert [name for name, _ in entries(server)] == ["Ann"]


def test_each_unranked_game_says_why(server: Server, clock: FakeClock) -> None:
    server.sign_up("Ann")
    seeded = server.create(preset="beginner", seed=5)
    custom = server.create(rows=9, cols=9, mines=11)
    safe = server.create(preset="beginner", first_click="safe")
    lost = server.create(preset="beginner")
    helped = server.create(preset="beginner")
    server.service.mark_assisted(helped["id"])
    for game in (seeded, custom, safe, lost, helped):
        server.move(game, "reveal", 0, 0)
    reasons = {}
    for name, game in [("seeded", seeded), ("custom", custom), ("safe", safe),
                       ("lost", lost), ("helped", helped)]:  # fmt: skip
        view = server.client.get(f"/api/games/{game['id']}").json()["view"]
        for row, line in enumerate(view["cells"]):  # end each one: step on a mine
            if view["status"] != "IN_PROGRESS":
                break
            for col, symbol in enumerate(line):
                if symbol == "H":
                    view = server.move(game, "reveal", row, col).json()["view"]
                    if view["status"] != "IN_PROGRESS":
                        break
        reasons[name] = summary(server, game).get("unranked")
    assert reasons == {
        "seeded": "seeded",
        "custom": "custom",
        "safe": "custom",
        "lost": "lost",
        "helped": "assisted",
    }


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("An\u200bn", "invisible"),
        ("Ann\u202e", "invisible"),
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
    server.sign_up("helped")
    before = server.create(preset="beginner")
    server.service.mark_assisted(before["id"])
    server.sign_up("fair")
    win(server, clock, 5.0)
    # Marked after the win: the entry it had goes too.
    server.sign_up("late")
    helped = win(server, clock, 3.0)
    assert entries(server)[0] == ("late", 3.0)
    server.service.mark_assisted(helped["id"])
    assert entries(server) == [("fair", 5.0)]


def test_marking_an_unknown_game_is_not_found(server: Server) -> None:
    from mines.server.common.errors import GameNotFoundError

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
