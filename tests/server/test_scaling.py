"""Beyond one process: each game owned by the process that stored its last move, fenced in the
database; live frames through Redis; finished games compacted; old rows pruned."""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from mines.cli.main import main
from mines.server.db.database import open_storage
from mines.server.db.race_store import RaceStore, RoomRow
from mines.server.db.sql import SqlStorage
from mines.server.db.storage import SessionRow
from tests.patience import PATIENCE
from tests.server.conftest import FakeClock, Server, layout, safe_cells
from tests.server.processes import ServerProcess, get, post, server_process
from tests.server.tcpproxy import proxy_to

REDIS = "redis://127.0.0.1:6379/0"


def redis_or_skip() -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"Redis is not reachable at {REDIS}: {error}")


def _move(url: str, game: dict[str, Any], kind: str, row: int, col: int) -> dict[str, Any]:
    answer = post(
        f"{url}/api/games/{game['id']}/{kind}",
        json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()["view"]
    return view


def _owner(pg_url: str, game_id: str) -> tuple[int, str]:
    """The stored version of a game, and the process ID in its owner's name."""
    storage = open_storage(pg_url)
    assert isinstance(storage, SqlStorage)
    try:
        with storage.transaction(write=False) as cursor:
            cursor.execute("SELECT version, owner FROM games WHERE id = %s", (game_id,))
            version, owner = cursor.fetchone()
    finally:
        storage.close()
    return int(version), owner.split("/")[1]


def _pid(process: ServerProcess) -> str:
    return str(process.process.pid)


@pytest.mark.postgres
def test_a_game_moved_through_two_processes_in_turn_has_one_owner_at_a_time(
    pg_url: str,
) -> None:
    redis_or_skip()
    options = ["--redis", REDIS, "--redis-prefix", f"mines-test-{uuid.uuid4().hex[:8]}"]
    with server_process(pg_url, extra=options) as one, server_process(pg_url, extra=options) as two:
        game = post(f"{one.url}/api/games", json={"preset": "expert", "seed": 7}).json()
        _move(one.url, game, "reveal", 8, 15)
        cells = get(f"{one.url}/api/games/{game['id']}").json()["view"]["cells"]
        hidden = [(r, c) for r, line in enumerate(cells) for c, s in enumerate(line) if s == "H"]
        for turn, cell in enumerate(hidden[:12]):
            process = (one, two)[turn % 2]
            view = _move(process.url, game, "flag", *cell)
            # Each answer follows on from the one before, whichever process gave it ...
            assert view["version"] == turn + 2
            assert view["cells"][cell[0]][cell[1]] == "F"
            assert view["mines_left"] == 99 - (turn + 1)
            # ... and the process that answered is the game's one owner, at that version.
            assert _owner(pg_url, game["id"]) == (turn + 2, _pid(process))
        # Both processes read the same game, every flag on it.
        views = [get(f"{p.url}/api/games/{game['id']}").json()["view"] for p in (one, two)]
        assert views[0]["cells"] == views[1]["cells"]
        assert sum(line.count("F") for line in views[0]["cells"]) == 12


@pytest.mark.postgres
def test_a_watcher_on_another_process_gets_each_move_through_redis(pg_url: str) -> None:
    redis_or_skip()
    from websockets.sync.client import connect

    options = ["--redis", REDIS, "--redis-prefix", f"mines-test-{uuid.uuid4().hex[:8]}"]
    with server_process(pg_url, extra=options) as one, server_process(pg_url, extra=options) as two:
        game = post(f"{one.url}/api/games", json={"preset": "beginner", "seed": 4}).json()
        other = post(f"{one.url}/api/games", json={"preset": "beginner", "seed": 5}).json()
        live = two.url.replace("http", "ws", 1)
        with (
            connect(f"{live}/api/games/{game['id']}/live") as watcher,
            connect(f"{live}/api/games/{other['id']}/live") as bystander,
        ):
            assert json.loads(watcher.recv(PATIENCE))["type"] == "view"
            assert json.loads(bystander.recv(PATIENCE))["type"] == "view"
            flags = [(0, c) for c in range(6)]
            for cell in flags:
                _move(one.url, game, "flag", *cell)
            frames = [json.loads(watcher.recv(PATIENCE)) for _ in flags]
            # The frames themselves, in order (not a "read again"): no database notification.
            assert [f["type"] for f in frames] == ["move"] * len(flags)
            assert [f["version"] for f in frames] == list(range(1, len(flags) + 1))
            assert [f["changed"] for f in frames] == [[[0, c, "F"]] for _, c in flags]
            # The watcher of another game hears nothing of this one.
            with pytest.raises(TimeoutError):
                bystander.recv(0.5)


@pytest.mark.postgres
def test_the_owners_kill_9_loses_no_answered_move_and_ownership_moves_on(pg_url: str) -> None:
    games: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with server_process(pg_url) as survivor:
        with server_process(pg_url) as owner:
            for seed in range(4):
                created = post(f"{owner.url}/api/games", json={"preset": "expert", "seed": seed})
                body = created.json()
                _move(owner.url, body, "reveal", 8, 15)
                _move(owner.url, body, "flag", 0, seed)
                games.append((body, _move(owner.url, body, "flag", 15, 29)))
                assert _owner(pg_url, body["id"])[1] == _pid(owner)
            owner.process.kill()  # SIGKILL: no shutdown, no flush
            owner.process.wait()
        for game, answered in games:
            after = get(f"{survivor.url}/api/games/{game['id']}").json()["view"]
            assert after["version"] == answered["version"]
            assert after["cells"] == answered["cells"]
            view = _move(survivor.url, game, "flag", 15, 29)  # the next move follows on
            assert view["version"] == answered["version"] + 1
            assert _owner(pg_url, game["id"]) == (view["version"], _pid(survivor))


def _finished_games(server: Server, clock: FakeClock) -> list[dict[str, Any]]:
    """A won game and a lost one, with flags, chords and time between the moves."""
    mines = layout(5, 9, 9, 10, (0, 0))
    won = server.create(preset="beginner", seed=5)
    server.move(won, "flag", *sorted(mines)[-1])
    for row, col in safe_cells(9, 9, mines):
        clock.now += 0.37
        if server.move(won, "reveal", row, col).json()["view"]["status"] == "WON":
            break
    lost_mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    lost = server.create(preset="beginner", seed=3, first_click="any")
    server.move(lost, "reveal", *sorted(set(safe_cells(9, 9, lost_mines)))[0])
    clock.now += 1.1
    server.move(lost, "reveal", *sorted(lost_mines)[0])
    return [won, lost]


READS = ("record", "replay", "summary", "review")


def _reads(server: Server, games: list[dict[str, Any]]) -> list[bytes]:
    found = []
    for game in games:
        for read in READS:
            answer = server.client.get(f"/api/games/{game['id']}/{read}")
            assert answer.status_code == 200, answer.text
            found.append(answer.content)
    return found


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    return str(request.getfixturevalue("pg_url") if request.param == "postgres" else sqlite_url)


def test_a_compacted_games_record_replay_and_review_are_byte_for_byte_the_same(
    database: str, clock: FakeClock
) -> None:
    server = Server(database, clock)
    try:
        games = _finished_games(server, clock)
        playing = server.create(preset="beginner", seed=9)
        server.move(playing, "flag", 0, 0)
        before = _reads(server, games)
    finally:
        server.close()
    storage = open_storage(database)
    assert isinstance(storage, SqlStorage)
    try:
        with storage.transaction(write=True) as cursor:
            cursor.execute("DELETE FROM reviews")  # worked out again, from the compacted game
        assert storage.compact(dry_run=True) == 2
        assert storage.compact() == 2
        assert storage.compact() == 0
        with storage.transaction(write=False) as cursor:
            cursor.execute("SELECT game_id FROM moves")
            assert {row[0] for row in cursor.fetchall()} == {playing["id"]}  # still in play
    finally:
        storage.close()
    again = Server(database, clock)  # nothing in memory: everything read from storage
    try:
        assert _reads(again, games) == before
        assert again.move(playing, "flag", 1, 1).status_code == 200
    finally:
        again.close()


def test_prune_keeps_what_is_used_and_removes_the_rest(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    day = 86400.0
    now = time.time()
    clock = FakeClock(now - 100 * day)
    server = Server(sqlite_url, clock)
    try:
        old_finished = _finished_games(server, clock)
        idle = server.create(preset="beginner", seed=11)
        for game in old_finished:
            assert server.client.get(f"/api/games/{game['id']}/review").status_code == 200
        clock.now = now - day
        recent = _finished_games(server, clock)
        for game in recent:
            assert server.client.get(f"/api/games/{game['id']}/review").status_code == 200
        storage = server.service.storage
        assert isinstance(storage, SqlStorage)
        rooms = RaceStore(storage)
        rooms.create(RoomRow("0ld", {}, now - 40 * day, "LOBBY", 0))
        rooms.create(RoomRow("new", {}, now - day, "LOBBY", 0))
        server.sign_up("keeper")  # a session that runs on
        with storage.transaction(write=False) as cursor:
            cursor.execute("SELECT account_id FROM sessions")
            (account,) = cursor.fetchone()
        storage.start_session(SessionRow("gone", account, now - 60 * day, now - day), None)
    finally:
        server.close()
    assert main(["admin", "prune", "--db", sqlite_url, "--dry-run"]) == 0
    said = capsys.readouterr().out
    for line in (
        "would delete 1 game(s) in progress",
        "would delete 1 race room(s)",
        "would delete 1 expired sign-in session(s)",
        "would delete 2 review(s)",
        "would compact 4 finished game(s)",
    ):
        assert line in said, said
    assert main(["admin", "prune", "--db", sqlite_url]) == 0
    assert "compacted 4 finished game(s)" in capsys.readouterr().out
    storage = open_storage(sqlite_url)
    assert isinstance(storage, SqlStorage)
    try:
        assert storage.load(idle["id"]) is None
        for game in [*old_finished, *recent]:
            assert storage.load(game["id"]) is not None
        kept_reviews = [g["id"] for g in recent]
        with storage.transaction(write=False) as cursor:
            cursor.execute("SELECT game_id FROM reviews ORDER BY game_id")
            assert [row[0] for row in cursor.fetchall()] == sorted(kept_reviews)
            cursor.execute("SELECT id FROM races")
            assert [row[0] for row in cursor.fetchall()] == ["new"]
            cursor.execute("SELECT token_hash FROM sessions")
            assert [row[0] for row in cursor.fetchall()] != ["gone"]
            cursor.execute("SELECT COUNT(*) FROM sessions")
            assert cursor.fetchone()[0] == 1
            cursor.execute("SELECT COUNT(*) FROM moves")
            assert cursor.fetchone()[0] == 0
    finally:
        storage.close()


def test_pool_limits_are_taken_from_the_database_url(tmp_path: Path) -> None:
    from mines.server.db.storage import StorageError

    with pytest.raises(StorageError, match="pool_size is a number from 1 to 1000"):
        open_storage("postgresql://127.0.0.1/test?pool_size=0")
    with pytest.raises(StorageError, match="pool_timeout is a number from 0 to 60"):
        open_storage("postgresql://127.0.0.1/test?pool_timeout=soon")


def test_a_process_whose_game_is_behind_answers_from_the_stored_game(
    sqlite_url: str, clock: FakeClock
) -> None:
    """A move that reaches a process while another owned the game: a stored move is fenced,
    and a refusal or a move that would change nothing is checked against the stored game."""
    one, two = Server(sqlite_url, clock), Server(sqlite_url, clock)
    try:
        game = one.create(rows=9, cols=9, mines=10, seed=1)
        assert one.move(game, "flag", 0, 0).status_code == 200  # `one` keeps the game
        assert two.move(game, "flag", 0, 0).status_code == 200  # `two` takes it: unflagged
        # In `one`'s memory (0, 0) is still flagged: its "flag it" would change nothing, and
        # its reveal would be refused for the flag.
        flag = {"row": 0, "col": 0, "flagged": True}
        headers = {"Authorization": f"Bearer {game['token']}"}
        answer = one.client.post(f"/api/games/{game['id']}/flag", json=flag, headers=headers)
        assert answer.status_code == 200
        assert answer.json()["changed"] == [[0, 0, "F"]]
        assert answer.json()["view"]["version"] == 3
        assert two.move(game, "flag", 0, 0).status_code == 200  # unflagged again, by `two`
        answer = one.move(game, "reveal", 0, 0)
        assert answer.status_code == 200, answer.text
        assert answer.json()["view"]["version"] == 5
        assert answer.json()["view"]["cells"][0][0] not in ("H", "F")
    finally:
        one.close()
        two.close()


def test_a_frame_redis_could_not_take_makes_the_other_watchers_read_again() -> None:
    """The frame is lost, not the watchers: once Redis takes frames again, the first thing
    the other processes' watchers of that game get is a `refresh`."""
    redis_or_skip()
    import asyncio

    from redis.exceptions import ConnectionError as RedisConnectionError

    from mines.server.services.fanout import RedisFanout

    async def run() -> list[tuple[str, dict[str, Any]]]:
        heard: list[tuple[str, dict[str, Any]]] = []
        prefix = f"mines-test-{uuid.uuid4().hex[:8]}"
        mover = RedisFanout(
            REDIS, prefix=prefix, timeout=1.0, deliver=lambda k, f: None, missed=lambda: None
        )
        watcher = RedisFanout(
            REDIS,
            prefix=prefix,
            timeout=1.0,
            deliver=lambda key, frame: heard.append((key, frame)),
            missed=lambda: None,
        )
        mover.start()
        watcher.start()
        try:
            for _ in range(100):  # subscribed to its own channel: connected
                if watcher._pubsub is not None:
                    break
                await asyncio.sleep(0.05)
            watcher.watch("g1")
            await watcher.joined("g1")
            client = mover._client
            assert client is not None
            working = client.publish

            async def down(*args: Any) -> Any:
                raise RedisConnectionError("down")

            client.publish = down  # type: ignore[method-assign,assignment]
            await mover.publish("g1", {"type": "move", "version": 1})
            client.publish = working  # type: ignore[method-assign]
            mover._down_until = 0.0  # the pause over
            await mover.publish("g1", {"type": "move", "version": 2})
            for _ in range(100):
                if len(heard) >= 2:
                    break
                await asyncio.sleep(0.05)
        finally:
            await mover.stop()
            await watcher.stop()
        return heard

    heard = asyncio.run(run())
    assert heard == [("g1", {"type": "refresh"}), ("g1", {"type": "move", "version": 2})]


# --- race rooms: fenced like games, their moves to other processes through Redis -------------

RACE_SEED, RACE_FIRST = 4242, (4, 4)


def _room(url: str, other: str) -> tuple[str, list[str], float]:
    """A started beginner room of two players, the host through `url`, the guest through
    `other`; its ID, the players' tokens, and when its countdown ends (monotonic)."""
    created = post(
        f"{url}/api/races", json={"player": "host", "preset": "beginner", "seed": RACE_SEED}
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["room"]["id"]
    joined = post(f"{other}/api/races/{room_id}/join", json={"player": "guest"})
    assert joined.status_code == 200, joined.text
    tokens = [created.json()["token"], joined.json()["token"]]
    start = post(f"{url}/api/races/{room_id}/start", headers=_bearer(tokens[0]))
    assert start.status_code == 200, start.text
    return room_id, tokens, time.monotonic() + start.json()["starts_in"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _reveal(url: str, room_id: str, token: str, cell: tuple[int, int]) -> dict[str, Any]:
    answer = post(
        f"{url}/api/races/{room_id}/reveal",
        json={"row": cell[0], "col": cell[1]},
        headers=_bearer(token),
    )
    assert answer.status_code == 200, answer.text
    room: dict[str, Any] = answer.json()
    return room


def _hidden_safe(room: dict[str, Any]) -> list[tuple[int, int]]:
    mines = layout(RACE_SEED, 9, 9, 10, RACE_FIRST)
    cells = room["view"]["cells"]
    return [
        (r, c)
        for r, line in enumerate(cells)
        for c, symbol in enumerate(line)
        if symbol == "H" and (r, c) not in mines
    ]


def _events(watcher: Any, count: int) -> list[dict[str, Any]]:
    frames = [json.loads(watcher.recv(PATIENCE)) for _ in range(count)]
    assert [frame["type"] for frame in frames] == ["event"] * count, frames
    return [frame["event"] for frame in frames]


def _notes_about(listening: Any, room_id: str) -> list[str]:
    """The notifications on the games' channel that name this room (other test runs share
    the database, so only this room's count)."""
    return [
        n.payload
        for n in listening.notifies(timeout=0.5, stop_after=10_000)
        if room_id in n.payload
    ]


@pytest.mark.postgres
def test_a_race_moved_through_two_processes_reaches_a_watcher_through_redis_without_notify(
    pg_url: str,
) -> None:
    """The guest moves through the process that watches, the host through the other: each
    process's copy is behind at its turn now and then, the fence catches it, and the
    watcher gets every event once and in order through the room's Redis channel, with no
    NOTIFY sent."""
    redis_or_skip()
    psycopg = pytest.importorskip("psycopg")
    from websockets.sync.client import connect

    from tests.server.conftest import PG_URL

    options = ["--redis", REDIS, "--redis-prefix", f"mines-test-{uuid.uuid4().hex[:8]}"]
    with (
        server_process(pg_url, extra=options) as one,
        server_process(pg_url, extra=options) as two,
        psycopg.connect(PG_URL, autocommit=True) as listening,
    ):
        listening.execute("LISTEN mines_moves")
        room_id, tokens, starts = _room(one.url, two.url)
        other_room, _, _ = _room(one.url, two.url)
        live = two.url.replace("http", "ws", 1)
        with (
            connect(f"{live}/api/races/{room_id}/live") as watcher,
            connect(f"{live}/api/races/{other_room}/live") as bystander,
        ):
            seen = json.loads(watcher.recv(PATIENCE))["room"]["seq"]
            json.loads(bystander.recv(PATIENCE))
            time.sleep(max(0.0, starts - time.monotonic()) + 0.1)
            room = _reveal(two.url, room_id, tokens[1], RACE_FIRST)
            for turn in range(8):
                host = turn % 2 == 0
                cell = _hidden_safe(room)[0]  # hidden in the last answer: each opens cells
                room = _reveal((one if host else two).url, room_id, tokens[1 - host], cell)
            made = room["seq"] - seen
            assert made == 9
            events = _events(watcher, made)
            assert [e["seq"] for e in events] == list(range(seen + 1, seen + 1 + made))
            with pytest.raises(TimeoutError):  # nothing more: each event once
                watcher.recv(0.5)
            with pytest.raises(TimeoutError):  # and nothing of this room elsewhere
                bystander.recv(0.1)
        for url in (one.url, two.url):  # both processes read one room
            assert get(f"{url}/api/races/{room_id}").json()["seq"] == seen + made
        assert _notes_about(listening, room_id) == []


@pytest.mark.postgres
def test_a_public_room_made_on_one_process_reaches_the_lobby_socket_of_another(
    pg_url: str,
) -> None:
    """The lobby's socket on one process is told of a public room made, and joined, through
    the other (the lobby's Redis channel), and reads the lobby past its kept read."""
    redis_or_skip()
    from websockets.sync.client import connect

    options = ["--redis", REDIS, "--redis-prefix", f"mines-test-{uuid.uuid4().hex[:8]}"]
    with (
        server_process(pg_url, extra=options) as one,
        server_process(pg_url, extra=options) as two,
        connect(f"{two.url.replace('http', 'ws', 1)}/api/races/live") as lobby,
    ):
        first = json.loads(lobby.recv(PATIENCE))
        assert (first["type"], first["rooms"], first["live"]) == ("lobby", [], [])
        created = post(
            f"{one.url}/api/races",
            json={"player": "host", "preset": "beginner", "public": True, "name": "Across"},
        )
        assert created.status_code == 201, created.text
        room_id = created.json()["room"]["id"]
        pushed = json.loads(lobby.recv(PATIENCE))
        assert [(room["id"], room["name"]) for room in pushed["rooms"]] == [(room_id, "Across")]
        joined = post(f"{one.url}/api/races/{room_id}/join", json={"player": "bea"})
        assert joined.status_code == 200, joined.text
        while (pushed := json.loads(lobby.recv(PATIENCE)))["rooms"][0]["players"] != [
            "host",
            "bea",
        ]:
            pass  # each change is told; the list converges on the stored room


@pytest.mark.postgres
def test_race_moves_missed_while_redis_was_cut_off_reach_the_watcher_once_it_is_back(
    pg_url: str,
) -> None:
    """The watcher's process reaches Redis through a proxy the test cuts: the moves stored
    meanwhile (through the other process) are not lost to the watcher; once the subscription
    is back they are read from the log and their events sent, in order, each once."""
    redis_or_skip()
    from websockets.sync.client import connect

    prefix = ["--redis-prefix", f"mines-test-{uuid.uuid4().hex[:8]}"]
    with proxy_to(6379) as proxy:
        proxied = ["--redis", f"redis://127.0.0.1:{proxy.port}/0", *prefix]
        with (
            server_process(pg_url, extra=["--redis", REDIS, *prefix]) as one,
            server_process(pg_url, extra=proxied) as two,
        ):
            room_id, tokens, starts = _room(one.url, two.url)
            live = two.url.replace("http", "ws", 1)
            with connect(f"{live}/api/races/{room_id}/live") as watcher:
                seen = json.loads(watcher.recv(PATIENCE))["room"]["seq"]
                time.sleep(max(0.0, starts - time.monotonic()) + 0.1)
                room = _reveal(one.url, room_id, tokens[0], RACE_FIRST)
                assert [e["seq"] for e in _events(watcher, 1)] == [seen + 1]
                proxy.cut()
                for _ in range(3):
                    room = _reveal(one.url, room_id, tokens[0], _hidden_safe(room)[0])
                assert room["seq"] == seen + 4
                proxy.restore()
                events = _events(watcher, 3)
                assert [e["seq"] for e in events] == [seen + 2, seen + 3, seen + 4]
                with pytest.raises(TimeoutError):
                    watcher.recv(0.5)
                # And the moves after it come through Redis again.
                room = _reveal(one.url, room_id, tokens[0], _hidden_safe(room)[0])
                assert [e["seq"] for e in _events(watcher, 1)] == [room["seq"]]
            log = two.log()
    assert "live frames through Redis lost their subscription" in log, log


def test_a_rooms_note_the_thread_could_not_send_goes_the_event_loops_way() -> None:
    """A race room's stored moves are published by the thread that stored them; when that
    fails, the note is not lost: it goes through the event loop's publisher, in order."""
    redis_or_skip()
    import asyncio

    from redis.exceptions import ConnectionError as RedisConnectionError

    from mines.server.services.fanout import RedisFanout

    async def run() -> list[tuple[str, dict[str, Any]]]:
        heard: list[tuple[str, dict[str, Any]]] = []
        prefix = f"mines-test-{uuid.uuid4().hex[:8]}"
        mover = RedisFanout(
            REDIS, prefix=prefix, timeout=1.0, deliver=lambda k, f: None, missed=lambda: None
        )
        watcher = RedisFanout(
            REDIS,
            prefix=prefix,
            timeout=1.0,
            deliver=lambda key, frame: heard.append((key, frame)),
            missed=lambda: None,
        )
        mover.start()
        watcher.start()
        try:
            for _ in range(100):
                if watcher._pubsub is not None:
                    break
                await asyncio.sleep(0.05)
            watcher.watch("race:r")
            await watcher.joined("race:r")
            await asyncio.to_thread(mover.send, "race:r", {"after": 0})  # the thread's way
            direct = mover._direct
            assert direct is not None

            def down(*args: Any) -> Any:
                raise RedisConnectionError("down")

            direct.publish = down  # type: ignore[method-assign,assignment]
            for after in (1, 2):  # the first fails; the second goes the loop's way at once
                await asyncio.to_thread(mover.send, "race:r", {"after": after})
            for _ in range(100):
                if len(heard) >= 3:
                    break
                await asyncio.sleep(0.05)
        finally:
            await mover.stop()
            await watcher.stop()
        return heard

    heard = asyncio.run(run())
    assert heard == [("race:r", {"after": n}) for n in (0, 1, 2)]
