"""ASGI middleware that observes every HTTP request once: its ID, metrics and access line."""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mines.server.common.logs import REQUEST_ID, access_line
from mines.server.common.metrics import (
    DURATION,
    REQUESTS,
    UNMATCHED,
    Network,
    allowed,
    method_label,
)
from mines.server.web.handlers import error

log = logging.getLogger(__name__)

REQUEST_ID_PATTERN = re.compile(rb"[A-Za-z0-9._:-]{1,128}")


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


_SERIES: dict[tuple[str, str, int], tuple[Any, Any]] = {}
"""The counter and histogram of each (route, method, status) seen, found once: `labels()`
checks and locks on every call, a third of the metrics' cost per request."""


def count(route: str, method: str, status: int, seconds: float) -> None:
    """Count one request and its duration."""
    key = (route, method, status)
    series = _SERIES.get(key)
    if series is None:
        label = method_label(method)
        series = REQUESTS.labels(route, label, str(status)), DURATION.labels(route)
        if len(_SERIES) < 10_000:  # methods are free text; their labels are bounded anyway
            _SERIES[key] = series
    series[0].inc()
    series[1].observe(seconds)


def request_id(scope: Scope, trusted: Sequence[Network]) -> str:
    """The proxy's `X-Request-ID` when the peer is a trusted proxy and the ID is plain (letters,
    digits, `._:-`, at most 128), else a new one: a client cannot pick its own ID."""
    client = scope.get("client")
    if trusted and allowed(client[0] if client else None, trusted):
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                given: bytes = value
                if REQUEST_ID_PATTERN.fullmatch(given):
                    return given.decode("ascii")
                break
    return os.urandom(16).hex()


class Observe:
    """The outermost middleware: gives each HTTP request an ID (echoed in `X-Request-ID`),
    counts it by route template, method and status, times it, writes its access line, and
    answers an unexpected error with 500 and the ID (its traceback logged once, here).

    `trusted` are the proxies whose `X-Request-ID` is taken; this runs before their
    `X-Forwarded-For` is applied, so it sees the proxy's own address.
    """

    def __init__(self, app: ASGIApp, trusted: Sequence[Network] = (), *, metrics: bool = True):
        self.app = app
        self.trusted = tuple(trusted)
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        rid = request_id(scope, self.trusted)
        token = REQUEST_ID.set(rid)
        header = (b"x-request-id", rid.encode("ascii"))
        status = 0

        async def note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, note_status)
        except Exception:
            log.exception(
                "unexpected error on %s %s",
                scope["method"],
                scope["path"],
                extra={"request_id": rid},
            )
            if status == 0:  # nothing sent yet: the client gets the ID, not the error
                answer = error(
                    500,
                    "internal_error",
                    f"internal error; the server's log has it under request ID {rid}",
                    request_id=rid,
                )
                await answer(scope, receive, note_status)
            # Not raised again: the server would log the same traceback a second time.
        finally:
            elapsed = time.perf_counter() - start
            route = route_template(scope)
            shown = status or 500  # the client's connection ends without an answer
            if self.metrics:
                count(route, scope["method"], shown, elapsed)
            client = scope.get("client")
            access_line(
                scope["method"], scope["path"], route, shown, elapsed, client[0] if client else "-"
            )
            REQUEST_ID.reset(token)
