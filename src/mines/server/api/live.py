"""`/api/games/{id}/live`: a WebSocket that sends the game's view, then each move as it happens."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from mines.errors import MinesError
from mines.server.api.deps import Fanout, GameReaders, Games, LiveHub, Sockets, window
from mines.server.api.readers import Readers
from mines.server.api.sockets import admitted, ignore_until_closed
from mines.server.common.auth import bearer_token
from mines.server.services.fanout import RedisFanout
from mines.server.services.games import GameService
from mines.server.services.hub import Hub
from mines.server.services.present import Box, in_window
from mines.server.web.handlers import classify

router = APIRouter(tags=["live"])


@router.websocket("/api/games/{game_id}/live")
async def watch(
    websocket: WebSocket,
    game_id: str,
    games: Games,
    hub: LiveHub,
    fanout: Fanout,
    readers: GameReaders,
    sockets: Sockets,
) -> None:
    """First a `{"type": "view", "view": ...}` message, then `{"type": "move", ...}` per move
    and `{"type": "refresh"}` when this watcher fell behind and should read the view again."""
    async with admitted(websocket, sockets) as room:
        if room:
            await _serve(websocket, game_id, games, hub, fanout, readers)


async def _serve(
    websocket: WebSocket,
    game_id: str,
    games: GameService,
    hub: Hub,
    fanout: RedisFanout | None,
    readers: Readers,
) -> None:
    # Subscribe before reading the view, so no move falls between the two.
    with hub.subscribe(game_id) as queue:
        if fanout is not None:
            await fanout.joined(game_id)  # other processes' moves too, before the view
        try:
            await readers.check(game_id, _token(websocket))
            asked = window(websocket.query_params)
            view = await run_in_threadpool(games.view, game_id, asked)
        except MinesError as error:
            # 4000 + the HTTP status the same request would get: 4404 unknown game, 4422 bad window.
            status, _ = classify(error)
            await websocket.close(code=4000 + status, reason=str(error)[:120])
            return
        await websocket.send_json({"type": "view", "view": view})
        # A watcher of a window is sent the changed cells of that window only.
        box = (view["top"], view["left"], view["height"], view["width"]) if asked.given else None
        forward = asyncio.create_task(_forward(queue, websocket, view["version"], box))
        try:
            await ignore_until_closed(websocket)
        finally:
            forward.cancel()


def _token(websocket: WebSocket) -> str | None:
    """The game's token, for a daily game's player: `?token=` (a browser cannot set a
    WebSocket's headers) or `Authorization: Bearer`."""
    return bearer_token(websocket.headers.get("authorization")) or (
        websocket.query_params.get("token") or None
    )


async def _forward(
    queue: asyncio.Queue[dict[str, Any]], websocket: WebSocket, seen: int, box: Box | None
) -> None:
    while True:
        message = await queue.get()
        if message["type"] == "move":
            if message["version"] <= seen:  # already in the view this socket sent first
                continue
            if box is not None:
                message = in_window(message, box)
        await websocket.send_json(message)
