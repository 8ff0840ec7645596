"""`/api/games/{id}/live`: a WebSocket that sends the game's view, then each move as it happens."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from mines.errors import MinesError
from mines.server.deps import hub, service, window

router = APIRouter(tags=["live"])

CLOSE_UNKNOWN_GAME = 4404


@router.websocket("/api/games/{game_id}/live")
async def watch(websocket: WebSocket, game_id: str) -> None:
    """First a `{"type": "view", "view": ...}` message, then `{"type": "move", ...}` per move
    and `{"type": "refresh"}` when this watcher fell behind and should read the view again."""
    await websocket.accept()
    # Subscribe before reading the view, so no move falls between the two.
    with hub(websocket).subscribe(game_id) as queue:
        try:
            view = await run_in_threadpool(
                service(websocket).view, game_id, window(websocket.query_params)
            )
        except MinesError as error:
            await websocket.close(code=CLOSE_UNKNOWN_GAME, reason=str(error)[:120])
            return
        await websocket.send_json({"type": "view", "view": view})
        forward = asyncio.create_task(_forward(queue, websocket))
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            forward.cancel()


async def _forward(queue: asyncio.Queue[dict[str, Any]], websocket: WebSocket) -> None:
    while True:
        await websocket.send_json(await queue.get())
