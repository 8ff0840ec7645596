"""Rate limits: per address and per game, 429 with `Retry-After`, shared by two server
processes through Redis."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest

from mines.server.ratelimit import RateLimiter
from mines.server.settings import RateLimits
from tests.server.conftest import FakeClock, Server
from tests.server.processes import post, server_process

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


def test_every_request_counts_against_the_address(sqlite_url: str, clock: FakeClock) -> None:
    server = limited(sqlite_url, clock, RateLimits(address="5/minute"))
    try:
        answers = [server.client.get("/api/leaderboard").status_code for _ in range(6)]
        assert answers == [200] * 5 + [429]
        assert server.client.get("/").status_code == 200  # the page itself is not counted
    finally:
        server.close()


def test_a_failing_redis_does_not_refuse_everyone() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    limiter = RateLimiter(RateLimits(create="1/minute"), f"redis://127.0.0.1:{port}/0")
    assert limiter.refusal("create", "a") is None  # nobody listens there: serve, and log


def redis_or_skip() -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis is not reachable at {REDIS}: {error}")


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
