"""`/api/games/{id}/live`: a WebSocket that sends the game's view, then each move as it happens."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from mines.errors import MinesError
from mines.server.auth import bearer_token
from mines.server.deps import hub, service, window
from mines.server.errors import classify
from mines.server.present import Box, in_window
from mines.server.routers.readers import check_reader
from mines.server.settings import SOCKETS

router = APIRouter(tags=["live"])

CLOSE_UNSUPPORTED_DATA = 1003
"""The client sent a binary frame: this socket only ever carries text."""
CLOSE_TOO_BIG = 1009
"""The client sent a text message over `MESSAGE_LIMIT` characters."""
CLOSE_TOO_MANY = 4429
"""The client's address already holds as many live sockets as the server allows."""
CLOSE_FULL = 1013
"""The process holds as many live sockets as it allows (WebSocket's "try again later")."""
MESSAGE_LIMIT = 1024
"""The server reads nothing from watchers; a short text (a keep-alive) is ignored."""


class SocketCounts:
    """Live sockets per client address, so one address cannot hold them all, and of the
    whole process, so many addresses together cannot take every open file it may have."""

    def __init__(self, per_address: int, per_process: int = SOCKETS):
        self.per_address = per_address
        self.per_process = per_process
        self._counts: Counter[str] = Counter()
        self._total = 0

    @property
    def total(self) -> int:
        """Live sockets of every address."""
        return self._total

    def refusal(self, address: str) -> tuple[int, str] | None:
        """The close code and reason for one more socket of `address`; None when it has room."""
        if self._total >= self.per_process:
            return CLOSE_FULL, f"this server holds its most live sockets ({self.per_process})"
        if self._counts[address] >= self.per_address:
            return CLOSE_TOO_MANY, f"at most {self.per_address} live sockets per address"
        return None

    @contextmanager
    def hold(self, address: str) -> Iterator[bool]:
        """True (and counted until the block ends) when there is room for one more."""
        if self.refusal(address) is not None:
            yield False
            return
        self._counts[address] += 1
        self._total += 1
        try:
            yield True
        finally:
            self._total -= 1
            self._counts[address] -= 1
            if not self._counts[address]:
                del self._counts[address]


@asynccontextmanager
async def admitted(websocket: WebSocket) -> AsyncIterator[bool]:
    """Accept a live socket; True (and counted until the block ends) when its address has
    room for one more, else it is closed with `CLOSE_TOO_MANY`. Every live socket goes
    through here, the race rooms' included."""
    counts: SocketCounts = websocket.app.state.sockets
    address = websocket.client.host if websocket.client else "unknown"
    refused = counts.refusal(address)
    with counts.hold(address) as room:
        await websocket.accept()
        if not room:
            code, reason = refused or (CLOSE_TOO_MANY, "no room for another live socket")
            await websocket.close(code=code, reason=reason)
        yield room


@router.websocket("/api/games/{game_id}/live")
async def watch(websocket: WebSocket, game_id: str) -> None:
    """First a `{"type": "view", "view": ...}` message, then `{"type": "move", ...}` per move
    and `{"type": "refresh"}` when this watcher fell behind and should read the view again."""
    async with admitted(websocket) as room:
        if room:
            await _serve(websocket, game_id)


async def _serve(websocket: WebSocket, game_id: str) -> None:
    # Subscribe before reading the view, so no move falls between the two.
    with hub(websocket).subscribe(game_id) as queue:
        try:
            await check_reader(websocket, game_id, _token(websocket))
            asked = window(websocket.query_params)
            view = await run_in_threadpool(service(websocket).view, game_id, asked)
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


async def ignore_until_closed(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends until it goes; close it on a binary or big frame."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            await websocket.close(CLOSE_UNSUPPORTED_DATA, "this socket takes text frames only")
            return
        if len(message.get("text") or "") > MESSAGE_LIMIT:
            await websocket.close(CLOSE_TOO_BIG, f"messages are at most {MESSAGE_LIMIT} characters")
            return


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
