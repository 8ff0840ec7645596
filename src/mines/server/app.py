"""`create_app`: wires the storage, the game service, the routers and the browser client."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import mines
from mines.server.api import (
    accounts,
    analysis,
    apidocs,
    games,
    leaderboard,
    live,
    meta,
    players,
    probes,
    races,
    replay,
    review,
    scrape,
)
from mines.server.api.sockets import SocketCounts
from mines.server.common.auth import MISSING_TOKEN, NotAuthenticatedError
from mines.server.common.metrics import Live, networks, registry
from mines.server.db.race_store import ANNOUNCE_PREFIX, read_note
from mines.server.db.storage import Storage
from mines.server.services.accounts import AccountService
from mines.server.services.fanout import MESSAGES, RedisFanout
from mines.server.services.games import GameService
from mines.server.services.hub import REFRESH, Hub
from mines.server.services.names import skeletons
from mines.server.services.readiness import Check, Readiness
from mines.server.services.reviews import ReviewService
from mines.server.services.rooms import RoomService
from mines.server.web.assets import Assets
from mines.server.web.blocks import Blocked, BlockList
from mines.server.web.drain import CloseWhileDraining, Drain
from mines.server.web.favicon import favicon
from mines.server.web.handlers import install_handlers
from mines.server.web.middleware import (
    BodyLimit,
    CompressApi,
    CrossSite,
    HeadAsGet,
    JsonOnly,
    SecurityHeaders,
)
from mines.server.web.observe import Observe
from mines.server.web.ratelimit import Authorize, RateLimit, RateLimiter

STATIC = Path(__file__).parent / "static"
GZIP_MINIMUM_BYTES = 1024
"""Answers shorter than this go as they are: below about a kilobyte gzip saves less than the
time it costs (a move's answer is a few hundred bytes)."""


def readiness(storage: Storage, limiter: RateLimiter) -> Readiness:
    """The checks of `/readyz`: the database, and Redis when the rate limits are shared."""

    async def database() -> None:
        # A hung database keeps this thread, not the event loop's shutdown (one at a time).
        await anyio.to_thread.run_sync(storage.ping, abandon_on_cancel=True)

    async def redis() -> None:
        if not await limiter.shared_check():
            raise ConnectionError("Redis did not answer the ping")

    checks: dict[str, Check] = {"database": database}
    if limiter.shared:
        checks["redis"] = redis
    return Readiness(checks)


def authorizer(service: GameService) -> Authorize:
    """Checks a move's token before its game's rate counts it: against the game kept in
    memory on the event loop, else (a read) in a thread."""

    async def authorize(game_id: str, token: str | None) -> None:
        if not token:
            raise NotAuthenticatedError(MISSING_TOKEN)
        if not service.cached_access(game_id, token):
            await run_in_threadpool(service.check_access, game_id, token)

    return authorize


def create_app(
    service: GameService,
    rooms: RoomService | None = None,
    *,
    account_service: AccountService | None = None,
    drain: Drain | None = None,
) -> FastAPI:
    """The ASGI app around a game service; whoever made the service closes it."""
    settings = service.settings
    room_prefix = races.room_key("")
    fanout: RedisFanout | None = None

    def read_again() -> None:
        """Frames or notes may have been missed (a lost subscription or listener, back now):
        the watchers of every game read it again, and every room kept or watched here plays
        what its log holds since."""
        rooms_watched = []
        for key in game_hub.watched():
            if key.startswith(room_prefix):
                rooms_watched.append(key.removeprefix(room_prefix))
            else:
                game_hub.publish(key, REFRESH)
        race_rooms.read_again(rooms_watched)

    def deliver(key: str, frame: dict[str, Any]) -> None:
        """Another process's frame: a game's goes to its watchers as it is; a room's carries
        moves, which this process plays to make the room's events (`RoomService.heard`)."""
        if key.startswith(room_prefix):
            race_rooms.heard(read_note(key.removeprefix(room_prefix), frame))
        else:
            game_hub.publish(key, frame)

    if settings.redis is not None:
        # Live frames go through Redis, each game's and room's on its own channel, to the
        # processes watching it only; no NOTIFY, no LISTEN.
        fanout = RedisFanout(
            settings.redis,
            prefix=settings.redis_prefix,
            timeout=settings.redis_timeout,
            deliver=deliver,
            missed=read_again,
        )
        game_hub = Hub(first=fanout.watch, last=fanout.unwatch)
    else:
        game_hub = Hub()
    race_rooms = rooms or RoomService(service.storage, cache=service.cache)
    reviews = ReviewService(
        service,
        workers=settings.review_workers,
        budget=settings.review_budget,
        memory=settings.review_memory,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Moves stored by other processes sharing the database: their watchers here re-read.
        loop = asyncio.get_running_loop()

        def moved_elsewhere(game_id: str) -> None:
            if game_id.startswith(ANNOUNCE_PREFIX):  # a race room: its events, not a refresh
                race_rooms.moved_elsewhere(game_id)
            else:
                loop.call_soon_threadsafe(game_hub.publish, game_id, REFRESH)

        # Race events leave the room's lock in order; queued to the loop, they stay in order.
        def publish_race(room_id: str, message: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(game_hub.publish, races.room_key(room_id), message)

        def missed() -> None:
            loop.call_soon_threadsafe(read_again)

        race_rooms.publish = publish_race
        stop = None
        if fanout is not None:
            service.storage.announce_moves = False  # no NOTIFY on a move: Redis carries it
            fanout.start()
            # A room's stored moves, in commit order, to the processes watching the room.
            race_rooms.announce = lambda room_id, note: fanout.send(races.room_key(room_id), note)
        else:
            # Without Redis, PostgreSQL's notifications tell the other processes (SQLite: none).
            stop = service.storage.listen(moved_elsewhere, missed)
        # The first request need not import its backend, nor the first sign-up build the
        # table of look-alike letters (about a second), nor the first game to end or to open a
        # large region import scipy's image module (half a second of CPU, in every process:
        # the engines import it on first use, for the terminal game's first screen).
        await run_in_threadpool(skeletons, "")
        await run_in_threadpool(importlib.import_module, "scipy.ndimage")
        try:
            yield
        finally:
            if stop is not None:
                stop()
            if fanout is not None:
                await fanout.stop()
            race_rooms.close()
            reviews.close()

    app = FastAPI(
        title="mines",
        summary="Server-authoritative Minesweeper: the server holds the mines, clients see views.",
        version=mines.__version__,
        lifespan=lifespan,
        docs_url=None,  # FastAPI's page needs a CDN and an inline script: apidocs serves /docs
        redoc_url=None,
    )
    app.state.service = service
    app.state.hub = game_hub
    app.state.fanout = fanout
    app.state.rooms = race_rooms
    app.state.reviews = reviews
    app.state.sockets = SocketCounts(settings.sockets_per_address, settings.sockets)
    app.state.accounts = account_service or AccountService(
        service.storage, session_seconds=settings.session_seconds
    )
    install_handlers(app)
    # The last added runs first: headers go on every answer, the body cap's 413 included;
    # a request over its rate is refused before its body is read.
    app.add_middleware(CompressApi, minimum_size=GZIP_MINIMUM_BYTES)
    app.add_middleware(BodyLimit, limit=settings.body_limit)
    app.add_middleware(JsonOnly)  # before the body is read, after the rates and the token
    app.add_middleware(CrossSite)
    limiter = RateLimiter(
        settings.rates,
        settings.redis,
        prefix=settings.redis_prefix,
        timeout=settings.redis_timeout,
    )
    app.state.limiter = limiter
    app.add_middleware(RateLimit, limiter=limiter, authorize=authorizer(service))
    # Before the rates: a blocked address counts against nothing.
    app.state.blocks = BlockList(service.storage.blocked_networks)
    app.add_middleware(Blocked, blocks=app.state.blocks)
    app.add_middleware(SecurityHeaders)
    app.state.drain = drain or Drain()
    app.add_middleware(CloseWhileDraining, drain=app.state.drain)
    app.add_middleware(HeadAsGet)
    trusted = networks(settings.forwarded_allow_ips)
    # The client's address from a trusted proxy's X-Forwarded-For, for every middleware below
    # (rate limits, WebSocket caps, /metrics) and the access line.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=[str(n) for n in trusted])
    # Outermost: it sees every answer and all of its time, and the proxy's own address.
    app.add_middleware(Observe, trusted=trusted, metrics=settings.metrics)
    app.state.readiness = readiness(service.storage, limiter)
    app.state.metrics_allow = networks(settings.metrics_allow) if settings.metrics else ()
    sockets: SocketCounts = app.state.sockets
    app.state.metrics = registry(
        Live(
            cache=lambda: (
                ("room" if key.startswith(ANNOUNCE_PREFIX) else "game", weight)
                for key, weight in service.cache.weights()
            ),
            cache_budget=service.cache.budget,
            cache_used=lambda: service.cache.used,
            websockets=lambda: sockets.total,
            workers=service.worker_pools,
            fallback=lambda: limiter.failing,
        )
    )
    if fanout is not None:
        app.state.metrics.register(MESSAGES)
    routers = (games, leaderboard, live, races, meta, replay, review, analysis, probes, scrape)
    for module in (*routers, accounts, players, apidocs):
        app.include_router(module.router)
    assets = Assets(STATIC)
    app.state.assets = assets

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static(path: str, request: Request) -> Response:
        return assets.file(path, request.headers)

    @app.get("/", include_in_schema=False)
    async def client(request: Request) -> Response:
        return assets.page("index.html", request.headers)

    @app.get("/favicon.ico", include_in_schema=False)
    async def icon() -> Response:
        return Response(
            favicon(), media_type="image/x-icon", headers={"Cache-Control": "max-age=86400"}
        )

    @app.get("/race", include_in_schema=False)
    @app.get("/race/{room_id}", include_in_schema=False)
    async def race_client(request: Request, room_id: str = "") -> Response:
        return assets.page("race.html", request.headers)  # the page reads the room from its address

    @app.get("/players/{name}", include_in_schema=False)
    async def player_client(request: Request, name: str) -> Response:
        return assets.page("player.html", request.headers)  # the page reads the name too

    @app.get("/review/{game_id}", include_in_schema=False)
    async def review_client(request: Request, game_id: str) -> Response:
        return assets.page("review.html", request.headers)  # the page reads the game's ID too

    return app
