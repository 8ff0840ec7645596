"""A rolling restart with players playing: each process drained (SIGUSR1, as the shipped unit's
stop does) and started again on its port in turn, while players create games and flag cells
through the proxy; every request that failed is counted (test_rolling_restart.py, and
`./dev bench cluster`)."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field

import httpx

from tests.server.processes import ServerProcess, server_process

READY_SECONDS = 60.0


@dataclass
class Rolled:
    requests: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def play(url: str, stop: threading.Event, rolled: Rolled, lock: threading.Lock) -> None:
    """Create games and flag cells of their top row until `stop`, counting every answer."""
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
                failed = f"{answer.status_code} {answer.text[:200]}" if answer.is_error else None
            except httpx.TransportError as error:
                failed = f"{type(error).__name__}: {error}"
            with lock:
                rolled.requests += 1
                if failed:
                    rolled.failures.append(failed)


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def rolling_restart(
    proxy: str,
    processes: list[ServerProcess],
    database: str,
    env: dict[str, str],
    stack: ExitStack,
    *,
    players: int = 6,
    extra: list[str] | None = None,
) -> Rolled:
    """Drain and start again each of `processes` in turn (replaced in the list, the new ones
    entered in `stack`) with `players` playing through `proxy`; what they saw."""
    rolled = Rolled()
    lock = threading.Lock()
    stop = threading.Event()
    threads = [
        threading.Thread(target=play, args=(proxy, stop, rolled, lock)) for _ in range(players)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        time.sleep(2)
        for index, old in enumerate(processes):
            port = int(old.url.rsplit(":", 1)[1])
            old.process.send_signal(signal.SIGUSR1)  # what the unit's ExecStop does
            old.process.wait(30)
            new = server_process(database, port=port, env=env, extra=extra or [])
            processes[index] = stack.enter_context(new)
            deadline = time.monotonic() + READY_SECONDS
            while not ready(processes[index].url):  # what the documented loop waits for
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{processes[index].url} was not ready in time")
                time.sleep(0.2)
        time.sleep(2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    rolled.seconds = time.monotonic() - started
    return rolled
