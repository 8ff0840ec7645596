"""`create_app`: wires the storage, the game service, the routers and the browser client."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CollectorRegistry
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
from mines.server.common.metrics import Live, Network, networks, registry
from mines.server.common.settings import Settings
from mines.server.db.race_store import ANNOUNCE_PREFIX, read_note
from mines.server.db.storage import Storage
from mines.server.services.accounts import AccountService
from mines.server.services.fanout import MESSAGES, RedisFanout
from mines.server.services.games import GameService
from mines.server.services.hub import REFRESH, Hub
from mines.server.services.names import skeletons
from mines.server.services.readiness import Check, Readiness
from mines.server.services.reviews import ReviewService
from mines.server.services.rooms import LOBBY, RoomService
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


@dataclass(frozen=True)
class Services:
    """What the routes and the middleware use, made once per app (`build_services`)."""

    # Each field is kept in `app.state` under its name, where `api/deps.py`, the routes' one
    # reader, finds it: a new service is a field here and a dependency there.
    games: GameService
    hub: Hub
    fanout: RedisFanout | None
    """Live frames to and from other processes through Redis; None without `--redis`."""
    rooms: RoomService
    reviews: ReviewService
    accounts: AccountService
    sockets: SocketCounts
    limiter: RateLimiter
    blocks: BlockList
    drain: Drain
    readiness: Readiness
    metrics: CollectorRegistry
    metrics_allow: tuple[Network, ...]


def create_app(
    service: GameService,
    rooms: RoomService | None = None,
    *,
    account_service: AccountService | None = None,
    drain: Drain | None = None,
) -> FastAPI:
    """The ASGI app around a game service; whoever made the service closes it."""
    services = build_services(service, rooms, account_service, drain)
    app = FastAPI(
        title="mines",
        summary="Server-authoritative Minesweeper: the server holds the mines, clients see views.",
        version=mines.__version__,
        lifespan=lifespan(services),
        docs_url=None,  # FastAPI's page needs a CDN and an inline script: apidocs serves /docs
        redoc_url=None,
    )
    for name, value in vars(services).items():
        setattr(app.state, name, value)
    install_handlers(app)
    add_middleware(app, services)
    for module in ROUTERS:
        app.include_router(module.router)
    add_client_pages(app, Assets(STATIC))
    return app


ROUTERS = (
    games,
    leaderboard,
    live,
    races,
    meta,
    replay,
    review,
    analysis,
    probes,
    scrape,
    accounts,
    players,
    apidocs,
)
"""The API's routers, included in this order (the OpenAPI schema lists them so)."""


def build_services(
    service: GameService,
    rooms: RoomService | None,
    account_service: AccountService | None,
    drain: Drain | None,
) -> Services:
    """The app's services around the game service, from its settings (or as given)."""
    settings = service.settings
    race_rooms = rooms or RoomService(service.storage, cache=service.cache)
    game_hub, fanout = live_hub(settings, race_rooms)
    sockets = SocketCounts(settings.sockets_per_address, settings.sockets)
    limiter = RateLimiter(
        settings.rates, settings.redis, prefix=settings.redis_prefix, timeout=settings.redis_timeout
    )
    return Services(
        games=service,
        hub=game_hub,
        fanout=fanout,
        rooms=race_rooms,
        reviews=ReviewService(
            service,
            workers=settings.review_workers,
            budget=settings.review_budget,
            memory=settings.review_memory,
        ),
        accounts=account_service
        or AccountService(service.storage, session_seconds=settings.session_seconds),
        sockets=sockets,
        limiter=limiter,
        blocks=BlockList(service.storage.blocked_networks),
        drain=drain or Drain(),
        readiness=readiness(service.storage, limiter),
        metrics=metrics(service, sockets, limiter, fanout),
        metrics_allow=networks(settings.metrics_allow) if settings.metrics else (),
    )


ROOM_PREFIX = races.room_key("")
"""The hub's keys of race rooms begin so; a game's key is its ID."""
LOBBY_KEY = races.room_key(LOBBY)
"""The hub's key (and Redis channel) of the lobby: public rooms changed anywhere."""


def live_hub(settings: Settings, race_rooms: RoomService) -> tuple[Hub, RedisFanout | None]:
    """This process's hub of watchers, and the Redis fanout when the settings name Redis."""
    # Live frames go through Redis, each game's and room's on its own channel, to the
    # processes watching it only; no NOTIFY, no LISTEN.
    if settings.redis is None:
        return Hub(), None

    def deliver(key: str, frame: dict[str, Any]) -> None:
        """Another process's frame: a game's goes to its watchers as it is; a room's carries
        moves, which this process plays to make the room's events (`RoomService.heard`)."""
        if key == LOBBY_KEY:  # a public room changed there: the lobby's watchers here
            race_rooms.changed_elsewhere(frame.get("room"))
        elif key.startswith(ROOM_PREFIX):
            race_rooms.heard(read_note(key.removeprefix(ROOM_PREFIX), frame))
        else:
            game_hub.publish(key, frame)

    fanout = RedisFanout(
        settings.redis,
        prefix=settings.redis_prefix,
        timeout=settings.redis_timeout,
        deliver=deliver,
        missed=lambda: read_again(game_hub, race_rooms),
    )
    game_hub = Hub(first=fanout.watch, last=fanout.unwatch)
    return game_hub, fanout


