"""Race rooms over HTTP and WebSocket: the lobby, refusals, numbered events and no leaks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mines import InvalidBoardError, board_size
from mines.moves import MoveKind
from mines.race import RaceAction, RaceMove
from mines.server.app import create_app
from mines.server.db.database import open_storage
from mines.server.db.race_store import Note, note_of, note_text
from mines.server.db.storage import StorageError
from mines.server.services.cache import GameCache
from mines.server.services.race_spec import RoomSpec
from mines.server.services.rooms import RoomService
from tests.server.conftest import FakeClock, Server, layout, sign_up

SEED = 4242
FIRST = (4, 4)


@pytest.fixture
def race_client(sqlite_url: str, clock: FakeClock) -> Iterator[tuple[TestClient, FakeClock]]:
    server = Server(sqlite_url, clock)
    app = create_app(server.service, RoomService(server.service.storage, clock=clock))
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


def test_every_race_route_lists_its_error_answers_in_the_schema(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    paths = race_client[0].get("/openapi.json").json()["paths"]
    own = {
        ("post", "/api/races"): {"409", "422"},  # 409: a name hidden, or an account's
        ("post", "/api/races/{room_id}/join"): {"404", "409", "422"},
        ("post", "/api/races/{room_id}/start"): {"401", "403", "404", "409"},
        ("post", "/api/races/{room_id}/rematch"): {"401", "403", "404", "409"},
        ("get", "/api/races/{room_id}"): {"403", "404"},
        ("get", "/api/races/{room_id}/replay"): {"404", "409"},
        ("get", "/api/races"): {"422"},  # the lobby: 422 without ?open=true
    }
    for verb in ("reveal", "flag", "chord"):
        own["post", f"/api/races/{{room_id}}/{verb}"] = {"401", "403", "404", "409", "422"}
    listed = {
        (method, path): set(operation["responses"]) - {"200", "201"}
        for path, operations in paths.items()
        if path.startswith("/api/races")
        for method, operation in operations.items()
    }
    # FastAPI lists a 422 of its own wherever a route takes parameters.
    assert listed == {key: codes | {"413", "422", "429", "503"} for key, codes in own.items()}
    for (method, path), codes in own.items():
        for code in codes | {"413", "429", "503"}:
            content = paths[path][method]["responses"][code]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorOut"}


def test_refusals_say_what_was_wrong(race_client: tuple[TestClient, FakeClock]) -> None:
    client, _ = race_client
    unknown = client.get("/api/races/nope")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "room_not_found")
    assert client.post("/api/races/nope/join", json={"player": "x"}).json()["code"] == (
        "room_not_found"
    )
    room_id, tokens = open_room(client, 2, max_players=2)
    full = client.post(f"/api/races/{room_id}/join", json={"player": "late"})
    assert (full.status_code, full.json()["code"]) == (409, "join_refused")
    assert "full" in full.json()["detail"]
    early = move(client, room_id, tokens[1], "reveal", FIRST)
    assert (early.status_code, early.json()["code"]) == (409, "illegal_move")  # not started
    assert client.post(f"/api/races/{room_id}/start").status_code == 401
    assert client.post(f"/api/races/{room_id}/start", headers=auth(tokens[1])).status_code == 403
    assert client.post(f"/api/races/{room_id}/start", headers=auth("forged")).status_code == 403
    assert client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0])).status_code == 200
    again = client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    assert (again.status_code, again.json()["code"]) == (409, "lobby_refused")
    late = client.post(f"/api/races/{room_id}/join", json={"player": "later"})
    assert (late.status_code, late.json()["code"]) == (409, "join_refused")
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


def test_a_race_flag_with_its_state_is_safe_to_send_twice(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    move(client, room_id, tokens[0], "reveal", FIRST)
    url = f"/api/races/{room_id}/flag"
    answers = [
        client.post(url, json={"row": 0, "col": 0, "flagged": flagged}, headers=auth(tokens[1]))
        for flagged in (True, True, False, False, True)
    ]
    assert [a.status_code for a in answers] == [200] * 5
    assert [a.json()["flagged"] for a in answers] == [True, True, False, False, True]
    assert [a.json()["view"]["cells"][0][0] for a in answers] == ["F", "F", "H", "H", "F"]
    loaded = client.app.state.rooms.store.load(room_id)  # type: ignore[attr-defined]
    assert loaded is not None
    flags = [m for m in loaded[1] if m.action is RaceAction.FLAG]
    assert len(flags) == 3  # the repeats logged nothing
    assert move(client, room_id, tokens[1], "flag", (0, 0)).json()["flagged"] is False  # toggles


def test_a_room_survives_a_restart(sqlite_url: str, clock: FakeClock) -> None:
    first = Server(sqlite_url, clock)
    client = TestClient(create_app(first.service, RoomService(first.service.storage, clock=clock)))
    room_id, tokens = open_room(client, 2)
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    clock.now += 3
    move(client, room_id, tokens[1], "reveal", FIRST)
    flag = next(iter(layout(SEED, 9, 9, 10, FIRST)))
    move(client, room_id, tokens[0], "flag", flag)
    before = client.get(f"/api/races/{room_id}", headers=auth(tokens[0])).json()
    first.close()
    again = Server(sqlite_url, clock)
    client = TestClient(create_app(again.service, RoomService(again.service.storage, clock=clock)))
    after = client.get(f"/api/races/{room_id}", headers=auth(tokens[0])).json()
    assert after == before
    assert after["view"]["cells"][flag[0]][flag[1]] == "F"
    assert move(client, room_id, tokens[1], "reveal", (8, 8)).status_code == 200
    again.close()


def until_over(watch: Any) -> list[dict[str, Any]]:
    """The events a watcher receives up to the race's end; a watcher that stops receiving
    fails the test after a generous bound instead of hanging it."""
    events: list[dict[str, Any]] = []

    def read() -> None:
        while not events or events[-1]["kind"] != "over":
            events.append(watch.receive_json()["event"])

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)
    assert not reader.is_alive(), f"the watcher got no end of the race; it got {events}"
    return events


@pytest.mark.postgres
def test_two_processes_deliver_the_same_events_in_the_same_order(
    pg_url: str, clock: FakeClock
) -> None:
    """Two servers on one database, players on both, a watcher on each: one event sequence."""
    servers = [Server(pg_url, clock) for _ in range(2)]
    apps = [create_app(s.service, RoomService(s.service.storage, clock=clock)) for s in servers]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        created = a.post(
            "/api/races", json={"player": "host", "preset": "beginner", "seed": SEED}
        ).json()
        room_id, tokens = created["room"]["id"], [created["token"]]
        for i, client in enumerate((b, a, b), start=1):
            tokens.append(
                client.post(f"/api/races/{room_id}/join", json={"player": f"p{i}"}).json()["token"]
            )
        clients = [a, b, a, b]  # player i moves through clients[i]
        with (
            a.websocket_connect(f"/api/races/{room_id}/live") as watch_a,
            b.websocket_connect(f"/api/races/{room_id}/live") as watch_b,
        ):
            seen = [watch_a.receive_json()["room"]["seq"], watch_b.receive_json()["room"]["seq"]]
            assert b.post(f"/api/races/{room_id}/start", headers=auth(tokens[0])).status_code == 200
            clock.now += 3
            move(b, room_id, tokens[1], "reveal", FIRST)
            mines = layout(SEED, 9, 9, 10, FIRST)
            safe = [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]
            for turn, cell in enumerate(safe):
                player = turn % 4
                answer = move(clients[player], room_id, tokens[player], "reveal", cell)
                assert answer.status_code == 200, answer.text
                if answer.json()["state"] == "over":
                    break
            streams = [until_over(watch_a), until_over(watch_b)]
    assert seen[0] == seen[1]
    assert streams[0] == streams[1]
    assert [e["seq"] for e in streams[0]] == list(range(seen[0] + 1, seen[0] + 1 + len(streams[0])))
    assert sum(streams[0][-1]["scores"]) == len(safe)
    for server in servers:
        server.close()


@pytest.mark.postgres
def test_simultaneous_moves_on_two_processes_are_serialised(pg_url: str, clock: FakeClock) -> None:
    servers = [Server(pg_url, clock) for _ in range(2)]
    apps = [create_app(s.service, RoomService(s.service.storage, clock=clock)) for s in servers]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        room_id, tokens = started(a, clock, players=4)
        move(b, room_id, tokens[1], "reveal", FIRST)
        mines = layout(SEED, 9, 9, 10, FIRST)
        safe = [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]
        statuses: list[int] = []
        barrier = threading.Barrier(4)

        failures: list[str] = []

        def play(player: int) -> None:
            client = (a, b)[player % 2]
            barrier.wait()
            try:
                for cell in safe[player::2] + safe:
                    answer = move(client, room_id, tokens[player], "reveal", cell)
                    statuses.append(answer.status_code)
                    if answer.status_code != 200 or answer.json()["state"] == "over":
                        return
            except Exception as error:  # the test client re-raises what the server raised
                failures.append(repr(error))

        threads = [threading.Thread(target=play, args=(p,)) for p in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        replay = a.get(f"/api/races/{room_id}/replay").json()
        other = b.get(f"/api/races/{room_id}/replay").json()
    assert failures == []
    assert set(statuses) <= {200, 409}  # 409 only once the race is over
    assert replay == other
    scores = replay["events"][-1]["scores"]
    assert sum(scores) == len(safe)
    opened = [cell for event in replay["events"] for cell in event["cells"]]
    assert len(opened) == len({(r, c) for r, c, _, _ in opened}) == len(safe)
    for server in servers:
        server.close()


def test_a_rematch_opens_a_new_round_and_the_replay_keeps_the_finished_one(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    assert client.get(f"/api/races/{room_id}/replay").status_code == 409
    assert client.post(f"/api/races/{room_id}/rematch", headers=auth(tokens[0])).status_code == 409
    move(client, room_id, tokens[0], "reveal", FIRST)
    mines = layout(SEED, 9, 9, 10, FIRST)
    for cell in [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]:
        if move(client, room_id, tokens[1], "reveal", cell).json()["state"] == "over":
            break
    finished = client.get(f"/api/races/{room_id}/replay").json()
    assert finished["events"][-1]["kind"] == "over"
    assert client.post(f"/api/races/{room_id}/rematch", headers=auth(tokens[1])).status_code == 403
    again = client.post(f"/api/races/{room_id}/rematch", headers=auth(tokens[0]))
    assert again.status_code == 200
    assert again.json()["state"] == "lobby"
    assert [p["score"] for p in again.json()["players"]] == [0, 0]
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    clock.now += 3
    move(client, room_id, tokens[1], "reveal", (0, 0))
    move(client, room_id, tokens[1], "flag", (8, 8))  # a flag of the round under way
    replay = client.get(f"/api/races/{room_id}/replay").json()
    assert replay == finished  # nothing of the new round, its private flags least of all


def test_race_sockets_share_the_per_address_cap_and_refuse_binary_frames(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = Server(sqlite_url, clock, sockets_per_address=1)
    app = create_app(server.service, RoomService(server.service.storage, clock=clock))
    with TestClient(app) as client:
        room_id, _ = open_room(client, 2)
        with client.websocket_connect(f"/api/races/{room_id}/live") as first:
            assert first.receive_json()["type"] == "room"
            with client.websocket_connect(f"/api/races/{room_id}/live") as second:
                with pytest.raises(WebSocketDisconnect) as refused:
                    second.receive_json()
                assert refused.value.code == 4429
            first.send_bytes(b"\x00\x01")
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_json()
            assert closed.value.code == 1003
        with client.websocket_connect("/api/races/nope/live") as unknown:
            with pytest.raises(WebSocketDisconnect) as missing:
                unknown.receive_json()
            assert missing.value.code == 4404
    server.close()


# --- other processes' moves: the notes, their gaps and failures, and who waits for whom ------


class Inline(Executor):
    """Runs each job at once, so a test sees a note's events as soon as it is delivered."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class Process:
    """A `RoomService` as one server process would hold it, with what it announced and
    published; several of them on one storage are several processes on one database."""

    def __init__(self, storage: Any, clock: FakeClock, workers: Executor | None = None):
        self.notes: list[str] = []
        self.published: list[dict[str, Any]] = []
        self.rooms = RoomService(storage, clock=clock, workers=workers or Inline())
        self.rooms.publish = lambda room_id, message: self.published.append(message)

    def events(self) -> list[int]:
        return [m["event"]["seq"] if m["type"] == "event" else -1 for m in self.published]


