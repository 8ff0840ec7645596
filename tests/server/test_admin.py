"""`mines admin`: a backup restored into a fresh database replays every game as it was (SQLite
by the online backup, PostgreSQL by the documented pg_dump and pg_restore), and pruning
deletes only games in progress left idle."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from mines.cli.main import main
from mines.server.common.settings import Settings
from mines.server.db.database import open_storage
from mines.server.services.games import GameService
from mines.server.services.present import Window
from tests.server.conftest import FakeClock, Server


def play_some(server: Server) -> list[str]:
    """Games won, lost, in progress and untouched, with flags and reveals."""
    ids = []
    for seed in range(6):
        game = server.create(rows=9, cols=9, mines=10, seed=seed)
        ids.append(game["id"])
        if seed == 5:
            continue  # no move at all
        server.move(game, "flag", 0, 0)
        server.move(game, "reveal", 4, 4)
        for row in range(9):
            answer = server.move(game, "reveal", row, 8 - seed)
            if answer.status_code != 200 or answer.json()["view"]["status"] != "IN_PROGRESS":
                break
    return ids


def views(url: str, ids: list[str]) -> dict[str, Any]:
    """Every game as a fresh server rebuilds it from its stored moves."""
    service = GameService(open_storage(url), Settings(database=url))
    try:
        found = {game_id: service.view(game_id, Window()) for game_id in ids}
        for view in found.values():
            if view["status"] == "IN_PROGRESS":
                del view["elapsed"]  # a game in progress has its clock running
        return found
    finally:
        service.close()


def test_a_sqlite_backup_restored_replays_every_game(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = play_some(server)
    before = views(server.database, ids)
    assert {v["status"] for v in before.values()} >= {"IN_PROGRESS", "LOST"}
    backup = tmp_path / "backup.sqlite3"
    assert main(["admin", "backup", "--db", server.database, str(backup)]) == 0  # server open
    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert main(["admin", "restore", str(backup), "--db", restored]) == 0
    assert views(restored, ids) == before
    assert main(["admin", "restore", str(backup), "--db", restored]) != 0  # never overwrites
    assert "exists already" in capsys.readouterr().err


def test_a_postgresql_dump_restored_replays_every_game(pg_url: str, tmp_path: Path) -> None:
    psycopg = pytest.importorskip("psycopg")
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (Debian: postgresql-client)")
    server = Server(pg_url, FakeClock())
    try:
        ids = play_some(server)
    finally:
        server.close()
    before = views(pg_url, ids)
    parts = urlsplit(pg_url)
    schema = parts.query.removeprefix("schema=")
    database = parts._replace(query="").geturl()
    dump = tmp_path / "mines.dump"
    # The commands docs/deploy.md gives, with this test's schema and a new database.
    subprocess.run(["pg_dump", "-Fc", "-n", schema, "-d", database, "-f", str(dump)], check=True)
    fresh = f"mines_restore_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{fresh}"')
    try:
        target = parts._replace(path=f"/{fresh}", query="").geturl()
        subprocess.run(["pg_restore", "-d", target, str(dump)], check=True)
        assert views(f"{target}?schema={schema}", ids) == before
    finally:
        with psycopg.connect(database, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')


def test_prune_deletes_only_games_in_progress_left_idle(
    sqlite_url: str, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    day = 86400.0
    clock.now = time.time() - 40 * day  # 40 days ago, as the command's clock counts
    server = Server(sqlite_url, clock)
    try:
        ids = play_some(server)
        statuses = views(sqlite_url, ids)
        clock.now = time.time() - 10 * day
        fresh = server.create()  # made 10 days ago, no move
        moved = server.create(rows=9, cols=9, mines=10, seed=1)  # made 10 days ago ...
        clock.now = time.time() - 40 * day
        old_but_moved = server.create(rows=9, cols=9, mines=10, seed=2)  # ... or 40, moved at 1
        clock.now = time.time() - day
        assert server.move(old_but_moved, "flag", 0, 0).status_code == 200
    finally:
        server.close()
    idle = [i for i in ids if statuses[i]["status"] == "IN_PROGRESS"]
    finished = [i for i in ids if statuses[i]["status"] != "IN_PROGRESS"]
    assert idle
    assert finished
    command = ["admin", "prune", "--db", sqlite_url, "--older-than", "30d"]
    assert main([*command, "--dry-run"]) == 0
    assert f"would delete {len(idle)} game(s)" in capsys.readouterr().out
    assert main(command) == 0
    assert f"deleted {len(idle)} game(s)" in capsys.readouterr().out
    storage = open_storage(sqlite_url)
    try:
        for game_id in idle:
            assert storage.load(game_id) is None
            assert storage.moves_after(game_id, 0) == []
        for game_id in [*finished, fresh["id"], moved["id"], old_but_moved["id"]]:
            assert storage.load(game_id) is not None, game_id
    finally:
        storage.close()
    assert views(sqlite_url, finished) == {i: statuses[i] for i in finished}  # replays intact