def read_again(game_hub: Hub, race_rooms: RoomService) -> None:
    """Frames or notes may have been missed (a lost subscription or listener, back now): the
    watchers of every game read it again, and every room kept or watched here plays what its
    log holds since."""
    rooms_watched = []
    for key in game_hub.watched():
        if key.startswith(ROOM_PREFIX):
            rooms_watched.append(key.removeprefix(ROOM_PREFIX))
        else:
            game_hub.publish(key, REFRESH)
    race_rooms.read_again(rooms_watched)


def metrics(
    service: GameService, sockets: SocketCounts, limiter: RateLimiter, fanout: RedisFanout | None
) -> CollectorRegistry:
    """The app's registry for `/metrics`: the shared counters and this app's live gauges."""
    found = registry(
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
        found.register(MESSAGES)
    return found


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
    """A move's token check, before its game's rate counts it (`RateLimit`'s `authorize`)."""

    async def authorize(game_id: str, token: str | None) -> None:
        # Against the game kept in memory on the event loop, else (a read) in a thread.
        if not token:
            raise NotAuthenticatedError(MISSING_TOKEN)
        if not service.cached_access(game_id, token):
            await run_in_threadpool(service.check_access, game_id, token)

    return authorize


def lifespan(services: Services) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's start (listening to other processes, warming up) and its stop (closing)."""

    @asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        stop = listen(services, asyncio.get_running_loop())
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
            if services.fanout is not None:
                await services.fanout.stop()
            services.rooms.close()
            services.reviews.close()

    return run


def listen(services: Services, loop: asyncio.AbstractEventLoop) -> Callable[[], None] | None:
    """Pass other processes' moves and race events to the watchers here; returns how to stop."""
    # With Redis, games' frames and rooms' moves come through it (`live_hub`); without, from
    # the database's notifications.
    game_hub, race_rooms, storage = services.hub, services.rooms, services.games.storage

    def moved_elsewhere(game_id: str) -> None:
        if game_id.startswith(ANNOUNCE_PREFIX):  # a race room: its events, not a refresh
            race_rooms.moved_elsewhere(game_id)
        else:
            loop.call_soon_threadsafe(game_hub.publish, game_id, REFRESH)

    # Race events leave the room's lock in order; queued to the loop, they stay in order.
    def publish_race(room_id: str, message: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(game_hub.publish, races.room_key(room_id), message)

    def missed() -> None:
        loop.call_soon_threadsafe(read_again, game_hub, race_rooms)

    race_rooms.publish = publish_race
    fanout = services.fanout
    if fanout is not None:
        storage.announce_moves = False  # no NOTIFY on a move: Redis carries it
        fanout.start()
        # A room's stored moves, in commit order, to the processes watching the room.
        race_rooms.announce = lambda room_id, note: fanout.send(races.room_key(room_id), note)
        return None
    # Without Redis, PostgreSQL's notifications tell the other processes (SQLite: none).
    return storage.listen(moved_elsewhere, missed)


def add_middleware(app: FastAPI, services: Services) -> None:
    """The HTTP plumbing around every route, in the order it runs (outermost added last)."""
    settings = services.games.settings
    # The last added runs first: headers go on every answer, the body cap's 413 included;
    # a request over its rate is refused before its body is read.
    app.add_middleware(CompressApi, minimum_size=GZIP_MINIMUM_BYTES)
    app.add_middleware(BodyLimit, limit=settings.body_limit)
    app.add_middleware(JsonOnly)  # before the body is read, after the rates and the token
    app.add_middleware(CrossSite)
    authorize = authorizer(services.games)
    app.add_middleware(RateLimit, limiter=services.limiter, authorize=authorize)
    # Before the rates: a blocked address counts against nothing.
    app.add_middleware(Blocked, blocks=services.blocks)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(CloseWhileDraining, drain=services.drain)
    app.add_middleware(HeadAsGet)
    trusted = networks(settings.forwarded_allow_ips)
    # The client's address from a trusted proxy's X-Forwarded-For, for every middleware below
    # (rate limits, WebSocket caps, /metrics) and the access line.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=[str(n) for n in trusted])
    # Outermost: it sees every answer and all of its time, and the proxy's own address.
    app.add_middleware(Observe, trusted=trusted, metrics=settings.metrics)


def add_client_pages(app: FastAPI, assets: Assets) -> None:
    """The browser client: its pages, its static files and the icon (not in the schema)."""

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static(path: str, request: Request) -> Response:
        return assets.file(path, request.headers)

    @app.get("/", include_in_schema=False)
    async def client(request: Request) -> Response:
        return assets.page("index.html", request.headers)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest(request: Request) -> Response:
        return assets.manifest(request.headers)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker(request: Request) -> Response:
        return assets.service_worker(request.headers)

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
