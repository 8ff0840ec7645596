"""`server_process`: `mines serve` as a child process on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

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
    stderr: IO[bytes]
    """The server's log, in a file: a pipe nobody reads would fill and stop the server."""

    def log(self) -> str:
        """Everything the server wrote to stderr so far."""
        self.stderr.seek(0)
        return self.stderr.read().decode()


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
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + PATIENCE
            while True:
                if process.poll() is not None:
                    log.seek(0)
                    error = log.read().decode()
                    raise RuntimeError(f"mines serve exited with {process.returncode}: {error}")
                try:
                    httpx.get(f"{url}/openapi.json", timeout=1.0)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"mines serve did not answer on {url}") from None
                    time.sleep(0.1)
            yield ServerProcess(process, url, log)
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
