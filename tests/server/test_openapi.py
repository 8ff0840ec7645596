"""The OpenAPI schema: every game, meta, replay, practice and leaderboard operation lists the
answers any request may get (413 too big, 429 too often, 503 the server cannot take it)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Server

COMMON = {"413", "429", "503"}


def test_every_operation_lists_the_common_error_answers(server: Server) -> None:
    schema: dict[str, Any] = server.client.get("/openapi.json").json()
    checked = []
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/") or path.startswith("/api/races"):
            continue  # the race routes document their own answers
        for method, operation in operations.items():
            missing = COMMON - set(operation["responses"])
            assert not missing, f"{method.upper()} {path} does not list {sorted(missing)}"
            for code in COMMON:
                content = operation["responses"][code]["content"]["application/json"]
                assert content["schema"] == {"$ref": "#/components/schemas/ErrorOut"}
            checked.append(f"{method.upper()} {path}")
    assert {"POST /api/games", "GET /api/meta", "GET /api/leaderboard"} <= set(checked)
    assert "GET /api/games/{game_id}/summary" in checked
    assert "POST /api/games/{game_id}/hint" in checked
    assert "GET /api/games/{game_id}/review" in checked
