"""Blocked networks: requests and WebSockets from an address an operator blocked get 403."""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from mines.server.db.storage import StorageError
from mines.server.web.handlers import error

log = logging.getLogger(__name__)

BLOCKS_REFRESH = 10.0
"""Seconds a process keeps the list of blocked networks before reading it again: a block by
`mines admin block` reaches every process within this time, at one small read per period."""
BLOCKED = (
    "requests from your address are refused by this server's operators; "
    "if you think this is a mistake, contact them"
)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class BlockList:
    """The blocked networks, read from storage at most once per `BLOCKS_REFRESH` seconds."""

    def __init__(
        self,
        read: Callable[[], list[str]],
        *,
        refresh: float = BLOCKS_REFRESH,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._read = read
        self.refresh = refresh
        self._clock = clock
        self._networks: tuple[Network, ...] = ()
        self._read_at = float("-inf")

    async def networks(self) -> tuple[Network, ...]:
        now = self._clock()
        if now - self._read_at >= self.refresh:
            self._read_at = now  # one read at once; the others use the list they have
            try:
                texts = await run_in_threadpool(self._read)
            except StorageError as failure:
                # The database is failing: the last list stays (readiness reports it).
                log.warning("blocked networks not read again: %s", failure)
            else:
                self._networks = tuple(ipaddress.ip_network(text) for text in texts)
        return self._networks

    async def blocked(self, host: str) -> bool:
        networks = await self.networks()
        if not networks:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False  # not an address (a test client, a Unix socket)
        return any(address in network for network in networks)


class Blocked:
    """Refuses with 403 `address_blocked` every request and WebSocket from a blocked network
    (the client's address after the trusted proxy's X-Forwarded-For)."""

    def __init__(self, app: ASGIApp, blocks: BlockList):
        self.app = app
        self.blocks = blocks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if client and await self.blocks.blocked(client[0]):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": "blocked"})
                    return
                await error(403, "address_blocked", BLOCKED)(scope, receive, send)
                return
        await self.app(scope, receive, send)
