"""The lobby: a public room is listed (`GET /api/races?open=true`, and live on the lobby's
socket) with its players and board, a private one never; a public room's names are held to
an account's rule."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import FakeClock
from tests.server.test_races import auth, open_room, race_client

__all__ = ["race_client"]  # the fixture, used by name


def lobby(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/races?open=true")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_public_room_is_listed_and_a_private_one_not(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    private, _ = open_room(client, players=1)
    public, _ = open_room(client, players=2, public=True, name="Friday night")
    found = lobby(client)
    assert [room["id"] for room in found["rooms"]] == [public]
    (room,) = found["rooms"]
    assert room["name"] == "Friday night"
    assert room["players"] == ["host", "guest 1"]
    assert room["board"] == {
        "rows": 9,
        "cols": 9,
        "mines": 10,
        "preset": "beginner",
        "rule": "opening",
    }
    assert (room["state"], room["max_players"]) == ("lobby", 8)
    assert private not in str(found)


def test_a_started_public_room_is_listed_to_watch(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = open_room(client, players=2, public=True)
    assert client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0])).status_code == 200
    clock.now += 3
    found = lobby(client)
    assert found["rooms"] == []
    assert [(room["id"], room["name"]) for room in found["live"]] == [(room_id, "host")]


def test_a_public_rooms_names_follow_the_account_rule(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    mixed = "P\u0430ul"  # a Cyrillic a among Latin letters: fine for a private room's label
    made = client.post(
        "/api/races", json={"player": "host", "preset": "beginner", "public": True, "name": mixed}
    )
    assert made.status_code == 422
    assert made.json()["code"] == "invalid_name"
    too_long = client.post(
        "/api/races",
        json={"player": "host", "preset": "beginner", "public": True, "name": "x" * 25},
    )
    assert too_long.status_code == 422
    room_id, _ = open_room(client, players=1, public=True)
    joined = client.post(f"/api/races/{room_id}/join", json={"player": mixed})
    assert (joined.status_code, joined.json()["code"]) == (422, "invalid_name")
    private, _ = open_room(client, players=1)
    assert client.post(f"/api/races/{private}/join", json={"player": mixed}).status_code == 200


def test_the_lobby_socket_pushes_the_list_when_a_public_room_changes(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    with client.websocket_connect("/api/races/live") as watch:
        first = watch.receive_json()
        assert (first["type"], first["rooms"], first["live"]) == ("lobby", [], [])
        open_room(client, players=1)  # private: nothing to say
        room_id, _ = open_room(client, players=1, public=True)
        pushed = watch.receive_json()
        assert [room["id"] for room in pushed["rooms"]] == [room_id]
        client.post(f"/api/races/{room_id}/join", json={"player": "bea"})
        while (pushed := watch.receive_json())["rooms"][0]["players"] != ["host", "bea"]:
            pass  # the create's push may come after the join's read: the list converges


def test_open_must_be_true(race_client: tuple[TestClient, FakeClock]) -> None:
    client, _ = race_client
    answer = client.get("/api/races")
    assert answer.status_code == 422
    assert "open=true" in answer.json()["detail"]
