"""Slow clients against a real `mines serve`: headers and bodies that trickle are cut off at
their deadlines, an idle connection at the keep-alive timeout, and SIGTERM ends the process
even while a client holds half a body."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.patience import PATIENCE
from tests.server.processes import ServerProcess, get, server_process

SHORT = "0.5"
"""Seconds of each deadline the tests set: short, so that the tests are."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerProcess]:
    options = ["--header-timeout", SHORT, "--body-timeout", SHORT]
    options += ["--keep-alive-timeout", SHORT]
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", extra=options) as server:
        yield server


def connect(server: ServerProcess) -> socket.socket:
    parts = urlsplit(server.url)
    client = socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80))
    client.settimeout(PATIENCE)  # a hang guard: the server must close it long before
    return client


def closed_by_server(client: socket.socket, trickle: bytes = b"") -> bytes:
    """Everything the server sends until it closes the connection; with `trickle`, one byte
    of it is sent every 0.1 s meanwhile (a slow client that never stops sending)."""
    received = b""
    deadline = time.monotonic() + PATIENCE
    client.settimeout(0.1 if trickle else PATIENCE)
    position = 0
    while time.monotonic() < deadline:
        try:
            chunk = client.recv(65536)
        except TimeoutError:
            try:
                client.sendall(trickle[position % len(trickle) : position % len(trickle) + 1])
            except OSError:
                return received  # closed under the write
            position += 1
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    raise AssertionError("the server kept the slow connection open")


def test_headers_that_trickle_are_cut_off(served: ServerProcess) -> None:
    with connect(served) as client:
        client.sendall(b"GET /api/meta HTTP/1.1\r\nHost: mines\r\n")
        # A header line a byte every 0.1 s: every byte would restart an idle timeout.
        assert closed_by_server(client, trickle=b"X-Slow: aaaaaaaaaaaaaaaa\r\n") == b""
    assert get(f"{served.url}/api/meta").status_code == 200  # others are served meanwhile


def test_a_body_that_never_ends_is_cut_off(served: ServerProcess) -> None:
    with connect(served) as client:
        client.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: mines\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n" + b'{"preset":'
        )
        assert closed_by_server(client, trickle=b" ") == b""


def test_an_idle_connection_is_closed_at_the_keep_alive_timeout(served: ServerProcess) -> None:
    with connect(served) as client:
        client.sendall(b"GET /api/meta HTTP/1.1\r\nHost: mines\r\n\r\n")
        answer = closed_by_server(client)
    assert answer.startswith(b"HTTP/1.1 200")


def test_sigterm_ends_the_process_while_a_client_holds_half_a_body(tmp_path: Path) -> None:
    options = ["--body-timeout", "3600", "--shutdown-timeout", SHORT]
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(database, extra=options) as server, connect(server) as client:
        client.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: mines\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n"
        )
        # The app asked for the body: the request is under way, not waiting to start.
        assert client.recv(100).startswith(b"HTTP/1.1 100")
        client.sendall(b'{"preset":')
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            pytest.fail("the server did not exit while a client held half a body")
        assert "graceful shutdown exceeded" in server.log()
