"""uvicorn's HTTP protocol with deadlines for a request's headers and for its body."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from mines.server.common.settings import BODY_TIMEOUT, HEADER_TIMEOUT


class DeadlineProtocol(HttpToolsProtocol):
    """Closes a connection whose request headers, or body, take longer than their deadline.

    uvicorn itself waits for them for ever: a client that trickles its header lines or sends
    half a body holds its connection (an open file) as long as it likes, and a body never
    finished holds off a graceful shutdown. The keep-alive wait between requests stays
    uvicorn's (`timeout_keep_alive`); the header deadline starts when a request's first byte
    comes, or at the connection for the first request.
    """

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()  # the app, if it waits for the body, gets http.disconnect

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm(self.header_timeout)  # the first byte of the next request on this connection
        super().data_received(data)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the WebSocket protocol takes the connection over
        super().handle_websocket_upgrade()


def deadline_protocol(header_timeout: float, body_timeout: float) -> type[DeadlineProtocol]:
    """The protocol class to give uvicorn (`http=`), with these deadlines in seconds."""
    return type(
        "DeadlineProtocol",
        (DeadlineProtocol,),
        {"header_timeout": header_timeout, "body_timeout": body_timeout},
    )
