"""What the routes share, as FastAPI dependencies: the services, who asks, the view window."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import Depends
from fastapi.security import HTTPBearer
from prometheus_client import CollectorRegistry
from starlette.datastructures import QueryParams
from starlette.requests import HTTPConnection

from mines.server.api.readers import Readers
from mines.server.api.schemas import COORDINATE_LIMIT, ErrorOut
from mines.server.api.sessions import COOKIE, session_account
from mines.server.api.sockets import SocketCounts
from mines.server.common.auth import bearer_token
from mines.server.common.errors import InvalidRequestError
from mines.server.common.metrics import Network
from mines.server.db.storage import AccountRow
from mines.server.services.accounts import AccountService
from mines.server.services.fanout import RedisFanout
from mines.server.services.games import GameService
from mines.server.services.hub import Hub
from mines.server.services.present import Window
from mines.server.services.readiness import Readiness
from mines.server.services.reviews import ReviewService
from mines.server.services.rooms import RoomService
from mines.server.web.drain import Drain
from mines.server.web.ratelimit import RateLimiter

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


# The services `create_app` left in `app.state`, one dependency each: a route takes the alias
# (`games: Games`) as a parameter, this is the one module of the API that reads `app.state`,
# and a test swaps a service with `app.dependency_overrides`. They are `async`: FastAPI runs
# a plain `def` dependency in a thread, a hop that costs more than reading an attribute.


async def games_service(connection: HTTPConnection) -> GameService:
    return cast("GameService", connection.app.state.games)


async def live_hub(connection: HTTPConnection) -> Hub:
    return cast("Hub", connection.app.state.hub)


async def redis_fanout(connection: HTTPConnection) -> RedisFanout | None:
    return cast("RedisFanout | None", connection.app.state.fanout)


async def room_service(connection: HTTPConnection) -> RoomService:
    return cast("RoomService", connection.app.state.rooms)


async def review_service(connection: HTTPConnection) -> ReviewService:
    return cast("ReviewService", connection.app.state.reviews)


async def account_service(connection: HTTPConnection) -> AccountService:
    return cast("AccountService", connection.app.state.accounts)


async def rate_limiter(connection: HTTPConnection) -> RateLimiter:
    return cast("RateLimiter", connection.app.state.limiter)


async def socket_counts(connection: HTTPConnection) -> SocketCounts:
    return cast("SocketCounts", connection.app.state.sockets)


async def readiness_checks(connection: HTTPConnection) -> Readiness:
    return cast("Readiness", connection.app.state.readiness)


async def process_drain(connection: HTTPConnection) -> Drain:
    return cast("Drain", connection.app.state.drain)


async def metrics_registry(connection: HTTPConnection) -> CollectorRegistry:
    return cast("CollectorRegistry", connection.app.state.metrics)


async def metrics_allow(connection: HTTPConnection) -> tuple[Network, ...]:
    return cast("tuple[Network, ...]", connection.app.state.metrics_allow)


Games = Annotated[GameService, Depends(games_service)]
"""The game service: games, their views and moves, the leaderboards and the daily boards."""
LiveHub = Annotated[Hub, Depends(live_hub)]
"""This process's watchers of games and race rooms, by key."""
Fanout = Annotated[RedisFanout | None, Depends(redis_fanout)]
"""Live frames to other processes' watchers through Redis; None without `--redis`."""
Rooms = Annotated[RoomService, Depends(room_service)]
Reviews = Annotated[ReviewService, Depends(review_service)]
Accounts = Annotated[AccountService, Depends(account_service)]
Limiter = Annotated[RateLimiter, Depends(rate_limiter)]
"""The rate limits, for the counts a route keeps itself (sign-ins by name)."""
Sockets = Annotated[SocketCounts, Depends(socket_counts)]
"""The live sockets held, per address and in all: every socket asks it for room."""
Checks = Annotated[Readiness, Depends(readiness_checks)]
"""The checks of `/readyz`."""
Draining = Annotated[Drain, Depends(process_drain)]
Metrics = Annotated[CollectorRegistry, Depends(metrics_registry)]
MetricsAllow = Annotated[tuple[Network, ...], Depends(metrics_allow)]
"""The networks `/metrics` answers (none when the metrics are off)."""


# Who is asking: the session cookie and the account it signs in.


async def session_token(connection: HTTPConnection) -> str | None:
    return connection.cookies.get(COOKIE) or None


SessionToken = Annotated[str | None, Depends(session_token)]
"""The request's session cookie (None without one): the account routes pass it on."""


async def signed_in_account(accounts: Accounts, session: SessionToken) -> AccountRow | None:
    return await session_account(accounts, session)


CurrentAccount = Annotated[AccountRow | None, Depends(signed_in_account)]
"""The account the session cookie signs in, or None: the request is then anonymous."""


async def game_readers(games: Games, accounts: Accounts, session: SessionToken) -> Readers:
    return Readers(games, accounts, session)


GameReaders = Annotated[Readers, Depends(game_readers)]
"""Who may read a game by its ID (`await readers.check(game_id, token)`)."""


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
