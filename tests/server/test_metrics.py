"""`/metrics`: counted after real moves, refusals and storage failures, read live at scrape
time, labelled by route template (never by a path a client picks), and only for the allowed
addresses."""

from __future__ import annotations

import socket
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import FakeClock, Server
from tests.server.test_faults import connection

LOOPBACK = ("127.0.0.1", 40000)
REVEAL = "/api/games/{game_id}/reveal"


def scrape(
    server: Server, client: tuple[str, int] = LOOPBACK
) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of `/metrics` by name and labels."""
    answer = TestClient(server.client.app, client=client).get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_moves_requests_and_durations_are_counted_after_real_moves(server: Server) -> None:
    before = scrape(server)
    game = server.create(rows=9, cols=9, mines=10, seed=1)
    assert server.move(game, "reveal", 4, 4).status_code == 200
    assert server.move(game, "flag", 0, 0).status_code == 200
    assert server.move(game, "flag", 0, 0).status_code == 200
    after = scrape(server)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("mines_moves_total", kind="reveal", where="game") == 1
    assert grew("mines_moves_total", kind="flag", where="game") == 2
    assert grew("mines_moves_total", kind="chord", where="game") == 0
    assert grew("mines_http_requests_total", route=REVEAL, method="POST", status="200") == 1
    assert grew("mines_http_requests_total", route="/api/games", method="POST", status="201") == 1
    assert grew("mines_http_request_duration_seconds_count", route=REVEAL) == 1
    assert grew("mines_http_request_duration_seconds_bucket", route=REVEAL, le="+Inf") == 1
    # Read live at scrape time: the game just played is in the cache, by its real weight.
    assert value(after, "mines_cache_entries", kind="game") >= 1
    assert value(after, "mines_cache_bytes", kind="game") > 0
    assert value(after, "mines_memory_budget_bytes") == server.settings.memory
    assert value(after, "mines_workers_slots", pool="no_guess") == server.settings.no_guess.workers
    assert value(after, "mines_ratelimit_fallback") == 0


def test_a_path_no_route_takes_is_counted_without_the_path(server: Server) -> None:
    assert server.client.get("/no/such/path/x7q").status_code == 404
    samples = scrape(server)
    assert (
        value(samples, "mines_http_requests_total", route="(unmatched)", method="GET", status="404")
        >= 1
    )
    assert not any("x7q" in str(labels) for _, labels in samples)
    assert server.client.request("BREW", "/api/meta").status_code == 405
    samples = scrape(server)
    assert (
        value(samples, "mines_http_requests_total", route="/api/meta", method="OTHER", status="405")
        >= 1
    )


def test_a_429_before_routing_is_counted_by_its_route_and_reason(
    sqlite_url: str, clock: FakeClock
) -> None:
    from mines.server.common.settings import RateLimits

    server = Server(sqlite_url, clock, rates=RateLimits(create="1/minute"))
    try:
        before = scrape(server)
        server.create()
        refused = server.client.post("/api/games", json={"preset": "beginner"})
        assert refused.status_code == 429
        after = scrape(server)
        route = {"route": "/api/games", "method": "POST", "status": "429"}
        assert (
            value(after, "mines_http_requests_total", **route)
            - value(before, "mines_http_requests_total", **route)
            == 1
        )
        code = {"status": "429", "code": "rate_limited"}
        assert (
            value(after, "mines_error_answers_total", **code)
            - value(before, "mines_error_answers_total", **code)
            == 1
        )
    finally:
        server.close()


def test_a_failing_database_counts_a_storage_error_and_a_503(server: Server) -> None:
    game = server.create()
    before = scrape(server)
    connection(server).execute("PRAGMA query_only = ON")
    try:
        assert server.move(game, "flag", 1, 1).status_code == 503
    finally:
        connection(server).execute("PRAGMA query_only = OFF")
    after = scrape(server)
    assert (
        value(after, "mines_storage_errors_total") - value(before, "mines_storage_errors_total")
        == 1
    )
    code = {"status": "503", "code": "storage_unavailable"}
    assert (
        value(after, "mines_error_answers_total", **code)
        - value(before, "mines_error_answers_total", **code)
        == 1
    )


def test_open_websockets_are_read_at_scrape_time(server: Server) -> None:
    game = server.create()
    assert value(scrape(server), "mines_websockets_open") == 0
    with server.client.websocket_connect(f"/api/games/{game['id']}/live") as live:
        live.receive_json()
        assert value(scrape(server), "mines_websockets_open") == 1
    assert value(scrape(server), "mines_websockets_open") == 0


def test_the_limiter_on_its_fallback_shows(sqlite_url: str, clock: FakeClock) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Server(sqlite_url, clock, redis=f"redis://127.0.0.1:{port}/0")  # nobody listens
    try:
        assert server.client.get("/api/meta").status_code == 200  # served, not counted
        assert value(scrape(server), "mines_ratelimit_fallback") == 1
    finally:
        server.close()


def test_metrics_answer_only_the_allowed_addresses(sqlite_url: str, clock: FakeClock) -> None:
    server = Server(sqlite_url, clock, metrics_allow=("10.0.0.0/8",))
    try:
        assert (
            TestClient(server.client.app, client=("10.1.2.3", 1)).get("/metrics").status_code == 200
        )
        for client in (LOOPBACK, ("192.0.2.1", 1), ("testclient", 1)):
            refused = TestClient(server.client.app, client=client).get("/metrics")
            assert refused.status_code == 404
            assert refused.json()["code"] == "not_found"
    finally:
        server.close()


def test_metrics_answer_loopback_by_default_and_no_one_else(server: Server) -> None:
    assert TestClient(server.client.app, client=("::1", 1)).get("/metrics").status_code == 200
    assert (
        TestClient(server.client.app, client=("::ffff:127.0.0.1", 1)).get("/metrics").status_code
        == 200
    )
    assert server.client.get("/metrics").status_code == 404  # the test client's address
    assert TestClient(server.client.app, client=("192.0.2.1", 1)).get("/metrics").status_code == 404


def test_without_metrics_nothing_is_counted_and_metrics_is_404(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = Server(sqlite_url, clock, metrics=False)
    try:
        loopback = TestClient(server.client.app, client=LOOPBACK)
        assert loopback.get("/metrics").status_code == 404
        before = scrape_registry(server)
        assert server.client.get("/api/meta").status_code == 200
        assert scrape_registry(server) == before
    finally:
        server.close()


def scrape_registry(server: Server) -> float:
    """The requests counted for `/api/meta`, read from the app's registry directly."""
    from prometheus_client import generate_latest

    app: Any = server.client.app
    text = generate_latest(app.state.metrics).decode()
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    labels = {"route": "/api/meta", "method": "GET", "status": "200"}
    return value(samples, "mines_http_requests_total", **labels)


def test_race_moves_are_counted_apart_from_games(sqlite_url: str, clock: FakeClock) -> None:
    from mines.server.app import create_app
    from mines.server.services.rooms import RoomService
    from tests.server.test_races import FIRST, move, started

    server = Server(sqlite_url, clock)
    app = create_app(server.service, RoomService(server.service.storage, clock=clock))
    try:
        with TestClient(app, client=LOOPBACK) as client:

            def races(kind: str) -> float:
                text = client.get("/metrics").text
                samples = {
                    (s.name, frozenset(s.labels.items())): s.value
                    for family in text_string_to_metric_families(text)
                    for s in family.samples
                }
                return value(samples, "mines_moves_total", kind=kind, where="race")

            before = races("reveal"), races("flag")
            room_id, tokens = started(client, clock, players=2)
            assert move(client, room_id, tokens[0], "reveal", FIRST).status_code == 200
            assert move(client, room_id, tokens[1], "flag", (0, 0)).status_code == 200
            assert (races("reveal"), races("flag")) == (before[0] + 1, before[1] + 1)
    finally:
        server.close()
