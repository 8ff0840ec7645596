"""Faults: a read-only or full database, a SQLite file locked by another process, and
PostgreSQL connections killed during moves. Nothing answered is lost, nothing refused is
applied, and refusals are 503 with `Retry-After`."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from mines.server.db.sqlite import SqliteStorage
from tests.patience import PATIENCE
from tests.server.conftest import PG_URL, FakeClock, Server


def connection(server: Server) -> sqlite3.Connection:
    storage = server.service.storage
    assert isinstance(storage, SqliteStorage)
    return storage._connection


def cells(server: Server, game: dict[str, Any]) -> list[str]:
    answer = server.client.get(f"/api/games/{game['id']}")
    assert answer.status_code == 200, answer.text
    lines: list[str] = answer.json()["view"]["cells"]
    return lines


def test_a_read_only_database_is_503_and_loses_nothing(server: Server) -> None:
    game = server.create()
    assert server.move(game, "flag", 0, 0).status_code == 200
    before = cells(server, game)
    connection(server).execute("PRAGMA query_only = ON")  # writes fail as on a read-only file
    refused = server.move(game, "flag", 1, 1)
    assert refused.status_code == 503, refused.text
    assert refused.json()["code"] == "storage_unavailable"
    assert refused.headers["retry-after"].isdigit()
    assert server.client.post("/api/games", json={"preset": "beginner"}).status_code == 503
    assert cells(server, game) == before  # the refused move was not applied, the earlier kept
    connection(server).execute("PRAGMA query_only = OFF")
    assert server.move(game, "flag", 1, 1).status_code == 200
    assert cells(server, game)[1][1] == "F"


def test_a_full_database_is_503_and_loses_nothing(server: Server) -> None:
    game = server.create(rows=40, cols=40, mines=10, seed=1)
    pages = connection(server).execute("PRAGMA page_count").fetchone()[0]
    connection(server).execute(f"PRAGMA max_page_count = {pages}")  # as a full disk
    answered = []
    for index in range(1600):
        row, col = divmod(index, 40)
        answer = server.move(game, "flag", row, col)
        if answer.status_code != 200:
            break
        answered.append((row, col))
    assert answer.status_code == 503, answer.text
    assert "full" in answer.json()["detail"]
    view = cells(server, game)
    shown = {(r, c) for r, line in enumerate(view) for c, s in enumerate(line) if s == "F"}
    assert shown == set(answered)  # every answered move kept, the refused one not applied
    connection(server).execute("PRAGMA max_page_count = 1073741823")
    assert server.move(game, "flag", row, col).status_code == 200


def test_a_sqlite_file_locked_by_another_process_is_503_within_the_bound(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "locked.sqlite3"
    server = Server(f"sqlite:///{path}?busy_timeout=0.2", clock)
    try:
        game = server.create()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            refused = server.move(game, "flag", 0, 0)
            assert refused.status_code == 503
            assert "locked" in refused.json()["detail"]
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert server.move(game, "flag", 0, 0).status_code == 200
        assert cells(server, game)[0][0] == "F"
    finally:
        server.close()


def test_a_bad_busy_timeout_is_refused(tmp_path: Path) -> None:
    from mines.server.db.database import open_storage
    from mines.server.db.storage import StorageError

    with pytest.raises(StorageError, match="busy_timeout"):
        open_storage(f"sqlite:///{tmp_path / 'x.sqlite3'}?busy_timeout=forever")


@pytest.mark.postgres
def test_killed_postgres_connections_lose_and_half_apply_nothing(
    pg_url: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    name = f"mines-faults-{uuid.uuid4().hex[:8]}"
    server = Server(f"{pg_url}&application_name={name}", FakeClock())
    games = [server.create(rows=10, cols=10, mines=5, seed=seed) for seed in range(4)]
    answers: dict[str, list[tuple[str, int]]] = {game["id"]: [] for game in games}
    done = threading.Event()

    def play(game: dict[str, Any]) -> None:
        for index in range(40):
            row, col = divmod(index, 10)
            status = server.move(game, "flag", row, col).status_code
            answers[game["id"]].append((f"F{row},{col}", status))

    def kill() -> int:
        killed = 0
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            while not done.is_set():
                found = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s",
                    (name,),
                ).fetchall()
                killed += len(found)
                time.sleep(0.05)
        return killed

    killer_result: list[int] = []
    killer = threading.Thread(target=lambda: killer_result.append(kill()))
    killer.start()
    players = [threading.Thread(target=play, args=(game,)) for game in games]
    try:
        for player in players:
            player.start()
        for player in players:
            player.join()
    finally:
        done.set()
        killer.join()
        server.close()
    assert killer_result[0] > 0
    assert [len(moves) for moves in answers.values()] == [40] * len(games)  # each answered
    statuses = {status for moves in answers.values() for _, status in moves}
    assert statuses <= {200, 503}, statuses
    refused = sum(status == 503 for moves in answers.values() for _, status in moves)
    after = Server(pg_url, FakeClock())  # a fresh process's view of what was stored
    try:
        for game in games:
            stored = [m.move for m in after.service.storage.moves_after(game["id"], 0)]
            applied = [move for move, status in answers[game["id"]] if status == 200]
            assert stored == applied  # every answered move, in order; no refused one
            flags = {
                (r, c)
                for r, line in enumerate(cells(after, game))
                for c, s in enumerate(line)
                if s == "F"
            }
            assert flags == {tuple(map(int, m[1:].split(","))) for m in applied}
    finally:
        after.close()
    print(f"killed {killer_result[0]} connections; {refused} of 160 moves refused with 503")


def test_a_read_never_waits_for_a_writer(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "locked.sqlite3"
    server = Server(f"sqlite:///{path}?busy_timeout=30", clock)
    try:
        game, other_game = server.create(), server.create()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            # A move here waits for it (up to busy_timeout), holding this process's writer.
            mover = threading.Thread(target=server.move, args=(game, "flag", 0, 0))
            mover.start()
            storage = server.service.storage
            assert isinstance(storage, SqliteStorage)
            deadline = time.monotonic() + PATIENCE
            while not storage._lock.locked() and time.monotonic() < deadline:
                time.sleep(0.01)
            read = server.client.get(f"/api/games/{other_game['id']}")
            assert read.status_code == 200
            assert mover.is_alive()  # the read was answered while the writer still waited
        finally:
            other.execute("ROLLBACK")
            other.close()
        mover.join()
    finally:
        server.close()
