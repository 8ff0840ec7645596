"""Rate limits per client address and per game, with the `limits` library (in memory or Redis)."""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, cast

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as SharedLimiter
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

from mines.server.common.auth import ROOM_TOKEN, ForbiddenError, NotAuthenticatedError, bearer_token
from mines.server.common.errors import GameNotFoundError
from mines.server.common.settings import REDIS_TIMEOUT, RateLimits
from mines.server.db.storage import StorageError
from mines.server.web.handlers import classify, error

log = logging.getLogger(__name__)

KEY_PREFIX = "mines"
RATE_KEY = "x-rate-limit"
"""The OpenAPI extension in which a route declares the rate it spends (`rate_limit`)."""
Spends = Literal["create", "game", "room"]
PROBE_INTERVAL = 1.0
"""Seconds between two pings of a Redis that failed, to notice it answers again."""


def rate_limit(kind: Spends) -> dict[str, Any]:
    """A route's declaration, in its `openapi_extra`, of the rate it spends besides its
    address's: "create" (new games and rooms, per address), "game" (a game's moves, per game,
    the token checked first against the route's `game_id`), "room" (a race room's moves: one
    without a token is refused before the room is read). The route's path never matters:
    renamed or moved, it keeps its limit (and the schema shows it)."""
    return {RATE_KEY: kind}


def declared(scope: Scope) -> tuple[str, dict[str, Any]] | None:
    """The rate the request's route declares, with the route's path parameters; None for a
    route that declares none. Read from the app's OpenAPI schema, where the routes declare it,
    and its paths compiled as Starlette compiles them, once per app."""
    app = scope.get("app")
    if app is None or not hasattr(app, "openapi"):
        return None
    table: list[tuple[str, re.Pattern[str], str]] | None = getattr(app.state, "rate_table", None)
    if table is None:
        table = [
            (method.upper(), compile_path(path)[0], operation[RATE_KEY])
            for path, operations in app.openapi().get("paths", {}).items()
            for method, operation in operations.items()
            if isinstance(operation, dict) and RATE_KEY in operation
        ]
        app.state.rate_table = table
    for method, pattern, kind in table:
        if method == scope["method"] and (match := pattern.match(scope["path"])):
            return kind, match.groupdict()
    return None


class RateLimiter:
    """Counts requests in moving windows; all server processes share the counts through Redis
    when a Redis URL is given, else each process counts its own.

    Redis is only ever awaited, with a deadline of `timeout` seconds per check, so a Redis that
    hangs never holds the event loop. While it fails or hangs, every process counts in its own
    memory with the same rates (never no limit at all); a ping at most every `probe` seconds
    notices when it answers again, and the counting goes back to it.
    """

    def __init__(
        self,
        limits: RateLimits,
        redis: str | None = None,
        *,
        prefix: str = KEY_PREFIX,
        timeout: float = REDIS_TIMEOUT,
        probe: float = PROBE_INTERVAL,
    ):
        # In memory the counting is a few dictionary operations under a thread lock: no I/O,
        # so it runs on the event loop directly.
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._redis = redis
        self._prefix = prefix
        self._clients: tuple[asyncio.AbstractEventLoop, Redis, SharedLimiter] | None = None
        self._timeout = timeout
        self._probe = probe
        self._rules: dict[str, list[RateLimitItem]] = {
            "address": parse_many(limits.address),
            "create": parse_many(limits.create),
            "game": parse_many(limits.game),
            "signin": parse_many(limits.signin),
            "denied": parse_many(limits.denied),
        }
        self._failing = False
        self._next_probe = 0.0
        self._probing: asyncio.Task[None] | None = None

    @property
    def failing(self) -> bool:
        """True while Redis was given but fails, and the counts are this process's own."""
        return self._failing

    async def refusal(self, kind: str, key: str) -> int | None:
        """None when one more request of `kind` for `key` is allowed (and count it), else the
        seconds until it would be."""
        if self._redis is not None:
            if not self._failing:
                _, shared = self._connection()
                try:
                    return await asyncio.wait_for(
                        self._count(shared.hit, shared.get_window_stats, kind, key),
                        self._timeout,
                    )
                except Exception as failure:  # down, hung or refusing: count here instead
                    self._fail(failure)
            else:
                self._maybe_probe()
        return await self._count(self._local_hit, self._local_stats, kind, key)

    def _connection(self) -> tuple[Redis, SharedLimiter]:
        """The Redis client of the running event loop: an asyncio client's connections belong
        to the loop that opened them (a server has one; a test client one per request)."""
        assert self._redis is not None
        loop = asyncio.get_running_loop()
        if self._clients is None or self._clients[0] is not loop:
            # One immediate retry (on a pooled connection Redis closed) and no backoff: the
            # deadline is `timeout` in all.
            client = Redis.from_url(
                self._redis,
                socket_timeout=self._timeout,
                socket_connect_timeout=self._timeout,
                retry=Retry(NoBackoff(), 1),
            )
            storage = RedisStorage(
                f"async+{self._redis}",
                implementation="redispy",
                key_prefix=self._prefix,
                connection_pool=client.connection_pool,  # type: ignore[arg-type]
            )
            self._clients = (loop, client, SharedLimiter(storage))
        return self._clients[1], self._clients[2]

    async def _count(
        self,
        hit: Callable[[RateLimitItem, str, str], Awaitable[bool]],
        stats: Callable[[RateLimitItem, str, str], Awaitable[tuple[float, int]]],
        kind: str,
        key: str,
    ) -> int | None:
        for item in self._rules[kind]:
            if not await hit(item, kind, key):
                reset, _ = await stats(item, kind, key)
                return max(1, math.ceil(reset - time.time()))
        return None

    async def _local_hit(self, item: RateLimitItem, kind: str, key: str) -> bool:
        return self._local.hit(item, kind, key)

    async def _local_stats(self, item: RateLimitItem, kind: str, key: str) -> tuple[float, int]:
        reset, remaining = self._local.get_window_stats(item, kind, key)
        return reset, remaining

    def _fail(self, failure: BaseException) -> None:
        if not self._failing:
            reason = str(failure) or type(failure).__name__  # a timeout has no text
            log.warning(
                "Redis failed (%s): rate limits are counted by each process alone until it "
                "answers again",
                reason,
            )
        self._failing = True
        self._next_probe = time.monotonic() + self._probe

    def _recover(self) -> None:
        if self._failing:
            self._failing = False
            log.warning("Redis answers again: rate limits are shared among processes again")

    def _maybe_probe(self) -> None:
        """Starts one ping of Redis, unless one runs or the last was under `probe` s ago."""
        if self._probing is not None or time.monotonic() < self._next_probe:
            return
        self._next_probe = time.monotonic() + self._probe
        self._probing = asyncio.get_running_loop().create_task(self._background_ping())

    async def _background_ping(self) -> None:
        try:
            await self.shared_check()
        except TimeoutError:
            pass  # still hung; logged when it began
        finally:
            self._probing = None

    @property
    def shared(self) -> bool:
        """Whether the counts are shared through Redis."""
        return self._redis is not None

    async def shared_check(self) -> bool | None:
        """Whether Redis answers a ping now; None when there is none. A ping unanswered within
        the timeout raises `TimeoutError`. The limiter follows the answer (Redis again, or each
        process on its own), so readiness and the limits agree."""
        if self._redis is None:
            return None
        client, _ = self._connection()
        try:
            # redis-py types `ping` for its sync and async clients at once.
            await asyncio.wait_for(cast(Awaitable[bool], client.ping()), self._timeout)
        except TimeoutError as failure:
            self._fail(failure)
            raise
        except Exception as failure:
            self._fail(failure)
            return False
        self._recover()
        return True


