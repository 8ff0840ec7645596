"""The server's Prometheus metrics: the counters its parts bump, and what a scrape reads live."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
)
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector

import mines
from mines.moves import MoveKind

# The counters belong to the process, as the process is what Prometheus scrapes; each app
# gets its own registry (`registry`) that holds them beside its live gauges.
REQUESTS = Counter(
    "mines_http_requests",
    "HTTP requests answered, by route template, method and status",
    ("route", "method", "status"),
    registry=None,
)
DURATION = Histogram(
    "mines_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by route template",
    ("route",),
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=None,
)
ERRORS = Counter(
    "mines_error_answers",
    "Error answers by status and code (429 rate_limited, 503 server_full, 503 "
    "storage_unavailable, ...; docs/server.md lists the codes)",
    ("status", "code"),
    registry=None,
)
MOVES = Counter(
    "mines_moves",
    "Moves applied and stored, by kind and by game or race",
    ("kind", "where"),
    registry=None,
)
STORAGE_ERRORS = Counter(
    "mines_storage_errors",
    "Database operations that failed (connection lost, disk full, ...)",
    registry=None,
)
_MOVE_COUNTS = {
    (kind, where): MOVES.labels(kind.verb, where) for kind in MoveKind for where in ("game", "race")
}


def count_move(kind: MoveKind, where: str) -> None:
    """Count a move answered with success in a game or a race (`where`)."""
    _MOVE_COUNTS[kind, where].inc()


SHARED = (REQUESTS, DURATION, ERRORS, MOVES, STORAGE_ERRORS)

UNMATCHED = "(unmatched)"
"""The route label of a request no route takes (a 404): never the path, which a client picks."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods counted by name; any other is counted as `OTHER`, so clients cannot add labels."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """The networks `--metrics-allow` or `--forwarded-allow-ips` names (`10.0.0.0/8`,
    `192.0.2.7`, `*` for every address); ValueError for a text that is none of these."""
    found: list[Network] = []
    for text in (text.strip() for text in texts):
        if text == "*":
            found += (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))
        elif text:
            found.append(ipaddress.ip_network(text, strict=False))
    return tuple(found)


def allowed(host: str | None, allow: Sequence[Network]) -> bool:
    """Whether a client address is in one of the allowed networks."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False  # a test client's "testclient", a Unix socket
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in allow)


def method_label(method: str) -> str:
    return method if method in METHODS else "OTHER"


@dataclass(frozen=True, slots=True)
class Live:
    """What a scrape reads from the running server, each as a function called at scrape time."""

    cache: Callable[[], Iterable[tuple[str, int]]]
    """(kind, bytes) of each entry in the games' cache: `game` or `room`."""
    cache_budget: int
    cache_used: Callable[[], int]
    websockets: Callable[[], int]
    workers: Callable[[], Iterable[tuple[str, int, int]]]
    """(pool, busy, slots) of each worker pool."""
    fallback: Callable[[], bool]
    """Whether the rate limiter counts in memory because its shared storage (Redis) failed."""


class LiveCollector(Collector):
    """Gauges read at scrape time, so that nothing is counted on the requests' path."""

    def __init__(self, live: Live):
        self.live = live

    def collect(self) -> Iterator[Metric]:
        live = self.live
        entries = GaugeMetricFamily(
            "mines_cache_entries", "Games and race rooms live in memory", labels=("kind",)
        )
        weights = GaugeMetricFamily(
            "mines_cache_bytes", "Bytes the live games and race rooms hold", labels=("kind",)
        )
        tally = {"game": [0, 0], "room": [0, 0]}
        for kind, weight in live.cache():
            tally[kind][0] += 1
            tally[kind][1] += weight
        for kind, (count, total) in tally.items():
            entries.add_metric((kind,), count)
            weights.add_metric((kind,), total)
        yield entries
        yield weights
        yield GaugeMetricFamily(
            "mines_memory_used_bytes",
            "Bytes of the memory budget in use: live games and rooms, and the work of requests",
            value=live.cache_used(),
        )
        yield GaugeMetricFamily(
            "mines_memory_budget_bytes", "The memory budget (--memory)", value=live.cache_budget
        )
        yield GaugeMetricFamily(
            "mines_websockets_open",
            "Live WebSockets (game and race watchers)",
            value=live.websockets(),
        )
        busy = GaugeMetricFamily(
            "mines_workers_busy", "Worker processes at work, by pool", labels=("pool",)
        )
        slots = GaugeMetricFamily(
            "mines_workers_slots", "Worker processes a pool may run at once", labels=("pool",)
        )
        for pool, working, most in live.workers():
            busy.add_metric((pool,), working)
            slots.add_metric((pool,), most)
        yield busy
        yield slots
        yield GaugeMetricFamily(
            "mines_ratelimit_fallback",
            "1 while the rate limits are counted in this process only because Redis failed",
            value=int(live.fallback()),
        )
        info = InfoMetricFamily("mines_build", "The server's version")
        info.add_metric((), {"version": mines.__version__})
        yield info


def registry(live: Live) -> CollectorRegistry:
    """A registry for one app: the process's counters, its live gauges, and the process's
    CPU, memory, open files and garbage collections."""
    found = CollectorRegistry(auto_describe=True)
    # prometheus_client's own collectors of the process, shared with its default registry.
    process = (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR)
    for collector in (*SHARED, LiveCollector(live), *process):
        found.register(collector)
    return found
