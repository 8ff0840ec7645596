"""What the routes share: the game service and hub of the app, and the optional view window."""

from __future__ import annotations

from typing import Any

from starlette.datastructures import QueryParams
from starlette.requests import HTTPConnection

from mines.server.errors import InvalidRequestError
from mines.server.games import GameService
from mines.server.hub import Hub
from mines.server.present import Window
from mines.server.schemas import COORDINATE_LIMIT

WINDOW_FIELDS = {
    "top": (0, "first row shown"),
    "left": (0, "first column shown"),
    "height": (1, "how many rows are shown"),
    "width": (1, "how many columns are shown"),
}

WINDOW_PARAMETERS: dict[str, Any] = {
    "parameters": [
        {
            "name": name,
            "in": "query",
            "required": False,
            "description": f"{text}; leave the window out for the whole board",
            "schema": {"type": "integer", "minimum": low, "maximum": COORDINATE_LIMIT},
        }
        for name, (low, text) in WINDOW_FIELDS.items()
    ]
}
"""The window's query parameters in the OpenAPI schema (`openapi_extra` of each route)."""


def service(connection: HTTPConnection) -> GameService:
    game_service: GameService = connection.app.state.service
    return game_service


def hub(connection: HTTPConnection) -> Hub:
    game_hub: Hub = connection.app.state.hub
    return game_hub


def window(query: QueryParams) -> Window:
    """The window a request's query asks for (`?top=&left=&height=&width=`), checked here
    rather than as FastAPI parameters: resolving those costs more than a move itself."""
    values: dict[str, int | None] = {}
    for name, (low, _) in WINDOW_FIELDS.items():
        text = query.get(name)
        if text is None:
            values[name] = None
            continue
        try:
            value = int(text)
        except ValueError:
            raise InvalidRequestError(f"query.{name} must be an integer, got {text!r}") from None
        if not low <= value <= COORDINATE_LIMIT:
            raise InvalidRequestError(
                f"query.{name} must be from {low} to {COORDINATE_LIMIT}, got {value}"
            )
        values[name] = value
    return Window(**values)
