"""Daily boards: one board per preset and kind a day, the same for everyone, its seed hidden
until the day is over; each account's first finished attempt ranks on the day's board."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import FakeClock, Server, layout, safe_cells, sign_up

DAY = "2023-11-14"
"""The test clock's day (1,700,000,000 s is 22:13:20 UTC on it)."""


def seed_of(server: Server, game: dict[str, Any]) -> int:
    row = server.service.storage.load(game["id"])
    assert row is not None
    return row.seed


def finish(
    server: Server, clock: FakeClock, game: dict[str, Any], won: bool, seconds: float
) -> None:
    mines = layout(seed_of(server, game), 9, 9, 10, (0, 0))
    server.move(game, "reveal", 0, 0)
    clock.now += seconds
    if not won:
        server.move(game, "reveal", *sorted(mines)[0])
        return
    for r, c in safe_cells(9, 9, mines):
        server.move(game, "reveal", r, c)
    view = server.client.get(f"/api/games/{game['id']}", headers=bearer(game)).json()["view"]
    assert view["status"] == "WON"


def bearer(game: dict[str, Any]) -> dict[str, str]:
    """The header that reads a daily game as its player (`GameService.sealed_until`)."""
    return {"Authorization": f"Bearer {game['token']}"}


def daily_board(server: Server, day: str = DAY) -> list[tuple[str, float, Any]]:
    answer = server.client.get(f"/api/leaderboard?board=daily&preset=beginner&day={day}").json()
    assert answer["day"] == day
    return [(e["player"], e["time"], e["game_id"]) for e in answer["entries"]]


def test_everyone_gets_the_same_daily_board_and_not_its_seed(any_server: Server) -> None:
    server = any_server
    server.sign_up("Ann")
    first = server.create(daily="expert")
    assert "seed" not in first
    server.sign_up("Bea")
    second = server.create(daily="expert")
    assert seed_of(server, first) == seed_of(server, second)
    no_guess = server.create(daily="expert", no_guess=True)
    assert seed_of(server, no_guess) != seed_of(server, first)  # a board of its own
    other = server.create(daily="beginner")
    assert seed_of(server, other) != seed_of(server, first)
    today = server.client.get("/api/daily").json()
    assert today["day"] == DAY
    assert today["over"] is False
    assert len(today["boards"]) == 6
    assert all(board["seed"] is None for board in today["boards"])


def test_the_first_finished_attempt_ranks_and_later_ones_are_practice(
    any_server: Server, clock: FakeClock
) -> None:
    server = any_server
    server.sign_up("Ann")
    first = server.create(daily="beginner")
    finish(server, clock, first, won=True, seconds=40.0)
    again = server.create(daily="beginner")
    finish(server, clock, again, won=True, seconds=10.0)  # faster, and practice
    server.sign_up("Bea")
    lost = server.create(daily="beginner")
    finish(server, clock, lost, won=False, seconds=1.0)  # her attempt, lost
    late = server.create(daily="beginner")
    finish(server, clock, late, won=True, seconds=5.0)
    assert daily_board(server) == [("Ann", 40.0, None)]  # no game named before the day ends
    summaries = [  # each read by its player (its token): the day is not over
        server.client.get(f"/api/games/{g['id']}/summary", headers=bearer(g)).json()
        for g in (first, again, late)
    ]
    assert [s.get("unranked") for s in summaries] == [None, "practice", "practice"]
    all_time = server.client.get("/api/leaderboard?preset=beginner").json()["entries"]
    assert all_time == []  # daily games rank on their day's board only
    clock.now += 2 * 3600  # past midnight UTC
    assert daily_board(server, DAY) == [("Ann", 40.0, first["id"])]
    yesterday = server.client.get(f"/api/daily?day={DAY}").json()
    assert yesterday["over"] is True
    seeds = {(b["preset"], b["no_guess"]): b["seed"] for b in yesterday["boards"]}
    assert seeds[("beginner", False)] == seed_of(server, first)
    assert seeds[("expert", False)] is None  # nobody played it
    assert server.client.get("/api/daily").json()["day"] == "2023-11-15"
    assert seed_of(server, server.create(daily="beginner")) != seed_of(server, first)


def test_an_anonymous_daily_game_is_unranked(server: Server, clock: FakeClock) -> None:
    game = server.create(daily="beginner")
    finish(server, clock, game, won=True, seconds=30.0)
    assert daily_board(server) == []
    summary = server.client.get(f"/api/games/{game['id']}/summary", headers=bearer(game)).json()
    assert summary["unranked"] == "anonymous"


@pytest.mark.parametrize(
    "body",
    [
        {"daily": "expert", "seed": 3},
        {"daily": "expert", "preset": "beginner"},
        {"daily": "expert", "rows": 9, "cols": 9, "mines": 10},
    ],
)
def test_a_daily_board_takes_no_seed_or_size(server: Server, body: dict[str, Any]) -> None:
    answer = server.client.post("/api/games", json=body)
    assert answer.status_code == 422


