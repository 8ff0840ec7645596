"""Rate limits per client address and per game, with the `limits` library (in memory or Redis)."""

from __future__ import annotations

import logging
import math
import re
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, RedisStorage, Storage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from mines.server.errors import error
from mines.server.settings import RateLimits

log = logging.getLogger(__name__)

KEY_PREFIX = "mines"
CREATE_PATHS = ("/api/games", "/api/races")
MOVE_PATH = re.compile(r"^/api/games/([^/]{1,64})/(?:reveal|flag|chord)$")


class RateLimiter:
    """Counts requests in moving windows; all server processes share the counts through Redis
    when a Redis URL is given, else each process counts its own."""

    def __init__(self, limits: RateLimits, redis: str | None = None, *, prefix: str = KEY_PREFIX):
        storage: Storage = (
            MemoryStorage() if redis is None else RedisStorage(redis, key_prefix=prefix)
        )
        self._limiter = MovingWindowRateLimiter(storage)
        self._rules: dict[str, list[RateLimitItem]] = {
            "address": parse_many(limits.address),
            "create": parse_many(limits.create),
            "game": parse_many(limits.game),
            "signin": parse_many(limits.signin),
        }
        self._failing = False

    def refusal(self, kind: str, key: str) -> int | None:
        """None when one more request of `kind` for `key` is allowed (and count it), else the
        seconds until it would be."""
        try:
            for item in self._rules[kind]:
                if not self._limiter.hit(item, kind, key):
                    reset, _ = self._limiter.get_window_stats(item, kind, key)
                    return max(1, math.ceil(reset - time.time()))
        except Exception as failure:  # the shared counter is down: serve rather than refuse all
            if not self._failing:
                log.warning("rate limits are not counted, their storage failed: %s", failure)
            self._failing = True
            return None
        self._failing = False
        return None


class RateLimit:
    """ASGI middleware: 429 with `Retry-After` once an address or a game passes its rates."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter):
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        checks = [("address", address)]
        if scope["method"] == "POST":
            if path in CREATE_PATHS:
                checks.append(("create", address))
            elif match := MOVE_PATH.match(path):
                checks.append(("game", match[1]))
        for kind, key in checks:
            wait = self.limiter.refusal(kind, key)
            if wait is not None:
                what = "this game" if kind == "game" else "your address"
                answer = error(
                    429,
                    "rate_limited",
                    f"too many requests for {what}; try again in {wait} s",
                    {"Retry-After": str(wait)},
                )
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
