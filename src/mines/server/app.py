"""`create_app`: wires the storage, the game service, the routers and the browser client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from mines.server.errors import install_handlers
from mines.server.games import GameService
from mines.server.hub import Hub
from mines.server.routers import games, leaderboard, live
from mines.server.settings import Settings
from mines.server.storage import open_storage

STATIC = Path(__file__).parent / "static"


def create_app(settings: Settings, *, service: GameService | None = None) -> FastAPI:
    """The ASGI app; pass `service` to run it on storage or clocks a test controls."""
    game_service = service or GameService(open_storage(settings.database), settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        game_service.close()

    app = FastAPI(
        title="mines",
        summary="Server-authoritative Minesweeper: the server holds the mines, clients see views.",
        lifespan=lifespan,
    )
    app.state.service = game_service
    app.state.hub = Hub()
    install_handlers(app)
    for module in (games, leaderboard, live):
        app.include_router(module.router)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="client")
    return app
