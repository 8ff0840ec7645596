"""What every live socket shares: room for it per address and per process, and reading what
its client sends."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from fastapi import WebSocket, WebSocketDisconnect

from mines.server.common.settings import SOCKETS

log = logging.getLogger(__name__)

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
async def admitted(websocket: WebSocket, counts: SocketCounts) -> AsyncIterator[bool]:
    """Accept a live socket; True (and counted in `counts`, the app's `deps.Sockets`, until
    the block ends) when its address has room for one more, else it is closed with
    `CLOSE_TOO_MANY`. Every live socket goes through here, the race rooms' included."""
    address = websocket.client.host if websocket.client else "unknown"
    refused = counts.refusal(address)
    with counts.hold(address) as room:
        try:
            await websocket.accept()
            if not room:
                code, reason = refused or (CLOSE_TOO_MANY, "no room for another live socket")
                await websocket.close(code=code, reason=reason)
            yield room
        except WebSocketDisconnect as gone:
            # A client that leaves (a closed tab, a lost network) before a frame was sent to
            # it is no error of the server's: one INFO line, no traceback.
            log.info("live socket %s: the client left (code %s)", websocket.url.path, gone.code)


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