@pytest.fixture
def storage(sqlite_url: str) -> Iterator[Any]:
    opened: Any = open_storage(sqlite_url)
    notes: list[str] = []
    opened.announce = lambda cursor, text: notes.append(text)  # what other processes hear
    opened.notes = notes
    yield opened
    opened.close()


def raced(storage: Any, clock: FakeClock) -> tuple[Process, Process, str, list[str]]:
    """Process `a` runs a started 2-player room, `b` keeps it cached; no note delivered yet."""
    a, b = Process(storage, clock), Process(storage, clock)
    token, room = a.rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    tokens = [token, a.rooms.join(room["id"], "guest")[1]]
    a.rooms.start(room["id"], tokens[0])
    clock.now += 3
    b.rooms.read(room["id"], None)
    storage.notes.clear()
    return a, b, room["id"], tokens


def safe_cells() -> list[tuple[int, int]]:
    mines = layout(SEED, 9, 9, 10, FIRST)
    return [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines and (r, c) != FIRST]


def test_notes_carry_the_moves_so_the_others_publish_without_reading(
    storage: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    a.rooms.move(room_id, tokens[0], MoveKind.OPEN, safe_cells()[-1])
    notes = list(storage.notes)
    assert len(notes) == 2

    def unread(*args: Any) -> Any:
        raise AssertionError("a note that carries its moves needs no read")

    monkeypatch.setattr(b.rooms.store, "moves_after", unread)
    for note in notes:
        b.rooms.moved_elsewhere(note)
    assert b.published == a.published[-len(b.published) :]
    assert b.events() == [a.events()[-2], a.events()[-1]]


def test_a_note_too_long_or_unreadable_names_its_room_and_the_moves_are_read(
    storage: Any, clock: FakeClock
) -> None:
    many = [RaceMove(RaceAction.FLAG, 0, 1.0, 3, 3)] * 200
    assert note_text("r", 5, many[:2]) != "race:r"
    assert note_text("r", 5, many) == "race:r"  # past NOTE_LIMIT
    assert note_of("race:r {not json") == Note("r")
    assert note_of("some-game-id") is None
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    b.rooms.moved_elsewhere(f"race:{room_id}")
    b.rooms.moved_elsewhere(f"race:{room_id} {{truncated")
    assert b.published == a.published[-1:]


def test_a_note_after_a_gap_reads_the_log_and_a_late_one_plays_nothing_twice(
    storage: Any, clock: FakeClock
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    a.rooms.move(room_id, tokens[0], MoveKind.OPEN, safe_cells()[-1])
    first, second = storage.notes
    b.rooms.moved_elsewhere(second)  # the first is late: both are read from the log
    b.rooms.moved_elsewhere(first)
    b.rooms.moved_elsewhere(second)
    assert b.events() == a.events()[-2:]
    assert b.rooms.read(room_id, tokens[0]) == a.rooms.read(room_id, tokens[0])


def test_notes_unheard_while_the_listener_was_away_are_read_from_the_log_when_back(
    storage: Any, clock: FakeClock
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    a.rooms.move(room_id, tokens[0], MoveKind.OPEN, safe_cells()[-1])
    # Neither note reached b. A room b does not keep but someone watches there: read again.
    b.rooms.read_again(["elsewhere"])
    assert b.events() == [*a.events()[-2:], -1]
    assert b.published[-1] == {"type": "refresh"}
    assert b.rooms.read(room_id, tokens[0]) == a.rooms.read(room_id, tokens[0])
    b.rooms.read_again([room_id])  # nothing new: nothing published twice
    assert b.events() == [*a.events()[-2:], -1]


def test_a_failed_note_sends_its_watchers_to_read_the_room_again(
    storage: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)

    def down(*args: Any) -> Any:
        raise StorageError("the database went away")

    monkeypatch.setattr(b.rooms.store, "moves_after", down)
    b.rooms.moved_elsewhere(f"race:{room_id}")
    assert b.published == [{"type": "refresh"}]
    monkeypatch.undo()
    assert b.rooms.read(room_id, None)["seq"] == a.rooms.read(room_id, None)["seq"]
    b.rooms.moved_elsewhere(storage.notes[-1])  # the worker is free again: nothing twice
    assert b.published == [{"type": "refresh"}]


def test_the_listener_never_waits_for_a_busy_room(storage: Any, clock: FakeClock) -> None:
    """The listener hands notes on: a room whose lock a move holds delays no other room."""
    a, b, room_id, tokens = raced(storage, clock)
    b.rooms = RoomService(storage, clock=clock)  # a real pool of workers
    b.rooms.publish = lambda room_id, message: b.published.append(message)
    b.rooms.read(room_id, None)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    busy = b.rooms._room(room_id).lock
    with busy:
        listener = threading.Thread(target=b.rooms.moved_elsewhere, args=(storage.notes[-1],))
        listener.start()
        listener.join(60)
        assert not listener.is_alive(), "the listener waited for the room's lock"
        assert b.published == []
    b.rooms.close()  # waits for the worker, which had the lock once it was free
    assert b.events() == a.events()[-1:]


def test_a_move_on_a_room_behind_the_log_stores_nothing_and_is_worked_out_again(
    storage: Any, clock: FakeClock
) -> None:
    """`b` keeps the room as it was before `a`'s move and hears no note: its move is worked
    out on that copy, fenced out by the log's length, and worked out again on the log's room.
    The log is one sequence, and `b`'s watchers get every event once, in order."""
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    kept = b.rooms._room(room_id)
    assert kept.version == len(kept.race.moves) == a.rooms._room(room_id).version - 1
    clock.now += 1
    answer = b.rooms.move(room_id, tokens[0], MoveKind.OPEN, safe_cells()[-1])
    loaded = b.rooms.store.load(room_id)
    assert loaded is not None
    row, log, _ = loaded
    assert row.version == len(log)
    assert [(m.action, m.player) for m in log[-2:]] == [
        (RaceAction.OPEN, 1),
        (RaceAction.OPEN, 0),
    ]
    # b's answer shows both moves: a's opening and its own cell.
    assert answer == b.rooms.read(room_id, tokens[0])
    a.rooms.moved_elsewhere(storage.notes[-1])
    assert a.rooms.read(room_id, tokens[0]) == answer
    assert b.events() == a.events()[-2:]  # a's move's event, then b's own: once each


def test_a_refusal_on_a_room_behind_the_log_is_checked_against_it(
    storage: Any, clock: FakeClock
) -> None:
    """In `b`'s copy the room is still in its lobby, so a reveal would be refused there; one
    read of the log's length finds it behind, and the move is played on the log's room."""
    a, b = Process(storage, clock), Process(storage, clock)
    token, room = a.rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    guest = a.rooms.join(room["id"], "guest")[1]
    b.rooms.read(room["id"], None)
    a.rooms.start(room["id"], token)  # b hears nothing of it
    clock.now += 3
    answer = b.rooms.move(room["id"], guest, MoveKind.OPEN, FIRST)
    assert answer["state"] == "racing"
    assert answer == a.rooms.read(room["id"], guest)
    # A token b does not know yet: a player who joined through a, in a race a started.
    host, lobby = a.rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    b.rooms.read(lobby["id"], None)
    newcomer = a.rooms.join(lobby["id"], "newcomer")[1]
    a.rooms.start(lobby["id"], host)
    clock.now += 3
    answer = b.rooms.move(lobby["id"], newcomer, MoveKind.OPEN, FIRST)
    assert answer == a.rooms.read(lobby["id"], newcomer)
    assert answer["you"] == 1


def test_a_player_who_joined_through_another_process_moves_here(
    storage: Any, clock: FakeClock
) -> None:
    """`b` plays the join from `a`'s note, which carries no token: the token is read from the
    table when `b` meets a player it has no token of."""
    a, b = Process(storage, clock), Process(storage, clock)
    host, room = a.rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    b.rooms.read(room["id"], None)
    guest = a.rooms.join(room["id"], "guest")[1]
    a.rooms.start(room["id"], host)
    for note in storage.notes:
        b.rooms.moved_elsewhere(note)
    assert b.rooms._room(room["id"]).version == a.rooms._room(room["id"]).version
    clock.now += 3
    answer = b.rooms.move(room["id"], guest, MoveKind.OPEN, FIRST)
    assert answer["you"] == 1
    assert answer == a.rooms.read(room["id"], guest)


def test_a_move_on_a_room_another_process_keeps_moving_gives_up_with_503(
    storage: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    append = b.rooms.store.append
    calls: list[int] = []

    def always_behind(*args: Any) -> bool:
        calls.append(1)
        a.rooms.move(room_id, tokens[1], MoveKind.FLAG, (0, len(calls) % 9))  # meanwhile
        return append(*args)

    monkeypatch.setattr(b.rooms.store, "append", always_behind)
    with pytest.raises(StorageError, match="moved in by other server processes 8 times"):
        b.rooms.move(room_id, tokens[0], MoveKind.FLAG, (8, 8))
    assert len(calls) == 8
    monkeypatch.undo()
    assert b.rooms.move(room_id, tokens[0], MoveKind.FLAG, (8, 8))["seq"] > 0


# --- rooms within the server's memory budget ------------------------------------------------


def test_rooms_count_against_the_games_memory_budget_and_are_rebuilt_when_dropped(
    storage: Any, clock: FakeClock
) -> None:
    roomy = GameCache(2**30)
    rooms = RoomService(storage, clock=clock, workers=Inline(), cache=roomy)
    token, room = rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    guest = rooms.join(room["id"], "guest")[1]
    rooms.start(room["id"], token)
    clock.now += 3
    weight = roomy.used
    rooms.move(room["id"], guest, MoveKind.OPEN, FIRST)
    assert roomy.used > weight  # the move's log and event are counted
    weight = roomy.used
    tight = GameCache(weight * 3 // 2)  # one such room fits, two do not
    rooms = RoomService(storage, clock=clock, workers=Inline(), cache=tight)
    before = rooms.read(room["id"], guest)
    assert tight.used == weight
    rooms.create(RoomSpec(preset="beginner", seed=SEED), "host")
    assert tight.used <= tight.budget  # the first room was dropped to make room
    assert rooms.read(room["id"], guest) == before  # and is rebuilt from storage


def test_a_room_that_cannot_fit_in_memory_is_refused_with_503(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = Server(sqlite_url, clock, memory=1024)
    with TestClient(create_app(server.service)) as client:
        full = client.post("/api/races", json={"player": "host", "preset": "beginner"})
        assert (full.status_code, full.json()["code"]) == (503, "server_full")
        assert full.headers["Retry-After"]
    server.close()


def test_a_note_for_a_room_not_kept_here_sends_its_watchers_to_read_it(
    storage: Any, clock: FakeClock
) -> None:
    a, b, room_id, tokens = raced(storage, clock)
    a.rooms.move(room_id, tokens[1], MoveKind.OPEN, FIRST)
    b.rooms.cache.drop(f"race:{room_id}")  # dropped for memory
    b.rooms.moved_elsewhere(storage.notes[-1])
    assert b.published == [{"type": "refresh"}]
    assert b.rooms.read(room_id, None)["seq"] == a.rooms.read(room_id, None)["seq"]


def test_a_finished_races_replay_has_the_frames_a_watcher_saw(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    mines = layout(SEED, 9, 9, 10, FIRST)
    move(client, room_id, tokens[1], "reveal", FIRST)
    move(client, room_id, tokens[0], "flag", sorted(mines)[0])  # private: never in a frame
    for cell in safe_cells():
        if move(client, room_id, tokens[0], "reveal", cell).json()["state"] == "over":
            break
    replay = client.get(f"/api/races/{room_id}/replay").json()
    watcher = client.get(f"/api/races/{room_id}").json()
    cells = [list(line) for line in replay["initial"]]
    assert {s for line in cells for s in line} == {"H"}
    for frame in replay["frames"]:
        assert len(frame["openers"]) == len(frame["changed"])
        for (r, c, symbol), opener in zip(frame["changed"], frame["openers"], strict=True):
            # A player's flag never shows; a cleared board's mines do, as flags (`cell_symbols`).
            assert symbol != "F" or (frame["status"] == "WON" and (r, c) in mines)
            cells[r][c] = symbol
            mark = watcher["openers"][r][c]  # who opened it, as the room says at the end
            assert opener == (-1 if mark == "." else int(mark))
    assert ["".join(line) for line in cells] == watcher["view"]["cells"] == replay["final"]["cells"]
    # The log has every move, the private flag too (a chord's effect depends on its flags).
    flags = [(m["player"], m["row"], m["col"]) for m in replay["moves"] if m["action"] == "flag"]
    assert flags == [(0, *sorted(mines)[0])]
    revealed = [m for m in replay["moves"] if m["action"] in ("open", "chord")]
    assert len(replay["frames"]) == len(revealed)  # a flag or the lobby shows a watcher nothing
    assert replay["frames"][-1]["scores"] == replay["events"][-1]["scores"]
    assert replay["frames"][0]["openers"][0] == 1  # the guest's first reveal


def test_a_race_board_is_capped_by_its_cells_not_by_each_side(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    for rows, cols in ((100, 20), (1, 2_500), (2_500, 1)):
        body = {"player": "a", "rows": rows, "cols": cols, "mines": 1}
        created = client.post("/api/races", json=body)
        assert created.status_code == 201, created.text
        assert len(created.json()["room"]["view"]["cells"]) == rows
    too_big = client.post("/api/races", json={"player": "a", "rows": 100, "cols": 26, "mines": 9})
    assert (too_big.status_code, too_big.json()["code"]) == (422, "invalid_board")
    assert too_big.json()["detail"] == (
        "a race board has at most 2,500 cells (such as 50 x 50 or 20 x 125); 100 x 26 is 2,600"
    )
    side = client.post("/api/races", json={"player": "a", "rows": 2_501, "cols": 1, "mines": 1})
    assert (side.status_code, side.json()["code"]) == (422, "validation_error")


def finish_round(client: TestClient, room_id: str, token: str, seed: int) -> None:
    """Open every safe cell of a 9x9 round dealt from `seed` (the first click at FIRST)."""
    mines = layout(seed, 9, 9, 10, FIRST)
    cells = [(r, c) for r in range(9) for c in range(9) if (r, c) not in mines]
    for cell in [FIRST, *cells]:
        answer = move(client, room_id, token, "reveal", cell)
        assert answer.status_code == 200, answer.text
        if answer.json()["state"] == "over":
            return
    raise AssertionError("the round did not end")


def test_a_replays_frame_times_count_from_the_start_of_their_own_round(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    clock.now += 2
    finish_round(client, room_id, tokens[1], SEED)  # every reveal 2 s after the start
    clock.now += 7
    rematch = client.post(f"/api/races/{room_id}/rematch", headers=auth(tokens[0]))
    assert rematch.status_code == 200
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    clock.now += 3 + 4
    rooms: RoomService = cast(FastAPI, client.app).state.rooms
    seed = rooms._room(room_id).race.seed  # the room tells it only once the round ends
    finish_round(client, room_id, tokens[1], seed)  # 4 s after the second start
    frames = client.get(f"/api/races/{room_id}/replay").json()["frames"]
    [between] = [i for i, frame in enumerate(frames) if frame["move"] == "rematch"]
    assert {frame["time"] for frame in frames[:between]} == {2.0}
    assert frames[between]["time"] == 9.0  # the rematch, counted in the round it closes
    assert {frame["time"] for frame in frames[between + 1 :]} == {4.0}


def test_a_duel_watcher_sees_the_opening_the_room_made_for_everyone(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    room_id, tokens = open_room(client, 2, mode="duel")
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    watcher = client.get(f"/api/races/{room_id}").json()
    player = client.get(f"/api/races/{room_id}", headers=auth(tokens[0])).json()
    cells, openers = watcher["view"]["cells"], watcher["openers"]
    opened = {(r, c) for r, line in enumerate(cells) for c, s in enumerate(line) if s != "H"}
    assert opened
    marked = {
        (r, c) for r, line in enumerate(openers) for c, mark in enumerate(line) if mark != "."
    }
    assert marked == opened
    assert set("".join(openers)) == {"*", "."}
    assert openers == player["openers"]
    assert cells == player["view"]["cells"]


def test_moves_refused_or_changing_nothing_answer_as_the_docs_say(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = open_room(client, 3, on_mine="freeze", freeze_seconds=5)
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    clock.now += 3
    off = move(client, room_id, tokens[0], "chord", (0, 9))
    assert (off.status_code, off.json()["code"]) == (422, "invalid_request")
    assert off.json()["detail"] == "cannot chord (0, 9): outside the board (rows 0..8, cols 0..8)"
    seq = move(client, room_id, tokens[0], "reveal", FIRST).json()["seq"]
    rooms: RoomService = cast(FastAPI, client.app).state.rooms
    logged = len(rooms._room(room_id).race.moves)
    hidden = next(cell for cell in safe_cells() if cell not in opened(client, room_id))
    for verb, cell in (("reveal", FIRST), ("chord", hidden), ("chord", FIRST)):
        same = move(client, room_id, tokens[1], verb, cell)
        assert same.status_code == 200, (verb, cell)
        assert same.json()["seq"] == seq
    assert len(rooms._room(room_id).race.moves) == logged  # nothing stored either
    mines = sorted(layout(SEED, 9, 9, 10, FIRST))
    assert move(client, room_id, tokens[1], "reveal", mines[0]).status_code == 200
    frozen = move(client, room_id, tokens[1], "reveal", hidden)
    assert (frozen.status_code, frozen.json()["code"]) == (409, "illegal_move")
    assert frozen.json()["detail"] == "cannot reveal: you are frozen for 5.0 s"
    out_room, out_tokens = started(client, clock, players=2)
    move(client, out_room, out_tokens[0], "reveal", FIRST)
    move(client, out_room, out_tokens[1], "reveal", mines[0])
    out = move(client, out_room, out_tokens[1], "reveal", hidden)
    assert (out.status_code, out.json()["code"]) == (409, "illegal_move")
    assert out.json()["detail"] == "cannot reveal: you are out of this race"


def opened(client: TestClient, room_id: str) -> set[tuple[int, int]]:
    cells = client.get(f"/api/races/{room_id}").json()["view"]["cells"]
    return {
        (r, c) for r, line in enumerate(cells) for c, symbol in enumerate(line) if symbol != "H"
    }


def test_a_given_seed_fixes_the_first_round_and_a_rematch_draws_its_own(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, clock = race_client
    room_id, tokens = started(client, clock, players=2)
    finish_round(client, room_id, tokens[1], SEED)
    assert client.get(f"/api/races/{room_id}").json()["seed"] == SEED
    client.post(f"/api/races/{room_id}/rematch", headers=auth(tokens[0]))
    client.post(f"/api/races/{room_id}/start", headers=auth(tokens[0]))
    clock.now += 3
    rooms: RoomService = cast(FastAPI, client.app).state.rooms
    drawn = rooms._room(room_id).race.seed
    assert drawn != SEED
    finish_round(client, room_id, tokens[1], drawn)
    assert client.get(f"/api/races/{room_id}").json()["seed"] == drawn
    moves = client.get(f"/api/races/{room_id}/replay").json()["moves"]
    assert [m["seed"] for m in moves if m["action"] == "rematch"] == [drawn]


@pytest.mark.parametrize(
    "size",
    [
        {"preset": "expert", "rows": 16, "cols": 30, "mines": 99},  # both, even when they agree
        {"rows": 9, "cols": 9},
        {"preset": "beginner", "mines": 3},
        {"rows": 3, "cols": 3, "mines": 9},
    ],
)
def test_games_and_rooms_refuse_a_board_request_with_the_cores_words(
    race_client: tuple[TestClient, FakeClock], size: dict[str, Any]
) -> None:
    client, _ = race_client
    with pytest.raises(InvalidBoardError) as core:
        board_size(**size)
    for url, body in (("/api/games", size), ("/api/races", {"player": "a", **size})):
        answer = client.post(url, json=body)
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid_board"), url
        assert answer.json()["detail"] == str(core.value), url


def test_the_race_tables_come_from_the_migrations_and_a_database_that_had_them_migrates(
    tmp_path: Any,
) -> None:
    """Before migration 12 the rooms' service made its tables at start: an old database with
    them (schema 2, the race tables as that service made them, a room in them) takes every
    migration since and keeps its room; a new database gets the tables from the migrations."""
    import sqlite3

    from mines.server.db.sql import MIGRATIONS, SCHEMA_VERSION
    from tests.server.conftest import database_from_dump

    fresh = tmp_path / "new.sqlite3"
    open_storage(f"sqlite:///{fresh}").close()
    with sqlite3.connect(fresh) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert {"races", "race_players", "race_moves"} <= tables

    path = database_from_dump("schema_v2.sql", tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as db:
        for statement in MIGRATIONS[11]:  # the statements the rooms' service ran at start
            assert isinstance(statement, str)
            assert "IF NOT EXISTS" in statement
            db.execute(statement)
        db.execute(
            "INSERT INTO races (id, spec, created_at, state, version) "
            "VALUES ('r1', '{}', 0, 'lobby', 0)"
        )
    open_storage(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        assert db.execute("SELECT id FROM races").fetchall() == [("r1",)]


def test_a_racer_name_that_is_an_account_s_needs_that_account_s_session(
    race_client: tuple[TestClient, FakeClock],
) -> None:
    client, _ = race_client
    sign_up(client, "Alice")  # the client now holds Alice's session
    created = client.post("/api/races", json={"player": "alice", "preset": "beginner"})
    assert created.status_code == 201, created.text  # her own name, in any case
    room_id = created.json()["room"]["id"]
    client.cookies.clear()  # signed out: the name, or a look-alike of it, is hers
    for name in ("Alice", "ALICE", "\u0410lice"):  # the last with a Cyrillic A
        for answer in (
            client.post("/api/races", json={"player": name, "preset": "beginner"}),
            client.post(f"/api/races/{room_id}/join", json={"player": name}),
        ):
            assert answer.status_code == 409, (name, answer.text)
            assert answer.json()["code"] == "name_taken"
            assert "sign in" in answer.json()["detail"]
    assert client.post(f"/api/races/{room_id}/join", json={"player": "Bob"}).status_code == 200
