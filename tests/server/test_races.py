"""Race rooms over HTTP and WebSocket: the lobby, refusals, numbered events and no leaks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mines.server.app import create_app
from mines.server.rooms import RoomService
from tests.server.conftest import FakeClock, Server, layout

SEED = 4242
FIRST = (4, 4)


@pytest.fixture
def race_client(sqlite_url: str, clock: FakeClock) -> Iterator[tuple[TestClient, FakeClock]]:
    server = Server(sqlite_url, clock)
    app = create_app(server.service, RoomService(clock=clock))
    with TestClient(app) as client:  # the lifespan wires the room events to the hub
        yield client, clock
    server.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def open_room(client: TestClient, players: int = 3, **body: Any) -> tuple[str, list[str]]:
    created = client.post(
        "/api/races", json={"player": "host", "preset": "beginner", "seed": SEED, **body}
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["room"]["id"]
    tokens = [created.json()["token"]]
    for i in range(1, players):
        joined = client.post(f"/api/races/{room_id}/join", json={"player": f"guest {i}"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["player"] == i
        tokens.append(joined.json()["token"])
    return room_id, tokens


def started(client: TestClient, clock: FakeClock, players: int = 3) -> tuple[str, list[str]]:
    room_id, tokens = open_room(client, players)
    answer = client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    assert answer.status_code == 200, answer.text
    clock.now += 3
    return room_id, tokens


def move(client: TestClient, room_id: str, token: str, verb: str, cell: tuple[int, int]) -> Any:
    return client.post(
        f"/api/races/{room_id}/{verb}", json={"row": cell[0], "col": cell[1]}, headers=auth(token)
    )


def test_refusals_say_what_was_wrong(race_client: tuple[TestClient, FakeClock]) -> None:
    client, _ = race_client
    assert client.get("/api/races/nope").status_code == 404
    room_id, tokens = open_room(client, 2, max_players=2)
    full = client.post(f"/api/races/{room_id}/join", json={"player": "late"})
    assert full.status_code == 409
    assert "full" in full.json()["detail"]
    assert move(client, room_id, tokens[1], "reveal", FIRST).status_code == 409  # not started
    assert client.post(f"/api/races/{room_id}/start").status_code == 401
    assert client.post(f"/api/races/{room_id}/start", headers=auth(tokens[1])).status_code == 403
    assert client.post(f"/api/races/{room_id}/start", headers=auth("forged")).status_code == 403
    assert client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0])).status_code == 200
    late = client.post(f"/api/races/{room_id}/join", json={"player": "later"})
    assert late.status_code == 409
    bad_name = client.post("/api/races", json={"player": "\u200bx", "preset": "beginner"})
    assert bad_name.status_code == 422
    too_big = client.post("/api/races", json={"player": "a", "rows": 50, "cols": 51, "mines": 9})
    assert too_big.status_code == 422


def test_a_race_streams_numbered_events_and_leaks_nothing(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock)
    mines = layout(SEED, 9, 9, 10, FIRST)
    answers: list[Any] = []
    with client.websocket_connect(f"/api/races/{room_id}/live?token={tokens[2]}") as ws:
        first = ws.receive_json()
        assert first["type"] == "room"
        seen = first["room"]["seq"]
        answers.append(move(client, room_id, tokens[0], "reveal", FIRST).json())
        flag = next(iter(mines))
        answers.append(move(client, room_id, tokens[1], "flag", flag).json())
        assert answers[-1]["flagged"] is True
        safe = [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]
        for turn, cell in enumerate(safe):
            answer = move(client, room_id, tokens[turn % 3], "reveal", cell)
            answers.append(answer.json())
            if answer.json()["state"] == "over":
                break
        events: list[dict[str, Any]] = []
        while not events or events[-1]["kind"] != "over":
            message = ws.receive_json()
            assert message["type"] == "event"
            events.append(message["event"])
    assert [e["seq"] for e in events] == list(range(seen + 1, seen + 1 + len(events)))
    scores = events[-1]["scores"]
    assert sum(scores) == len(safe)
    assert sum(len(e["cells"]) for e in events) == len(safe)
    for answer in answers[:-1]:  # a race in progress shows no hidden mine, nor others' flags
        for r, line in enumerate(answer["view"]["cells"]):
            for c, symbol in enumerate(line):
                assert symbol not in "MXW"
                if symbol == "F":
                    assert answer["you"] == 1
                    assert (r, c) == flag
    assert all(s in "012345678" for e in events for _, _, s, _ in e["cells"])
    over = client.get(f"/api/races/{room_id}").json()
    assert over["state"] == "over"
    assert over["seed"] == SEED
    assert over["winner"] == max(range(3), key=lambda i: scores[i])


def test_a_player_who_reloads_gets_the_room_with_their_own_flags(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    move(client, room_id, tokens[0], "reveal", FIRST)
    mines = layout(SEED, 9, 9, 10, FIRST)
    flag = next(iter(mines))
    move(client, room_id, tokens[1], "flag", flag)
    again = client.get(f"/api/races/{room_id}", headers=auth(tokens[1])).json()
    assert again["you"] == 1
    assert again["view"]["cells"][flag[0]][flag[1]] == "F"
    watcher = client.get(f"/api/races/{room_id}").json()
    assert watcher["you"] is None
    assert watcher["view"]["cells"][flag[0]][flag[1]] == "H"
    hit = move(client, room_id, tokens[0], "reveal", flag).json()
    assert hit["players"][0]["out"] is True
    assert move(client, room_id, tokens[0], "reveal", (0, 0)).status_code == 409
    assert hit["view"]["cells"][flag[0]][flag[1]] == "X"
