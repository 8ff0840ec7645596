"""Logs an operator can trust: no secret of a URL in any line, JSON lines only in JSON mode, a
WebSocket client that leaves early is an INFO line (no ERROR, no traceback), and uvicorn
writes no WebSocket lines of its own."""

from __future__ import annotations

import json
import socket
import struct
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.sync.client import connect

from mines.server.common.logs import MASK, masked
from tests.server.conftest import PG_URL
from tests.server.processes import post, server_process

SECRET = "hunter2-s3cret"
RESET = struct.pack("ii", 1, 0)
"""SO_LINGER on, 0 s: closing the socket resets the connection (no FIN, no close frame)."""


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://mines:pw@db.example/mines", f"postgresql://mines:{MASK}@db.example/mines"),
        ("postgresql://db.example/mines?password=pw&schema=a", "postgresql://db.example/mines"),
        ("redis://:pw@cache:6379/0", f"redis://:{MASK}@cache:6379/0"),
        ("sqlite:////var/lib/mines/games.sqlite3", "sqlite:////var/lib/mines/games.sqlite3"),
        ("postgresql://user@host/db", "postgresql://user@host/db"),
    ],
)
def test_a_urls_secrets_are_masked(url: str, shown: str) -> None:
    found = masked(url)
    assert "pw" not in found.replace("password=", "")
    assert found.startswith(shown)


def test_the_banner_is_one_json_line_without_the_password(pg_url: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    try:
        psycopg.connect(PG_URL, connect_timeout=3).close()
    except psycopg.Error as error:
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}: {error}")
    parts = urlsplit(pg_url)
    # The test database trusts local connections: the password is accepted and ignored. The
    # schema is the test's own, so that nothing is left in the shared database.
    user = parts.username or "postgres"
    database = (
        f"{parts.scheme}://{user}:{SECRET}@{parts.hostname}:{parts.port or 5432}{parts.path}"
        f"?{parts.query}"
    )
    redis = f"redis://:{SECRET}@127.0.0.1:1/0"  # nothing listens there: the limits fall back
    with server_process(database, extra=["--log-format", "json", "--redis", redis]) as server:
        server.process.terminate()
        server.process.wait()
        log = server.log()
    assert SECRET not in log
    records = [json.loads(line) for line in log.splitlines()]  # every line is JSON
    banner = [r for r in records if r["message"].startswith("mines server at")]
    assert len(banner) == 1
    assert f"{user}:{MASK}@" in banner[0]["message"]
    assert f":{MASK}@127.0.0.1:1/0" in banner[0]["message"]


def test_a_websocket_client_leaving_early_is_info_not_error(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(database, extra=["--log-format", "json"]) as server:
        game = post(f"{server.url}/api/games", json={"preset": "beginner"}).json()
        host = server.url.removeprefix("http://")
        address = f"ws://{host}/api/games/{game['id']}/live?token={SECRET}"
        for _ in range(5):
            # Gone before the first frame: a close right after the handshake...
            with connect(address):
                pass
            # ... and a connection reset without a close frame.
            with connect(address) as client:
                client.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
                client.socket.close()
        with connect(address) as watcher:  # one that stays for its view
            assert json.loads(watcher.recv(timeout=10))["type"] == "view"
        time.sleep(1.0)
        server.process.terminate()
        server.process.wait()
        log = server.log()
    records = [json.loads(line) for line in log.splitlines()]
    assert [r for r in records if r["level"] in ("ERROR", "CRITICAL")] == []
    assert all("traceback" not in r for r in records)
    left = [r for r in records if "the client left" in r["message"]]
    assert left
    assert {r["level"] for r in left} == {"INFO"}
    assert SECRET not in log  # uvicorn's handshake lines would show the query
    assert not [r for r in records if "WebSocket" in r["message"]]
    assert not [r for r in records if r["message"] in ("connection open", "connection closed")]


def test_an_unknown_database_url_is_refused_without_its_password() -> None:
    from mines.server.db.database import open_storage
    from mines.server.db.storage import StorageError

    with pytest.raises(StorageError) as refused:
        open_storage(f"mysql://mines:{SECRET}@db/mines")
    assert SECRET not in str(refused.value)
    assert "mysql://mines:***@db/mines" in str(refused.value)
