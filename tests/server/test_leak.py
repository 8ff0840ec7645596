"""No answer, error or WebSocket message shows a hidden mine before its game is over."""

from __future__ import annotations

import random
from typing import Any

from mines.server.services.games import LiveGame
from tests.server.conftest import Server

ALLOWED_IN_PLAY = set("HF012345678")
KINDS = ("reveal", "reveal", "reveal", "flag", "chord")


def mines_of(server: Server, game_id: str) -> set[tuple[int, int]]:
    """The layout, read from the server's own memory (the test may look; clients may not)."""
    live = server.service._cache.get(game_id)
    assert isinstance(live, LiveGame)
    layout = live.game.record().layout or ()
    return {(r, c) for r, c in layout}


def check_payload(payload: dict[str, Any], mines: set[tuple[int, int]]) -> None:
    """A payload of a game in progress: only player-visible symbols, no layout anywhere."""
    text = repr(payload)
    assert "layout" not in text
    view = payload.get("view")
    if view is not None:
        assert view["status"] == "IN_PROGRESS"
        for r, line in enumerate(view["cells"], start=view["top"]):
            assert set(line) <= ALLOWED_IN_PLAY
            for c, symbol in enumerate(line, start=view["left"]):
                if (r, c) in mines:
                    assert symbol in "HF"
    for row, col, symbol in payload.get("changed", []):
        assert symbol in ALLOWED_IN_PLAY
        if (row, col) in mines:
            assert symbol in "HF"
    if set(payload) == {"detail"}:
        assert isinstance(payload["detail"], str)


def test_no_payload_leaks_a_mine_before_the_end(server: Server) -> None:
    rng = random.Random(20261129)
    payloads = 0
    for number in range(60):
        rows, cols = rng.randint(2, 12), rng.randint(2, 12)
        mines_count = rng.randint(1, rows * cols // 3 + 1)
        rule = rng.choice(["opening", "safe", "any"])
        game = server.create(rows=rows, cols=cols, mines=mines_count, first_click=rule)
        check_payload(game, set())
        mines: set[tuple[int, int]] = set()
        pushed = 0
        with server.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
            check_payload(socket.receive_json(), mines)
            for _ in range(rng.randint(5, 60)):
                kind = rng.choice(KINDS)
                row, col = rng.randint(-1, rows), rng.randint(0, cols - 1)
                if number % 7 == 0 and rng.random() < 0.2:
                    answer = server.client.post(
                        f"/api/games/{game['id']}/{kind}",
                        json={"row": row, "col": col},
                        headers={"Authorization": "Bearer wrong"},
                    )
                else:
                    answer = server.move(game, kind, row, col)
                body = answer.json()
                payloads += 1
                mines = mines or mines_of(server, game["id"])
                if answer.status_code == 200 and body["view"]["status"] != "IN_PROGRESS":
                    pushed += 1
                    break
                check_payload(body, mines)
                if answer.status_code == 200 and body["changed"]:
                    pushed += 1
                for extra in (
                    server.client.get(f"/api/games/{game['id']}"),
                    server.client.get(f"/api/games/{game['id']}/record"),
                    server.client.get(f"/api/games/{game['id']}/review"),
                ):
                    check_payload(extra.json(), mines)
                    payloads += 1
            for _ in range(pushed):
                message = socket.receive_json()
                payloads += 1
                if message["status"] == "IN_PROGRESS":
                    check_payload(message, mines)
    assert payloads > 2000
