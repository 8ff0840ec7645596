"""`server_process`: `mines serve` as a child process on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from tests.patience import PATIENCE


def patient_client() -> httpx.Client:
    """An HTTP client that waits for a busy server as long as `PATIENCE`."""
    return httpx.Client(timeout=PATIENCE)


def get(url: str, **options: Any) -> httpx.Response:
    return httpx.get(url, timeout=PATIENCE, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return httpx.post(url, timeout=PATIENCE, **options)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    process: subprocess.Popen[bytes]
    url: str


@contextmanager
def server_process(
    database: str,
    *,
    nice: int = 0,
    extra: Sequence[str] = (),
    port: int | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """Start `mines serve` on `database` (on `port`, else a free one; in `env`, else this
    process's environment); stop it (if the test has not killed it) on exit."""
    port = port or free_port()
    command = [sys.executable, "-m", "mines.cli.main", "serve", "--port", str(port)]
    command += ["--db", database, *extra]
    if nice:
        command = ["nice", "-n", str(nice), *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            if process.poll() is not None:
                error = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"mines serve exited with {process.returncode}: {error}")
            try:
                httpx.get(f"{url}/openapi.json", timeout=1.0)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"mines serve did not answer on {url}") from None
                time.sleep(0.1)
        yield ServerProcess(process, url)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stderr:
            process.stderr.close()
