"""`Hub`: fans each game's moves out to the WebSockets watching it, in this process."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

QUEUE_LIMIT = 256
REFRESH: dict[str, Any] = {"type": "refresh"}
"""Sent instead of messages a slow watcher missed: it should read the whole view again."""


class Hub:
    """Subscribers per game ID; publishing never waits for a slow subscriber."""

    def __init__(
        self,
        first: Callable[[str], None] = lambda key: None,
        last: Callable[[str], None] = lambda key: None,
    ) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self._first, self._last = first, last
        """Told when an ID gets its first subscriber, and when its last one leaves (the
        other processes' frames of that game are then asked for, or no longer)."""

    @contextmanager
    def subscribe(self, game_id: str) -> Iterator[asyncio.Queue[dict[str, Any]]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_LIMIT)
        if game_id not in self._queues:
            self._first(game_id)
        self._queues[game_id].add(queue)
        try:
            yield queue
        finally:
            self._queues[game_id].discard(queue)
            if not self._queues[game_id]:
                del self._queues[game_id]
                self._last(game_id)

    def publish(self, game_id: str, message: dict[str, Any]) -> None:
        for queue in self._queues.get(game_id, ()):
            if queue.full():
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(REFRESH)
            else:
                queue.put_nowait(message)

    def watched(self) -> list[str]:
        """The IDs that have a subscriber now."""
        return list(self._queues)

    def watchers(self, game_id: str) -> int:
        return len(self._queues.get(game_id, ()))
