"""Rate limits: per address and per game, 429 with `Retry-After`, shared by two server
processes through Redis."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from mines.server.api import games
from mines.server.common.settings import RateLimits
from mines.server.web.ratelimit import RATE_KEY, RateLimiter
from tests.patience import PATIENCE
from tests.server.conftest import FakeClock, Server
from tests.server.processes import get, post, server_process
from tests.server.tcpproxy import proxy_to
from tests.services import import_for_service, service_missing

REDIS = "redis://127.0.0.1:6379/0"


def limited(sqlite_url: str, clock: FakeClock, rates: RateLimits) -> Server:
    return Server(sqlite_url, clock, rates=rates)


def test_creations_past_the_address_rate_are_429(sqlite_url: str, clock: FakeClock) -> None:
    server = limited(sqlite_url, clock, RateLimits(create="3/minute"))
    try:
        for _ in range(3):
            server.create()
        refused = server.client.post("/api/games", json={"preset": "beginner"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.headers["x-content-type-options"] == "nosniff"
    finally:
        server.close()


def test_moves_past_the_game_rate_are_429_and_other_games_go_on(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = limited(sqlite_url, clock, RateLimits(game="4/minute"))
    try:
        game, other = server.create(), server.create()
        for _ in range(4):
            assert server.move(game, "flag", 0, 0).status_code == 200
        refused = server.move(game, "flag", 0, 0)
        assert refused.status_code == 429
        assert "this game" in refused.json()["detail"]
        assert server.move(other, "flag", 0, 0).status_code == 200
        # The refused move changed nothing: four toggles leave the cell hidden.
        assert server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"][0][0] == "H"
    finally:
        server.close()


def test_a_stranger_spends_their_own_budget_not_the_players(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = limited(sqlite_url, clock, RateLimits(game="5/minute", denied="4/minute"))
    try:
        game = server.create()
        moves = f"/api/games/{game['id']}/flag"
        stranger = TestClient(server.client.app, client=("10.0.0.66", 40000))
        server.service.cache.drop(game["id"])  # the first check reads the game; the next, kept
        tries = [
            stranger.post(moves, json={"row": 0, "col": 0}),
            stranger.post(moves, json={"row": 0, "col": 0}, headers={"Authorization": "Bearer x"}),
            stranger.post(moves, json={"row": 0, "col": 0}, headers={"Authorization": "Bearer x"}),
            stranger.post("/api/games/0123456789abcdef/flag", json={"row": 0, "col": 0}),
            stranger.post(moves, json={"row": 0, "col": 0}),
        ]
        assert [answer.status_code for answer in tries] == [401, 403, 403, 401, 429]
        assert "refused for their token" in tries[-1].json()["detail"]
        # The player's budget is whole, and the game's rate still holds for them.
        assert [server.move(game, "flag", 1, 1).status_code for _ in range(6)] == [200] * 5 + [429]
    finally:
        server.close()


def test_the_limits_are_declared_on_the_routes_they_limit(sqlite_url: str) -> None:
    """Each limited route says so in its own declaration (and the schema): no path pattern
    re-derives them, so a route renamed or added keeps or gets its limit."""
    server = Server(sqlite_url, FakeClock())
    try:
        schema = server.client.get("/openapi.json").json()["paths"]
    finally:
        server.close()
    declared = {
        (path, operation[RATE_KEY])
        for path, operations in schema.items()
        for operation in operations.values()
        if RATE_KEY in operation
    }
    moves = {f"/api/games/{{game_id}}/{verb}" for verb in ("reveal", "flag", "chord")}
    race_moves = {f"/api/races/{{room_id}}/{verb}" for verb in ("reveal", "flag", "chord")}
    assert declared == (
        {("/api/games", "create"), ("/api/races", "create")}
        | {(path, "game") for path in moves}
        | {(path, "room") for path in race_moves}
    )


def test_a_renamed_move_route_keeps_its_game_limit(sqlite_url: str, clock: FakeClock) -> None:
    server = limited(sqlite_url, clock, RateLimits(game="2/minute"))
    try:
        # The flag route's endpoint and declaration at a new path, as a rename would leave it
        # (before the first request: the limiter reads the declarations once).
        flag = next(r for r in games.router.routes if getattr(r, "name", "") == "flag")
        assert isinstance(flag, APIRoute)
        server.client.app.router.add_api_route(  # type: ignore[attr-defined]
            "/api/play/{game_id}/mark",
            flag.endpoint,
            methods=["POST"],
            openapi_extra=flag.openapi_extra,
        )
        game = server.create()
        headers = {"Authorization": f"Bearer {game['token']}"}
        answers = [
            server.client.post(
                f"/api/play/{game['id']}/mark", json={"row": 0, "col": 0}, headers=headers
            ).status_code
            for _ in range(3)
        ]
        assert answers == [200, 200, 429]
    finally:
        server.close()


def test_every_request_counts_against_the_address(sqlite_url: str, clock: FakeClock) -> None:
    server = limited(sqlite_url, clock, RateLimits(address="5/minute"))
    try:
        answers = [server.client.get("/api/leaderboard").status_code for _ in range(6)]
        assert answers == [200] * 5 + [429]
        assert server.client.get("/").status_code == 200  # the page itself is not counted
    finally:
        server.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def hits(limiter: RateLimiter, count: int, kind: str = "create", key: str = "a") -> list[bool]:
    """Whether each of `count` requests in a row was allowed."""

    async def run() -> list[bool]:
        return [await limiter.refusal(kind, key) is None for _ in range(count)]

    return asyncio.run(run())


def test_a_redis_that_is_down_leaves_the_limits_to_each_process(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter = RateLimiter(RateLimits(create="3/minute"), f"redis://127.0.0.1:{closed_port()}/0")
    with caplog.at_level(logging.WARNING, logger="mines.server.web.ratelimit"):
        # Nobody listens there: the rate is counted in memory, not dropped.
        assert hits(limiter, 5) == [True] * 3 + [False] * 2
    assert limiter.failing
    assert [record.message.startswith("Redis failed") for record in caplog.records] == [True]


def redis_or_skip() -> None:
    redis = import_for_service("redis", "Redis tests need the redis client (the server extra)")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        service_missing(f"Redis is not reachable at {REDIS}: {error}")


def test_two_processes_share_the_rate_through_redis(tmp_path: Path) -> None:
    redis_or_skip()
    prefix = f"mines-test-{uuid.uuid4().hex[:8]}"
    options = ["--redis", REDIS, "--rate-limit-create", "3/minute", "--redis-prefix", prefix]
    database = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    other = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    with (
        server_process(database, extra=options) as one,
        server_process(other, extra=options) as two,
    ):
        statuses = [
            post(f"{url}/api/games", json={"preset": "beginner"}).status_code
            for url in (one.url, two.url, one.url, two.url)
        ]
    assert statuses == [201, 201, 201, 429]


def test_a_hung_redis_neither_freezes_the_server_nor_lifts_the_limits(tmp_path: Path) -> None:
    redis_or_skip()
    prefix = f"mines-test-{uuid.uuid4().hex[:8]}"
    with proxy_to(6379) as proxy:
        options = ["--redis", f"redis://127.0.0.1:{proxy.port}/0", "--redis-prefix", prefix]
        options += ["--rate-limit-create", "5/minute"]
        with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", extra=options) as server:
            assert post(f"{server.url}/api/games", json={"preset": "beginner"}).status_code == 201
            proxy.stall()  # Redis accepts and never answers
            # Each of these would wait for Redis for ever without the timeout.
            statuses = [
                post(f"{server.url}/api/games", json={"preset": "beginner"}).status_code
                for _ in range(7)
            ]
            assert get(f"{server.url}/").status_code == 200
            assert get(f"{server.url}/api/leaderboard").status_code == 200
    # Counted in the process's memory from the outage on: five more, then refused.
    assert statuses == [201] * 5 + [429] * 2


def test_the_limiter_goes_back_to_redis_and_logs_the_outage_twice(
    caplog: pytest.LogCaptureFixture,
) -> None:
    redis_or_skip()
    prefix = f"mines-test-{uuid.uuid4().hex[:8]}"
    rates = RateLimits(create="3/minute")

    async def run(proxy_port: int, stall: Any, restore: Any) -> list[bool]:
        through = RateLimiter(rates, f"redis://127.0.0.1:{proxy_port}/0", prefix=prefix, probe=0)
        other = RateLimiter(rates, REDIS, prefix=prefix)  # another process, on Redis directly
        assert await through.refusal("create", "before") is None
        stall()
        for _ in range(3):
            await through.refusal("create", "during")
        assert through.failing
        restore()
        deadline = time.monotonic() + PATIENCE
        while through.failing and time.monotonic() < deadline:
            await through.refusal("create", "after-probe")
            await asyncio.sleep(0.05)
        assert not through.failing
        # Shared again: the two count together.
        return [
            await limiter.refusal("create", "after") is None
            for limiter in (through, other, through, other)
        ]

    with proxy_to(6379) as proxy, caplog.at_level(logging.WARNING, "mines.server.web.ratelimit"):
        allowed = asyncio.run(run(proxy.port, proxy.stall, proxy.restore))
    assert allowed == [True, True, True, False]
    messages = [record.message for record in caplog.records]
    assert len(messages) == 2
    assert messages[0].startswith("Redis failed")
    assert messages[1].startswith("Redis answers again")


def test_a_real_server_ignores_forwarded_addresses_from_an_unnamed_proxy(tmp_path: Path) -> None:
    # uvicorn itself trusts X-Forwarded-For from 127.0.0.1 unless told not to: only a real
    # process shows it, the test client has no uvicorn.
    options = ["--rate-limit-create", "3/minute"]
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", extra=options) as server:
        statuses = [
            post(
                f"{server.url}/api/games",
                json={"preset": "beginner"},
                headers={"X-Forwarded-For": f"203.0.113.{number}"},
            ).status_code
            for number in range(5)
        ]
    assert statuses == [201] * 3 + [429] * 2