@pytest.mark.parametrize("day", ["yesterday", "2023-13-01", "2023-1-1", "20231114"])
def test_a_day_is_a_date(server: Server, day: str) -> None:
    assert server.client.get(f"/api/daily?day={day}").status_code == 422
    answer = server.client.get(f"/api/leaderboard?board=daily&day={day}")
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid_request"


def test_this_months_board_has_this_months_wins_only(server: Server, clock: FakeClock) -> None:
    server.sign_up("Ann")
    finish(server, clock, server.create(preset="beginner"), won=True, seconds=20.0)
    clock.now += 20 * 86_400  # 2023-12-04: another month
    server.sign_up("Bea")
    finish(server, clock, server.create(preset="beginner"), won=True, seconds=30.0)
    board = "/api/leaderboard?preset=beginner"
    month = server.client.get(f"{board}&board=month").json()["entries"]
    assert [(e["player"], e["time"]) for e in month] == [("Bea", 30.0)]
    every = server.client.get(board).json()["entries"]
    assert [(e["player"], e["time"]) for e in every] == [("Ann", 20.0), ("Bea", 30.0)]


def test_a_profile_lists_todays_daily_games_only_once_the_day_is_over(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("Ann")
    game = server.create(daily="beginner")
    finish(server, clock, game, won=True, seconds=30.0)
    profile = server.client.get("/api/players/Ann").json()
    assert (profile["games"], profile["history"]) == (1, [])  # counted, its replay not shown
    clock.now += 2 * 3600  # past midnight UTC
    history = server.client.get("/api/players/Ann").json()["history"]
    assert [entry["id"] for entry in history] == [game["id"]]


READS = ["", "/record", "/replay", "/summary", "/review"]
"""Every read of a game by its ID over HTTP (the live socket is tested apart)."""
DAY_OVER = 1_700_006_400.0
"""2023-11-15 00:00 UTC: the end of the test clock's day."""


def refused(answer: Any) -> bool:
    """Whether a read was refused because the game's daily board is still being played."""
    if answer.status_code != 403:
        assert answer.status_code == 200, answer.text
        return False
    body = answer.json()
    assert (body["code"], body["opens_at"]) == ("daily_not_over", DAY_OVER)
    assert "until the day is over, at 2023-11-15 00:00 UTC" in body["detail"]
    return True


@pytest.mark.parametrize("read", READS)
def test_a_daily_game_is_read_only_by_its_player_until_its_day_is_over(
    server: Server, clock: FakeClock, read: str
) -> None:
    server.sign_up("Ann")
    game = server.create(daily="beginner")
    finish(server, clock, game, won=True, seconds=30.0)
    path = f"/api/games/{game['id']}{read}"
    stranger = TestClient(server.client.app)
    assert refused(stranger.get(path))
    assert refused(stranger.get(path, headers={"Authorization": "Bearer not-its-token"}))
    other = TestClient(server.client.app)
    assert sign_up(other, "Bea") == 201
    assert refused(other.get(path))  # signed in, to another account
    assert not refused(server.client.get(path))  # signed in to the account that played it
    assert not refused(stranger.get(path, headers=bearer(game)))  # its token, from anywhere
    clock.now = DAY_OVER - 0.001
    assert refused(stranger.get(path))
    clock.now = DAY_OVER
    assert not refused(stranger.get(path))


def test_an_anonymous_daily_game_is_read_with_its_token_only(
    server: Server, clock: FakeClock
) -> None:
    game = server.create(daily="beginner")
    server.move(game, "reveal", 0, 0)  # in progress: its view shows part of the day's board
    path = f"/api/games/{game['id']}"
    assert refused(server.client.get(path))
    assert not refused(
        server.client.get(path, headers={"Authorization": f"Bearer {game['token']}"})
    )
    server.sign_up("Ann")  # an account that did not create it
    assert refused(server.client.get(path))
    assert not refused(server.client.get(f"/api/games/{server.create()['id']}"))  # not daily


def test_a_daily_games_live_socket_is_its_players_until_its_day_is_over(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("Ann")
    game = server.create(daily="beginner")
    server.move(game, "reveal", 0, 0)
    live = f"/api/games/{game['id']}/live"
    stranger = TestClient(server.client.app)
    with (
        stranger.websocket_connect(live) as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 4403
    assert "until the day is over, at 2023-11-15 00:00 UTC" in closed.value.reason
    with stranger.websocket_connect(f"{live}?token={game['token']}") as socket:
        assert socket.receive_json()["type"] == "view"
    with stranger.websocket_connect(
        live, headers={"Authorization": f"Bearer {game['token']}"}
    ) as s:
        assert s.receive_json()["type"] == "view"
    with server.client.websocket_connect(live) as socket:  # the account's session cookie
        assert socket.receive_json()["type"] == "view"
    clock.now = DAY_OVER
    with stranger.websocket_connect(live) as socket:
        assert socket.receive_json()["type"] == "view"
