"""Draining: after SIGUSR1 a real `mines serve` fails `/readyz`, closes each connection after
its answer, still answers, then exits by itself as on SIGTERM."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import httpx

from mines.server.web.drain import DRAIN_SECONDS
from tests.server.processes import server_process


def test_a_drained_process_fails_readyz_closes_connections_and_exits(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(database, extra=["--log-format", "json"]) as server:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert client.get("/readyz").status_code == 200
            kept = client.get("/api/meta")
            assert kept.headers.get("connection", "keep-alive") != "close"
            started = time.monotonic()
            server.process.send_signal(signal.SIGUSR1)
            time.sleep(0.5)
            unready = client.get("/readyz")
            assert unready.status_code == 503
            assert unready.json()["failing"] == ["draining"]
            created = client.post("/api/games", json={"preset": "beginner"})
            assert created.status_code == 201  # still serving what comes
            assert created.headers["connection"] == "close"
        code = server.process.wait(DRAIN_SECONDS + 15)
        took = time.monotonic() - started
        log = server.log()
    assert code == 0
    assert took >= DRAIN_SECONDS - 0.5
    records = [json.loads(line) for line in log.splitlines()]
    assert any(r["message"].startswith("draining") for r in records)
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")]
