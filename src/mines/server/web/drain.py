"""Draining a process before it stops: `/readyz` fails and every answer closes its connection;
then the process stops listening (a proxy's next connection is refused, and retried on another
process), answers what it has accepted, and exits."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

DRAIN_SECONDS = 6.0
"""Seconds a draining process keeps listening, each answer closing its connection: past
nginx's upstream keep-alive (4 s in deploy/nginx/mines.conf), so that no idle connection to
it is left for a request to be sent on while it closes; past nginx's 5 s `fail_timeout`, so
that a process restarted just before counts as up again; and time for a proxy probing
`/readyz` to see it fail."""
LINGER_SECONDS = 2.0
"""Seconds between closing the listening socket and the shutdown: the connections already
accepted send their requests and get their answers (a shutdown closes a connection whose
request it has not read yet, and a proxy never sends a POST again once it was sent)."""
DRAIN_SIGNAL = signal.SIGUSR1
"""`kill -USR1 PID` (`systemctl kill -s USR1 mines@8001`) drains a process, then it exits."""


def _terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


class Drain:
    """Whether the process drains; `start` runs the steps on the event loop. `mines serve`
    sets `stop_listening` and `exit` to its uvicorn server's."""

    def __init__(self, seconds: float = DRAIN_SECONDS, linger: float = LINGER_SECONDS):
        self.seconds = seconds
        self.linger = linger
        self.stop_listening: Callable[[], None] = lambda: None
        self.exit: Callable[[], None] = _terminate
        self._draining = False

    @property
    def draining(self) -> bool:
        return self._draining

    def start(self) -> None:
        """Drain now (once; a second signal changes nothing). Called on the event loop's
        thread: by the signal handler, between two steps of the loop."""
        if self._draining:
            return
        self._draining = True
        loop = asyncio.get_running_loop()
        # From a signal handler only the thread-safe call may touch the loop.
        loop.call_soon_threadsafe(loop.call_later, self.seconds, self._stop_listening)

    def _stop_listening(self) -> None:
        log.info("draining: no longer listening; exiting in %g s", self.linger)
        self.stop_listening()
        asyncio.get_running_loop().call_later(self.linger, self.exit)

    def on_signal(self, signum: int = DRAIN_SIGNAL) -> None:
        """Drain on `signum`."""

        def handle(*_: object) -> None:
            log.info(
                "draining: /readyz fails and connections close; no longer listening in %g s",
                self.seconds,
            )
            self.start()

        signal.signal(signum, handle)


class CloseWhileDraining:
    """While the process drains, every HTTP answer says `Connection: close`: the client (the
    proxy) opens its next connection anew, and no idle one is left to break."""

    def __init__(self, app: ASGIApp, drain: Drain):
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.drain.draining:
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [h for h in message.get("headers", []) if h[0].lower() != b"connection"]
                message = {**message, "headers": [*kept, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, closing)
