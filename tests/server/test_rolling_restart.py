"""A rolling restart through the shipped nginx while players play: each process drained
(SIGUSR1) and started again in turn, as `systemctl restart mines@PORT` does with the shipped
unit, and not one request fails."""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

from tests.server.cluster import nginx, shipped_settings, site_for_test
from tests.server.processes import free_port, server_process
from tests.server.test_deploy import nginx_or_skip
from tests.server.test_ratelimit import redis_or_skip

PLAYERS = 6


def play(url: str, stop: threading.Event, counts: dict[str, int], failures: list[str]) -> None:
    """Create games and flag and unflag their cells until `stop`, counting every answer."""
    with httpx.Client(base_url=url, timeout=30) as client:
        game: dict[str, str] | None = None
        col = 0
        while not stop.is_set():
            try:
                if game is None or col == 9:
                    answer = client.post("/api/games", json={"preset": "beginner"})
                    game, col = (answer.json() if answer.status_code == 201 else None), 0
                else:
                    answer = client.post(
                        f"/api/games/{game['id']}/flag",
                        json={"row": 0, "col": col},
                        headers={"Authorization": f"Bearer {game['token']}"},
                    )
                    col += 1
            except httpx.TransportError as error:
                failures.append(f"{type(error).__name__}: {error}")
                continue
            counts["requests"] += 1
            if answer.status_code >= 400:
                failures.append(f"{answer.status_code} {answer.text[:200]}")


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def test_a_rolling_restart_through_nginx_fails_no_request(pg_url: str, tmp_path: Path) -> None:
    redis_or_skip()
    nginx_or_skip()
    env = {**os.environ, **shipped_settings(), "MINES_DB": pg_url}
    env["MINES_REDIS_PREFIX"] = f"mines-rolling-{tmp_path.name}"
    # The players all come from 127.0.0.1: the per-address rates are a real crowd's.
    env["MINES_RATE_LIMIT_ADDRESS"] = env["MINES_RATE_LIMIT_CREATE"] = "100000/second"
    ports = (free_port(), free_port())
    with ExitStack() as stack:
        processes = [
            stack.enter_context(server_process(pg_url, port=port, env=env)) for port in ports
        ]
        site = site_for_test(ports, free_port(), tmp_path / "cache")
        url = stack.enter_context(nginx(site, tmp_path))
        stop = threading.Event()
        counts = {"requests": 0}
        failures: list[str] = []
        players = [
            threading.Thread(target=play, args=(url, stop, counts, failures))
            for _ in range(PLAYERS)
        ]
        for player in players:
            player.start()
        try:
            time.sleep(2)
            for index, port in enumerate(ports):
                # What the shipped unit's ExecStop does, then its start.
                old = processes[index]
                old.process.send_signal(signal.SIGUSR1)
                old.process.wait(30)
                processes[index] = stack.enter_context(server_process(pg_url, port=port, env=env))
                deadline = time.monotonic() + 30
                while not ready(processes[index].url):
                    assert time.monotonic() < deadline
                    time.sleep(0.2)
            time.sleep(2)
        finally:
            stop.set()
            for player in players:
                player.join(60)
    print(f"rolling restart: {counts['requests']} requests, failed: {[f[:60] for f in failures]}")
    assert counts["requests"] > 100
    assert failures == []
