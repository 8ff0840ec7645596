"""`RedisFanout`: a game's or race room's live frames to its watchers in every process, by Redis."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import redis
from prometheus_client import Counter
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

Deliver = Callable[[str, dict[str, Any]], None]

POLL_SECONDS = 1.0
RETRY_FIRST = 0.1
RETRY_MOST = 5.0
"""Seconds between tries to reach Redis again: the first wait, doubled up to this."""
SUBSCRIBE_CONNECT_TIMEOUT = 1.0
HEALTH_CHECK_SECONDS = 10
HELLO = "-"
"""A channel every process subscribes to, so the subscription's connection is always open
(and its loss noticed) even while nothing here is watched."""

MESSAGES = Counter(
    "mines_fanout_messages",
    "Live frames through Redis: published (one per stored move) and received from other "
    "processes (one per process watching that game)",
    ("direction",),
    registry=None,
)


class RedisFanout:
    """One Redis channel per watched game or race room (`<prefix>:live:<key>`).

    A process stores a move, then publishes its frame on the game's channel; Redis hands it
    to the processes subscribed there, which are those with a watcher of that game (`watch`
    when the first one comes, `unwatch` when the last goes), and to no other. A process that
    lost its subscription (Redis restarted, a network cut) has missed frames: once it is
    subscribed again it calls `missed`, and every watcher reads its game again, as a browser
    does after a lost connection. Everything here runs on the server's event loop.
    """

    def __init__(
        self, url: str, *, prefix: str, timeout: float, deliver: Deliver, missed: Callable[[], None]
    ):
        self._url, self._prefix, self._timeout = url, prefix, timeout
        self._deliver, self._missed = deliver, missed
        self._origin = uuid.uuid4().hex[:12]  # tells this process's frames from others'
        self._keys: set[str] = set()
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._pubsub: PubSub | None = None
        self._client: Redis | None = None
        self._listening: Redis | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._down_until = 0.0
        self._direct: redis.Redis | None = None
        self._direct_lock = threading.Lock()
        self._direct_down_until = 0.0
        self._unsent: set[str] = set()
        """Games whose frames could not be sent: once Redis answers, a `refresh` goes first."""

    def channel(self, key: str) -> str:
        return f"{self._prefix}:live:{key}"

    def start(self) -> None:
        self._client = Redis.from_url(
            self._url,
            socket_timeout=self._timeout,
            socket_connect_timeout=self._timeout,
            retry=Retry(NoBackoff(), 1),
        )
        # The subscription waits on its socket by itself (`get_message`'s timeout), so no read
        # deadline: a busy moment must not cut it (its watchers would all read again). A PING
        # now and then finds a connection that died without a word.
        self._listening = Redis.from_url(
            self._url,
            socket_connect_timeout=max(self._timeout, SUBSCRIBE_CONNECT_TIMEOUT),
            health_check_interval=HEALTH_CHECK_SECONDS,
            retry=Retry(NoBackoff(), 0),
        )
        # For the worker threads' messages (`send`): one connection, used one thread at a time.
        self._direct = redis.Redis.from_url(
            self._url,
            socket_timeout=self._timeout,
            socket_connect_timeout=self._timeout,
            retry=redis.retry.Retry(NoBackoff(), 1),
        )
        self._task = asyncio.create_task(self._run(), name="mines-fanout")
        self._loop = asyncio.get_running_loop()
        self._sender = asyncio.create_task(self._send_in_order(), name="mines-fanout-send")

    async def stop(self) -> None:
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        for pending in self._pending.values():
            pending.cancel()
        for client in (self._client, self._listening):
            if client is not None:
                await client.aclose()
        if self._direct is not None:
            self._direct.close()

    async def publish(self, key: str, message: dict[str, Any]) -> None:
        """Send a stored move's frame to the other processes' watchers of its game. A Redis
        that fails costs one timeout, then is left alone for a while: the move is stored
        either way, and the watchers elsewhere of every game whose frame was not sent are
        told to read it again (`refresh`) with the first frame that goes through after."""
        loop = asyncio.get_running_loop()
        if self._client is None or loop.time() < self._down_until:
            self._unsent.add(key)
            return
        try:
            while self._unsent:  # frames that were lost: their watchers elsewhere read again
                lost = next(iter(self._unsent))
                await self._send(lost, {"type": "refresh"})
                self._unsent.discard(lost)
            await self._send(key, message)
        except (RedisError, OSError) as failure:
            self._unsent.add(key)
            self._down_until = loop.time() + RETRY_MOST
            log.warning("live frames through Redis failed (%s); retrying in a while", failure)

    def send(self, key: str, message: dict[str, Any]) -> None:
        """`publish` from a worker thread, in the order of the calls: a race room's stored
        moves, sent by the thread that stored them (under the room's lock), without waiting
        for the event loop. A Redis that fails costs one timeout, then this thread's messages
        go the event loop's way for a while (`publish`: paused, then a `refresh` first)."""
        direct = self._direct
        if direct is not None and time.monotonic() >= self._direct_down_until:
            try:
                with self._direct_lock:
                    direct.publish(self.channel(key), self._payload(message))
                MESSAGES.labels("published").inc()
                return
            except (RedisError, OSError):
                self._direct_down_until = time.monotonic() + RETRY_MOST
        self._to_loop(key, message)

    def _to_loop(self, key: str, message: dict[str, Any]) -> None:
        """`publish` on the event loop, after every message handed to it before."""
        if self._loop is None:
            return
        try:
            self._loop.call_soon_threadsafe(self._outbox.put_nowait, (key, message))
        except RuntimeError:  # the loop has closed: the server is stopping
            return

    async def _send_in_order(self) -> None:
        while True:
            key, message = await self._outbox.get()
            await self.publish(key, message)

    async def _send(self, key: str, message: dict[str, Any]) -> None:
        assert self._client is not None
        await self._client.publish(self.channel(key), self._payload(message))
        MESSAGES.labels("published").inc()

    def _payload(self, message: dict[str, Any]) -> str:
        return f"{self._origin} {json.dumps(message, separators=(',', ':'))}"

    def watch(self, key: str) -> None:
        """This process has a first watcher of `key`: subscribe to its channel."""
        self._keys.add(key)
        if self._pubsub is not None:
            task = asyncio.create_task(self._pubsub.subscribe(self.channel(key)))
            task.add_done_callback(_quiet)
            self._pending[key] = task

    def unwatch(self, key: str) -> None:
        self._keys.discard(key)
        self._pending.pop(key, None)
        if self._pubsub is not None:
            task = asyncio.create_task(_unsubscribe(self._pubsub, self.channel(key)))
            task.add_done_callback(_quiet)

    async def joined(self, key: str) -> None:
        """Return once `key`'s subscription is in place (or Redis failed: then `missed`
        follows when it is back), so that a watcher reads its view after it."""
        pending = self._pending.pop(key, None)
        if pending is not None:
            try:
                await asyncio.wait_for(asyncio.shield(pending), self._timeout * 10)
            except (RedisError, OSError, TimeoutError):
                return

    async def _run(self) -> None:
        wait = RETRY_FIRST
        lost = False
        while True:
            assert self._listening is not None
            pubsub = self._listening.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(HELLO), *map(self.channel, self._keys))
                self._pubsub = pubsub
                if lost:
                    log.warning("live frames through Redis are back: watchers read again")
                    lost, wait = False, RETRY_FIRST
                if self._keys:
                    self._missed()  # whatever was sent before the subscription is read again
                while True:
                    message = await pubsub.get_message(timeout=POLL_SECONDS)
                    if message is not None:
                        self._receive(message)
            except (RedisError, OSError) as failure:
                if not lost:
                    log.warning(
                        "live frames through Redis lost their subscription (%s); other "
                        "processes' moves reach no watcher here until it is back (retrying)",
                        str(failure).strip() or type(failure).__name__,
                    )
                lost = True
                self._pubsub = None
                await _close(pubsub)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RETRY_MOST)
            except asyncio.CancelledError:
                await _close(pubsub)
                raise

    def _receive(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        data = message["data"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        data = data.decode() if isinstance(data, bytes) else str(data)
        origin, _, body = data.partition(" ")
        key = channel.removeprefix(f"{self._prefix}:live:")
        if origin == self._origin or key == HELLO:
            return  # this process's own frames went to its watchers already
        try:
            frame = json.loads(body)
        except ValueError:
            return
        MESSAGES.labels("received").inc()
        self._deliver(key, frame)


def _quiet(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: a failed (un)subscription is the loss `_run` handles


async def _unsubscribe(pubsub: PubSub, channel: str) -> None:
    await pubsub.unsubscribe(channel)


async def _close(pubsub: PubSub) -> None:
    try:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
    except (RedisError, OSError):
        return
