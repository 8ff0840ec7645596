"""The OpenAPI schema: every game, meta, replay, practice and leaderboard operation lists the
answers any request may get (413 too big, 429 too often, 503 the server cannot take it)."""

from __future__ import annotations

import re
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


def test_the_schema_has_the_package_version(server: Server) -> None:
    import mines

    assert server.client.get("/openapi.json").json()["info"]["version"] == mines.__version__


def test_docs_are_served_here_with_no_inline_script(server: Server) -> None:
    page = server.client.get("/docs")
    assert page.status_code == 200
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.S)
    assert scripts
    for attributes, body in scripts:
        assert body.strip() == ""  # the CSP allows script files of this server only
        source = re.search(r'src="([^"]+)"', attributes)
        assert source is not None
        assert source[1].startswith("/")
        assert server.client.get(source[1]).status_code == 200
    sheet = re.search(r'href="(/docs/[^"]+\.css)"', page.text)
    assert sheet is not None
    assert server.client.get(sheet[1]).headers["content-type"].startswith("text/css")
    assert server.client.get("/redoc").status_code == 404  # FastAPI's CDN page is gone
