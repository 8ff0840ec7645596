"""ASGI middleware that measures every HTTP request once: its route, status and duration."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mines.server.metrics import DURATION, REQUESTS, UNMATCHED, method_label


def route_template(scope: Scope) -> str:
    """The template of the route that took the request (`/api/games/{game_id}/reveal`).

    A request answered before routing (a 429, a 413) is matched here, after its answer; one
    no route takes is `UNMATCHED`.
    """
    route: Any = scope.get("route")
    if route is None:
        partial = None
        for candidate in flat_routes(getattr(scope.get("app"), "routes", ())):
            # As the router does: the first full match, else the first partial (a 405).
            match, _ = candidate.matches(scope)
            if match is Match.FULL:
                route = candidate
                break
            if match is Match.PARTIAL and partial is None:
                partial = candidate
        route = route or partial
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


def flat_routes(routes: Iterable[Any]) -> Iterator[Any]:
    """The routes of an app, those of its included routers in their place: FastAPI keeps an
    included router as one entry whose own match says nothing of the route inside."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is None:
            yield route
        else:
            yield from flat_routes(inner.routes)


class Observe:
    """Counts each HTTP request by route template, method and status, and times it."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # what the client gets when the app fails before it answers

        async def note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, note_status)
        finally:
            elapsed = time.perf_counter() - start
            route = route_template(scope)
            REQUESTS.labels(route, method_label(scope["method"]), str(status)).inc()
            DURATION.labels(route).observe(elapsed)
