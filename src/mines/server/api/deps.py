"""What the routes share: the game service and hub of the app, and the optional view window."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from fastapi.security import HTTPBearer
from starlette.datastructures import QueryParams
from starlette.requests import HTTPConnection

from mines.server.api.schemas import COORDINATE_LIMIT, ErrorOut
from mines.server.common.auth import bearer_token
from mines.server.common.errors import InvalidRequestError
from mines.server.services.games import GameService
from mines.server.services.hub import Hub
from mines.server.services.present import Window

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


_bearer = HTTPBearer(
    auto_error=False,
    description="the token returned when the game (or the race seat) was made: moves need it, "
    "and a daily game is read only with it (or by its account) until its day is over",
)


async def _token(
    connection: HTTPConnection, _: Annotated[object, Depends(_bearer)] = None
) -> str | None:
    # `_bearer` documents the scheme in OpenAPI; the header is read by the one reader.
    return bearer_token(connection.headers.get("authorization"))


Token = Annotated[str | None, Depends(_token)]
"""A route's bearer token (None without one): the one dependency every route reads it by."""

COMMON_ERRORS = (413, 429, 503)
"""Any request may be too big, come too often or find the server unable to take it."""


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents in the OpenAPI schema, with the shared ones."""
    return {code: {"model": ErrorOut} for code in sorted({*codes, *COMMON_ERRORS})}


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
        values[name] = query_int(name, text, low, COORDINATE_LIMIT)
    return Window(**values)


def query_int(name: str, text: str, low: int, high: int) -> int:
    """A query value as a whole number from `low` to `high`, written in ASCII digits only.

    Python's `int()` also reads `1_0`, ` 3`, `+3` and other scripts' digits (`٣`); a query
    value is a plain decimal number or it is refused.
    """
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        shown = text if len(text) <= 12 else f"{text[:12]}…"
        raise InvalidRequestError(
            f"query.{name} must be a whole number from {low} to {high} in digits 0-9, got {shown!r}"
        )
    value = int(text)
    if not low <= value <= high:
        raise InvalidRequestError(f"query.{name} must be from {low} to {high}, got {value}")
    return value