Authorize = Callable[[str, str | None], Awaitable[None]]
"""Returns when a token (None: no `Authorization` header) is the game's; else raises
`NotAuthenticatedError`, `ForbiddenError` or `GameNotFoundError`."""

REFUSED = {
    "address": "too many requests from your address",
    "create": "too many new games and rooms from your address",
    "game": "too many moves in this game",
    "denied": "too many moves refused for their token from your address",
}


def bearer(scope: Scope) -> str | None:
    """The request's bearer token (`auth.bearer_token`); None without one."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return bearer_token(value.decode("latin-1"))
    return None


class RateLimit:
    """ASGI middleware: 429 with `Retry-After` once an address or a game passes its rates.

    A move's token is checked (by `authorize`) before the game's rate is counted, so only its
    player's moves spend it; a move refused for its token counts against its address instead
    (`denied`), and is answered here, before its body is read.
    """

    def __init__(self, app: ASGIApp, limiter: RateLimiter, authorize: Authorize | None = None):
        self.app = app
        self.limiter = limiter
        self.authorize = authorize

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if await self._refused(scope, receive, send, "address", address):
            return
        # Only POST routes declare a rate: other requests are not matched against the routes.
        spends = declared(scope) if scope["method"] == "POST" else None
        if spends is not None:
            kind, params = spends
            if kind == "create":
                if await self._refused(scope, receive, send, "create", address):
                    return
            elif kind == "game":
                game_id = str(params["game_id"])
                if self.authorize is not None:
                    try:
                        await self.authorize(game_id, bearer(scope))
                    except (NotAuthenticatedError, ForbiddenError, GameNotFoundError) as refused:
                        if not await self._refused(scope, receive, send, "denied", address):
                            status, code = classify(refused)
                            await error(status, code, str(refused))(scope, receive, send)
                        return
                    except StorageError:
                        pass  # the move's own read of the game answers it (503)
                if await self._refused(scope, receive, send, "game", game_id):
                    return
            elif kind == "room" and not bearer(scope):
                # The room checks the token itself; one that is missing needs no room.
                if not await self._refused(scope, receive, send, "denied", address):
                    await error(401, "not_authenticated", ROOM_TOKEN)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _refused(
        self, scope: Scope, receive: Receive, send: Send, kind: str, key: str
    ) -> bool:
        """Count one request of `kind` for `key`; past its rate, answer 429 and say so."""
        wait = await self.limiter.refusal(kind, key)
        if wait is None:
            return False
        answer = error(
            429,
            "rate_limited",
            f"{REFUSED[kind]}; try again in {wait} s",
            {"Retry-After": str(wait)},
        )
        await answer(scope, receive, send)
        return True
