"""A rolling restart through the shipped nginx while players play: each process drained
(SIGUSR1) and started again in turn, as `systemctl restart mines@PORT` does with the shipped
unit, and not one request fails."""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

from tests.server.cluster import nginx, shipped_settings, site_for_test
from tests.server.processes import free_port, server_process
from tests.server.rolling import rolling_restart
from tests.server.test_deploy import nginx_or_skip
from tests.server.test_ratelimit import redis_or_skip


def test_a_rolling_restart_through_nginx_fails_no_request(pg_url: str, tmp_path: Path) -> None:
    redis_or_skip()
    nginx_or_skip()
    env = {**os.environ, **shipped_settings(), "MINES_DB": pg_url}
    env["MINES_REDIS_PREFIX"] = f"mines-rolling-{tmp_path.name}"
    # The players all come from 127.0.0.1: the per-address rates are a real crowd's.
    env["MINES_RATE_LIMIT_ADDRESS"] = env["MINES_RATE_LIMIT_CREATE"] = "100000/second"
    ports = (free_port(), free_port())
    with ExitStack() as stack:
        processes = [
            stack.enter_context(server_process(pg_url, port=port, env=env)) for port in ports
        ]
        site = site_for_test(ports, free_port(), tmp_path / "cache")
        url = stack.enter_context(nginx(site, tmp_path))
        rolled = rolling_restart(url, processes, pg_url, env, stack)
    print(f"rolling restart: {rolled.requests} requests, failed: {rolled.failures[:5]}")
    assert rolled.requests > 100
    assert rolled.failures == []
