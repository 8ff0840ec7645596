"""`/healthz` and `/readyz` with the real Redis and PostgreSQL behind a proxy the test cuts or
stalls: readiness names the failing dependency, liveness stays 200, and a storm of probes on a
hung dependency runs one check, not one per probe."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from mines.server.app import create_app
from mines.server.common.settings import RateLimits, Settings
from mines.server.db.database import open_storage
from mines.server.services.games import GameService
from tests.server.conftest import UNLIMITED, FakeClock, Server
from tests.server.tcpproxy import TcpProxy, proxy_to
from tests.server.test_ratelimit import redis_or_skip


@pytest.fixture
def redis_proxy() -> Iterator[TcpProxy]:
    redis_or_skip()
    with proxy_to(6379) as proxy:
        yield proxy


@pytest.fixture
def behind_proxy(sqlite_url: str, clock: FakeClock, redis_proxy: TcpProxy) -> Iterator[Server]:
    # Half the probe's second: a loaded machine's first ping through the proxy (a new
    # connection on the test client's new event loop) may take longer than a 0.1 s timeout,
    # and a stalled Redis must still be the limiter's timeout, not the probe's.
    server = Server(
        sqlite_url, clock, redis=f"redis://127.0.0.1:{redis_proxy.port}/0", redis_timeout=0.5
    )
    yield server
    redis_proxy.restore()  # a stalled check ends before the service closes
    server.close()


def ready_checks(client: TestClient) -> dict[str, str]:
    """The checks of the first of a few probes that answers 200 (a loaded machine may miss one
    ping); fails when none of them does."""
    for _ in range(5):
        answer = client.get("/readyz")
        if answer.status_code == 200:
            checks: dict[str, str] = answer.json()["checks"]
            return checks
    raise AssertionError(f"never ready: {answer.status_code} {answer.text}")


def test_liveness_is_200_and_never_cached(server: Server) -> None:
    answer = server.client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert answer.headers["cache-control"] == "no-store"


def test_readiness_checks_the_database_and_no_redis_when_none_is_set(server: Server) -> None:
    answer = server.client.get("/readyz")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "status": "ready",
        "failing": [],
        "degraded": [],
        "checks": {"database": "ok"},
    }
    assert answer.headers["cache-control"] == "no-store"


def test_an_unreachable_redis_degrades_readiness_without_failing_it(
    behind_proxy: Server, redis_proxy: TcpProxy
) -> None:
    client = behind_proxy.client
    assert ready_checks(client) == {"database": "ok", "redis": "ok"}
    redis_proxy.cut()
    degraded = client.get("/readyz")
    assert degraded.status_code == 200, degraded.text  # every process would fail at once
    body = degraded.json()
    assert body["status"] == "ready"
    assert body["failing"] == []
    assert body["degraded"] == ["redis"]
    assert body["checks"] == {"database": "ok", "redis": "error"}
    assert client.get("/healthz").status_code == 200
    redis_proxy.restore()
    ready_checks(client)


def test_a_hung_redis_is_a_timeout_and_liveness_still_answers(
    behind_proxy: Server, redis_proxy: TcpProxy
) -> None:
    client = behind_proxy.client
    ready_checks(client)
    redis_proxy.stall()
    degraded = client.get("/readyz")
    assert degraded.status_code == 200, degraded.text
    assert degraded.json()["degraded"] == ["redis"]
    assert degraded.json()["checks"]["redis"] == "timeout"
    assert client.get("/healthz").status_code == 200


def test_a_storm_of_probes_on_a_hung_redis_runs_one_check(
    behind_proxy: Server, redis_proxy: TcpProxy
) -> None:
    app = behind_proxy.client.app
    redis_proxy.stall()
    before = redis_proxy.accepted

    opened: list[int] = []  # connections the storm opened (a timed-out one is dropped after)

    async def storm() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://mines") as client:
            answers = await asyncio.gather(*(client.get("/readyz") for _ in range(20)))
            opened.append(redis_proxy.accepted - before)
            redis_proxy.restore()  # the one check in flight finishes in this loop
            await client.get("/readyz")
            return list(answers)

    answers = asyncio.run(storm())
    assert [a.status_code for a in answers] == [200] * 20  # degraded, not failing
    assert {a.json()["checks"]["redis"] for a in answers} == {"timeout"}
    # Each check in its own thread would have opened its own connection to Redis: 19 more.
    assert opened[0] <= 1


def test_an_unreachable_postgresql_makes_readiness_503_naming_the_database(
    pg_url: str, clock: FakeClock
) -> None:
    parts = urlsplit(pg_url)
    with proxy_to(parts.port or 5432) as proxy:
        url = parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}").geturl()
        settings = Settings.model_validate({"database": url, "rates": UNLIMITED})
        service = GameService(open_storage(url), settings, wall=clock)
        try:
            client = TestClient(create_app(service))
            assert client.get("/readyz").json()["checks"] == {"database": "ok"}
            proxy.cut()
            refused = client.get("/readyz")
            assert refused.status_code == 503, refused.text
            assert refused.json()["failing"] == ["database"]
            assert client.get("/healthz").status_code == 200
            proxy.restore()
            assert client.get("/readyz").status_code == 200
        finally:
            service.close()


def test_probes_are_not_rate_limited(sqlite_url: str, clock: FakeClock) -> None:
    server = Server(sqlite_url, clock, rates=RateLimits(address="1/minute"))
    try:
        assert server.client.get("/api/meta").status_code == 200
        assert server.client.get("/api/meta").status_code == 429  # the rate is spent
        for _ in range(3):
            assert server.client.get("/healthz").status_code == 200
            assert server.client.get("/readyz").status_code == 200
    finally:
        server.close()
