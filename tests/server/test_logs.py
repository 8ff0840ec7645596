"""The access log and request IDs: one JSON line per request from a real `mines serve`, IDs
taken only from a trusted proxy, forwarded addresses likewise, and an unexpected error logged
once with its ID while the client sees only the ID."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mines.server.common.logs import (
    ACCESS,
    REQUEST_ID,
    JsonFormatter,
    TextFormatter,
    access_line,
    configure,
)
from mines.server.common.settings import RateLimits
from tests.server.conftest import FakeClock, Server
from tests.server.processes import get, post, server_process

PROXY = ("10.0.0.5", 4000)


def test_a_real_server_writes_one_json_access_line_per_request(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server_process(database, extra=["--log-format", "json"]) as server:
        answers = [
            get(f"{server.url}/api/meta"),
            post(f"{server.url}/api/games", json={"preset": "beginner"}),
            get(f"{server.url}/api/games/nope"),
        ]
        server.process.terminate()
        server.process.wait()
        lines = server.log().splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    access = [r for r in records if r["logger"] == "mines.access"]
    wanted = [("GET", "/api/meta", 200), ("POST", "/api/games", 201)]
    wanted.append(("GET", "/api/games/{game_id}", 404))
    # The readiness poll of server_process came first (/openapi.json); then ours, in order.
    ours = [(r["method"], r["route"], r["status"]) for r in access[-3:]]
    assert ours == wanted
    for record, answer in zip(access[-3:], answers, strict=True):
        assert record["request_id"] == answer.headers["x-request-id"]
        assert record["client"] == "127.0.0.1"
        assert record["duration_ms"] >= 0
        assert record["level"] == "INFO"
        assert record["time"].endswith("Z")
    assert access[-1]["path"] == "/api/games/nope"


def test_a_request_id_is_taken_only_from_a_trusted_proxy(sqlite_url: str, clock: FakeClock) -> None:
    server = Server(sqlite_url, clock, forwarded_allow_ips=("10.0.0.0/8",))
    try:
        app = server.client.app
        proxied = TestClient(app, client=PROXY).get(
            "/healthz", headers={"X-Request-ID": "nginx-42"}
        )
        assert proxied.headers["x-request-id"] == "nginx-42"
        stranger = TestClient(app, client=("192.0.2.9", 1))
        forged = stranger.get("/healthz", headers={"X-Request-ID": "nginx-42"})
        assert forged.headers["x-request-id"] != "nginx-42"
        assert len(forged.headers["x-request-id"]) == 32
        odd = TestClient(app, client=PROXY).get("/healthz", headers={"X-Request-ID": "a b\tc"})
        assert odd.headers["x-request-id"] != "a b\tc"  # not plain: a new one
    finally:
        server.close()


def test_forwarded_addresses_count_only_from_a_trusted_proxy(
    sqlite_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    server = Server(
        sqlite_url, clock, rates=RateLimits(create="1/minute"), forwarded_allow_ips=("10.0.0.5",)
    )
    body = {"preset": "beginner"}
    try:
        proxy = TestClient(server.client.app, client=PROXY)
        with caplog.at_level(logging.INFO, logger="mines.access"):
            for address in ("198.51.100.1", "198.51.100.2"):  # two clients behind the proxy
                answer = proxy.post("/api/games", json=body, headers={"X-Forwarded-For": address})
                assert answer.status_code == 201
        clients = [getattr(r, "client", None) for r in caplog.records if r.name == "mines.access"]
        assert clients == ["198.51.100.1", "198.51.100.2"]
        # From anyone else the header is ignored: one address, one creation a minute.
        stranger = TestClient(server.client.app, client=("192.0.2.9", 1))
        for address, status in (("198.51.100.3", 201), ("198.51.100.4", 429)):
            answer = stranger.post("/api/games", json=body, headers={"X-Forwarded-For": address})
            assert answer.status_code == status
    finally:
        server.close()


def test_an_unexpected_error_is_logged_once_and_the_client_sees_only_its_id(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals: password=hunter2")

    monkeypatch.setattr(server.service, "leaderboard", broken)
    with caplog.at_level(logging.INFO):
        answer = server.client.get("/api/leaderboard?preset=beginner")
    assert answer.status_code == 500
    rid = answer.headers["x-request-id"]
    assert answer.json()["code"] == "internal_error"
    assert answer.json()["request_id"] == rid
    assert rid in answer.json()["detail"]
    assert "hunter2" not in answer.text
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1
    assert tracebacks[0].request_id == rid  # type: ignore[attr-defined]
    assert "hunter2" in JsonFormatter().format(tracebacks[0])
    access = [r for r in caplog.records if r.name == "mines.access"]
    assert [(getattr(r, "status", None), getattr(r, "request_id", None)) for r in access] == [
        (500, rid)
    ]


def test_the_formats_and_the_level(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, ACCESS.disabled)
    try:
        configure("info", "json")
        ACCESS.info("hello", extra={"status": 200, "route": "/x"})
        line = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
        assert line["message"] == "hello"
        assert line["status"] == 200
        assert "request_id" not in line  # outside a request
        access_line("GET", "/a\nb", "/a", 404, 0.0012, "192.0.2.1")  # the configured writer
        line = json.loads(capsys.readouterr().err.strip())
        assert line["message"] == "GET /a\\nb 404 1.2 ms 192.0.2.1"  # the path escaped
        assert (line["logger"], line["path"], line["route"]) == ("mines.access", "/a\nb", "/a")
        assert (line["status"], line["duration_ms"], line["client"]) == (404, 1.2, "192.0.2.1")
        assert line["time"].endswith("Z")
        configure("info", "text")
        token = REQUEST_ID.set("r2")
        access_line("POST", "/b", "/b", 200, 0.5, "192.0.2.2")
        REQUEST_ID.reset(token)
        text = capsys.readouterr().err
        assert re.fullmatch(
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO mines.access \[r2\] "
            r"POST /b 200 500.0 ms 192.0.2.2\n",
            text,
        ), text
        configure("warning", "text")
        ACCESS.info("not shown")
        access_line("GET", "/c", "/c", 200, 0.1, "192.0.2.3")
        logging.getLogger("mines.server").warning("shown")
        err = capsys.readouterr().err
        assert "not shown" not in err
        assert "192.0.2.3" not in err
        assert " WARNING mines.server [-] shown" in err
        configure("info", "text", access=False)
        ACCESS.info("not shown either")
        assert "not shown either" not in capsys.readouterr().err
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
        ACCESS.disabled = saved[2]
    record = logging.LogRecord("mines.access", logging.INFO, __file__, 1, "m", None, None)
    record.request_id = "r1"
    assert "[r1] m" in TextFormatter().format(record)
