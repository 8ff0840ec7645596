"""`create_app`'s steps: every service the routes' dependencies read is one the app keeps."""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields

from mines.server import app as app_module
from mines.server.api import deps
from tests.server.conftest import Server


def state_reads(source: str) -> set[str]:
    """The names read as `<anything>.app.state.NAME` in `source`."""
    return {
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "state"
        and isinstance(node.value.value, ast.Attribute)
        and node.value.value.attr == "app"
    }


def test_each_dependency_reads_a_service_the_app_keeps(server: Server) -> None:
    kept = {field.name for field in fields(app_module.Services)}
    read = state_reads(inspect.getsource(deps))
    assert {"games", "rooms", "reviews", "accounts", "hub", "fanout"} <= read
    assert read - kept == set()  # a dependency of a service no step builds
    for name in kept:
        assert hasattr(server.app.state, name), name
    assert server.app.state.games is server.service
    assert server.app.state.accounts is server.accounts


def test_a_dependency_of_a_missing_service_is_caught() -> None:
    assert state_reads("found = connection.app.state.leagues\nx = request.state.y\n") == {"leagues"}
