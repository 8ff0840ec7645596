"""The server's input guards: error codes, body cap, ID echo, strict queries, token first,
WebSocket frames and caps, security headers and the favicon."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from mines.server.api.sockets import (
    CLOSE_FULL,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    CLOSE_UNSUPPORTED_DATA,
    MESSAGE_LIMIT,
)
from mines.server.web.handlers import CODES, HTTP_CODES
from mines.server.web.middleware import CONTENT_SECURITY_POLICY, BodyLimit
from tests.server.conftest import FakeClock, Server

DOCS = Path(__file__).parents[2] / "docs" / "server.md"


def test_every_error_code_is_in_the_docs_table_with_its_status() -> None:
    table = {
        (match[1], int(match[2]))
        for match in re.finditer(r"^\| `([a-z_]+)` \| (\d{3}) \|", DOCS.read_text(), re.M)
    }
    codes = {(code, status) for _, status, code in CODES}
    codes |= {(code, status) for status, code in HTTP_CODES.items()}
    codes |= {("validation_error", 422), ("internal_error", 500)}
    assert codes <= table, codes - table


def test_errors_carry_a_code_and_a_detail(server: Server) -> None:
    game = server.create()
    unknown = server.client.get("/api/games/0123456789abcdef")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "game_not_found"
    server.move(game, "flag", 0, 0)
    flagged = server.move(game, "reveal", 0, 0)
    assert (flagged.status_code, flagged.json()["code"]) == (409, "cell_flagged")
    record = server.client.get(f"/api/games/{game['id']}/record")
    assert (record.status_code, record.json()["code"]) == (409, "game_in_progress")
    assert server.client.get("/nowhere").json()["code"] == "not_found"


def test_a_move_after_the_end_is_game_over(server: Server) -> None:
    game = server.create(preset="beginner", seed=3, first_click="any")
    for r in range(9):
        for c in range(9):
            if server.move(game, "reveal", r, c).json()["view"]["status"] != "IN_PROGRESS":
                answer = server.move(game, "flag", 0, 0)
                assert (answer.status_code, answer.json()["code"]) == (409, "game_over")
                return
    pytest.fail("the game did not end")


def test_validation_errors_are_capped_and_counted(server: Server) -> None:
    body = {f"key{i}": i for i in range(40)}
    answer = server.client.post("/api/games", json=body)
    assert answer.status_code == 422
    payload = answer.json()
    assert payload["code"] == "validation_error"
    assert len(payload["errors"]) == 5
    assert payload["error_count"] == 40
    assert {"field", "problem"} == set(payload["errors"][0])
    assert "and 35 more" in payload["detail"]


def test_malformed_json_is_a_validation_error(server: Server) -> None:
    answer = server.client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "validation_error")
    assert answer.json()["error_count"] == 1


def test_a_body_over_the_cap_is_413_before_it_is_parsed(server: Server) -> None:
    limit = server.settings.body_limit
    big = b'{"preset": "beginner", "x": "' + b"a" * limit + b'"}'
    answer = server.client.post(
        "/api/games", content=big, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    assert answer.json()["code"] == "body_too_large"
    assert f"{limit:,} bytes" in answer.json()["detail"]


def test_a_chunked_body_over_the_cap_is_413(server: Server) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"preset": "beginner", "x": "'
        for _ in range(10):
            yield b"a" * 4096
        yield b'"}'

    answer = server.client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    small = server.client.post(
        "/api/games",
        content=iter([b'{"preset": ', b'"beginner"}']),
        headers={"Content-Type": "application/json"},
    )
    assert small.status_code == 201


async def test_a_declared_length_over_the_cap_is_refused_without_reading() -> None:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("the app must not run")

    async def receive() -> Message:
        raise AssertionError("the body must not be read")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "headers": [(b"content-length", b"999999")],
    }
    await BodyLimit(app, limit=100)(scope, receive, send)
    assert sent[0]["status"] == 413


def test_a_long_id_is_not_echoed(server: Server) -> None:
    long_id = "a" * 60_000
    answer = server.client.get(f"/api/games/{long_id}")
    assert answer.status_code == 404
    assert len(answer.text) < 200
    assert "aaaaaaaaaaaaaaaa…" in answer.json()["detail"]


@pytest.mark.parametrize("value", ["%D9%A3", "1_0", "+3", "%203", "3.0", "0x3", "1" * 40])
def test_query_numbers_are_ascii_digits_only(server: Server, value: str) -> None:
    game = server.create()
    window = server.client.get(f"/api/games/{game['id']}?top={value}")
    assert (window.status_code, window.json()["code"]) == (422, "invalid_request")
    assert "digits 0-9" in window.json()["detail"]
    assert len(window.json()["detail"]) < 200
    board = server.client.get(f"/api/leaderboard?limit={value}")
    assert board.status_code == 422
    assert "query.limit" in board.json()["detail"]


def test_plain_query_numbers_still_work(server: Server) -> None:
    game = server.create()
    assert server.client.get(f"/api/games/{game['id']}?top=3&height=2").status_code == 200
    assert server.client.get("/api/leaderboard?limit=3").status_code == 200


def test_the_token_is_checked_before_the_body(server: Server) -> None:
    game = server.create()
    other = server.create()
    url = f"/api/games/{game['id']}/reveal"
    bad = {"row": "x", "colour": 1}
    missing = server.client.post(url, json=bad)
    assert (missing.status_code, missing.json()["code"]) == (401, "not_authenticated")
    wrong = server.client.post(url, json=bad, headers={"Authorization": f"Bearer {other['token']}"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "forbidden")
    unknown = server.client.post(
        "/api/games/0000000000000000/reveal", json=bad, headers={"Authorization": "Bearer x"}
    )
    assert unknown.status_code == 404
    right = server.client.post(url, json=bad, headers={"Authorization": f"Bearer {game['token']}"})
    assert (right.status_code, right.json()["code"]) == (422, "validation_error")
    assert {e["field"] for e in right.json()["errors"]} >= {"body.row", "body.colour"}
    window = server.client.post(
        f"{url}?top=x", json={"row": 0, "col": 0}, headers={"Authorization": "Bearer nope"}
    )
    assert window.status_code == 403


def test_a_binary_websocket_frame_closes_the_socket_cleanly(server: Server) -> None:
    game = server.create()
    with server.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_bytes(b"\x00\x01")
        server.move(game, "flag", 0, 0)  # an open socket would get this move
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == CLOSE_UNSUPPORTED_DATA


def test_an_oversized_websocket_message_closes_the_socket(server: Server) -> None:
    game = server.create()
    with server.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_text("ping")  # a short text is ignored
        server.move(game, "flag", 0, 0)
        assert socket.receive_json()["type"] == "move"
        socket.send_text("x" * (MESSAGE_LIMIT + 1))
        server.move(game, "flag", 0, 0)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == CLOSE_TOO_BIG


def test_one_address_holds_only_so_many_websockets(sqlite_url: str, clock: FakeClock) -> None:
    capped = Server(sqlite_url, clock, sockets_per_address=2)
    try:
        game = capped.create()
        url = f"/api/games/{game['id']}/live"
        with (
            capped.client.websocket_connect(url) as one,
            capped.client.websocket_connect(url) as two,
        ):
            one.receive_json()
            two.receive_json()
            with (
                capped.client.websocket_connect(url) as three,
                pytest.raises(WebSocketDisconnect) as closed,
            ):
                three.receive_json()  # an admitted socket would get the view
            assert closed.value.code == CLOSE_TOO_MANY
        # Closed sockets free their places.
        with capped.client.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "view"
    finally:
        capped.close()


def test_the_process_holds_only_so_many_websockets_from_every_address(
    sqlite_url: str, clock: FakeClock
) -> None:
    capped = Server(sqlite_url, clock, sockets=2)
    try:
        game = capped.create()
        url = f"/api/games/{game['id']}/live"
        other = TestClient(capped.client.app, client=("10.0.0.2", 40000))
        with (
            capped.client.websocket_connect(url) as one,
            other.websocket_connect(url) as two,
        ):
            one.receive_json()
            two.receive_json()
            third = TestClient(capped.client.app, client=("10.0.0.3", 40000))
            with (
                third.websocket_connect(url) as three,
                pytest.raises(WebSocketDisconnect) as closed,
            ):
                three.receive_json()  # a new address, but the process is full
            assert closed.value.code == CLOSE_FULL
        with capped.client.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "view"
    finally:
        capped.close()


def test_a_websocket_with_a_bad_window_is_closed_with_4422(server: Server) -> None:
    game = server.create()
    url = f"/api/games/{game['id']}/live?top=1_0"
    with (
        server.client.websocket_connect(url) as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 4422


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/games/nope", "/openapi.json"])
def test_every_answer_carries_the_security_headers(server: Server, path: str) -> None:
    headers = server.client.get(path).headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "'unsafe-inline'" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_413_answer_carries_the_security_headers_too(server: Server) -> None:
    answer = server.client.post(
        "/api/games",
        content=b"x" * (server.settings.body_limit + 1),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_favicon_is_an_icon(server: Server) -> None:
    answer = server.client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/x-icon"
    assert answer.content[:4] == b"\x00\x00\x01\x00"
    assert answer.content[22:30] == b"\x89PNG\r\n\x1a\n"


async def answer_without_reading_the_body(
    app: Any, method: str, path: str, headers: dict[str, str]
) -> tuple[int, dict[str, Any]]:
    """The status and JSON body the whole app answers while the request's body never comes:
    reading it fails the test (a client holding its body back would hold the request)."""

    async def receive() -> Message:
        raise AssertionError("the body was read")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("10.0.0.7", 40000),
        "server": ("mines", 80),
        "state": {},
    }
    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


async def test_moves_refused_for_their_token_or_type_are_answered_before_the_body(
    server: Server,
) -> None:
    game = server.create()
    app = server.client.app
    json_body = {"Content-Type": "application/json", "Content-Length": "16000"}
    cases = [
        (f"/api/games/{game['id']}/flag", json_body, 401),
        (f"/api/games/{game['id']}/flag", {**json_body, "Authorization": "Bearer nope"}, 403),
        ("/api/games/0123456789abcdef/reveal", {**json_body, "Authorization": "Bearer x"}, 404),
        ("/api/races/someroom/flag", json_body, 401),
        (
            f"/api/games/{game['id']}/flag",
            {
                "Content-Type": "text/plain",
                "Content-Length": "16000",
                "Authorization": f"Bearer {game['token']}",
            },
            415,
        ),
        (
            "/api/games",
            {"Content-Type": "application/x-www-form-urlencoded", "Content-Length": "9"},
            415,
        ),
    ]
    for path, headers, status in cases:
        answered, body = await answer_without_reading_the_body(app, "POST", path, headers)
        assert (answered, set(body)) == (status, {"code", "detail"}), path
    assert body["code"] == "unsupported_media_type"
    _, race = await answer_without_reading_the_body(app, "POST", "/api/races/r/flag", json_body)
    assert "player token" in race["detail"]  # the room's words, as the room itself says them


def test_a_body_that_is_not_json_is_415_and_applies_nothing(server: Server) -> None:
    game = server.create()
    plain = server.client.post(
        f"/api/games/{game['id']}/flag",
        content=b'{"row": 0, "col": 0}',
        headers={"Content-Type": "text/plain", "Authorization": f"Bearer {game['token']}"},
    )
    assert plain.status_code == 415
    assert plain.json()["code"] == "unsupported_media_type"
    assert server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"][0][0] == "H"
    for path, body in (("/api/games", {"preset": "beginner"}), ("/api/races", {"player": "a"})):
        form = server.client.post(path, data=body)  # a form, as another site's page may send
        assert form.status_code == 415, path
    typed = server.client.post(
        "/api/games",
        content=b'{"preset": "beginner"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert typed.status_code == 201


def test_head_is_answered_wherever_get_is(server: Server) -> None:
    game = server.create()
    for path in ("/", "/api/meta", f"/api/games/{game['id']}", "/favicon.ico", "/race"):
        got, head = server.client.get(path), server.client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-length"] == got.headers["content-length"], path
        assert head.headers["content-type"] == got.headers["content-type"]
    refused = server.client.head(f"/api/games/{game['id']}/flag")  # a POST-only route
    assert refused.status_code == 405
    assert "POST" in refused.headers["allow"]
