"""The shipped deployment, run: Debian's nginx with deploy/nginx/mines.conf in front of two
`mines serve` processes configured by deploy/mines.env on PostgreSQL and Redis; and the
systemd unit's command and settings as `mines serve` reads them."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from mines.cli.main import build_parser
from mines.server.ops.cli import settings_from
from tests.patience import PATIENCE
from tests.server.cluster import (
    UNIT,
    nginx,
    nginx_binary,
    shipped_settings,
    site_for_test,
)
from tests.server.processes import ServerProcess, free_port, get, post, server_process
from tests.server.test_ratelimit import redis_or_skip
from tests.services import service_missing


def nginx_or_skip() -> None:
    if nginx_binary() is None:
        service_missing("nginx is not installed (Debian: apt-get install nginx)")


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path) -> Iterator[tuple[str, list[ServerProcess]]]:
    """nginx and two processes as deploy/ ships them, on this test's own database schema."""
    redis_or_skip()
    nginx_or_skip()
    env = {**os.environ, **shipped_settings(), "MINES_DB": pg_url}
    env["MINES_REDIS_PREFIX"] = f"mines-deploy-{tmp_path.name}"
    with ExitStack() as stack:
        processes = [
            stack.enter_context(server_process(pg_url, port=free_port(), env=env)) for _ in range(2)
        ]
        ports = tuple(int(p.url.rsplit(":", 1)[1]) for p in processes)
        assert len(ports) == 2
        site = site_for_test((ports[0], ports[1]), free_port(), tmp_path / "cache")
        url = stack.enter_context(nginx(site, tmp_path))
        yield url, processes


def access_lines(process: ServerProcess) -> list[dict[str, object]]:
    records = [json.loads(line) for line in process.log().splitlines() if line.startswith("{")]
    return [r for r in records if r["logger"] == "mines.access"]


def logged(processes: list[ServerProcess], ids: set[str]) -> list[dict[str, object]]:
    """The access lines of these request IDs, once every one is written (a line is written
    just after its answer is sent, so it may come a moment after the client has it)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        lines = [line for p in processes for line in access_lines(p)]
        found = [line for line in lines if line["request_id"] in ids]
        if {str(line["request_id"]) for line in found} >= ids or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_nginx_with_the_shipped_files_serves_both_processes(
    cluster: tuple[str, list[ServerProcess]],
) -> None:
    from websockets.sync.client import connect

    url, processes = cluster
    assert get(f"{url}/readyz").json()["checks"] == {"database": "ok", "redis": "ok"}
    # A game through the proxy, watched through the proxy and directly on each process.
    game = post(f"{url}/api/games", json={"preset": "beginner", "seed": 7}).json()
    live = f"/api/games/{game['id']}/live"
    ws_url = url.replace("http", "ws")
    with (
        connect(f"{ws_url}{live}", open_timeout=PATIENCE) as proxied,
        connect(processes[0].url.replace("http", "ws") + live, open_timeout=PATIENCE) as first,
        connect(processes[1].url.replace("http", "ws") + live, open_timeout=PATIENCE) as second,
    ):
        for socket in (proxied, first, second):
            json.loads(socket.recv(timeout=PATIENCE))  # the view first
        headers = {"Authorization": f"Bearer {game['token']}"}
        moved = post(
            f"{url}/api/games/{game['id']}/flag", json={"row": 0, "col": 0}, headers=headers
        )
        assert moved.status_code == 200, moved.text
        for socket in (proxied, first, second):  # whichever process took the move
            assert socket.recv(timeout=PATIENCE)
    # Requests spread over both processes, each logging the proxy's request ID.
    answers = [get(f"{url}/api/meta") for _ in range(8)]
    ids = {a.headers["x-request-id"] for a in answers}
    assert all(re.fullmatch(r"[0-9a-f]{32}", rid) for rid in ids)
    found = logged(processes, ids)
    assert {str(line["request_id"]) for line in found} == ids
    assert all(access_lines(p) for p in processes), "one process got no request"


def test_the_proxy_hides_metrics_drops_forged_addresses_and_caches_static_files(
    cluster: tuple[str, list[ServerProcess]],
) -> None:
    url, processes = cluster
    assert get(f"{url}/metrics").status_code == 404
    assert get(f"{processes[0].url}/metrics").status_code == 200  # scraped directly
    forged = get(f"{url}/api/meta", headers={"X-Forwarded-For": "203.0.113.9"})
    rid = forged.headers["x-request-id"]
    lines = logged(processes, {rid})
    assert [line["client"] for line in lines] == ["127.0.0.1"]  # nginx's $remote_addr
    page = get(f"{url}/").text
    asset = re.search(r'src="(/static/[^"]+\.js)"', page)
    assert asset is not None
    first, again = get(f"{url}{asset[1]}"), get(f"{url}{asset[1]}")
    assert first.status_code == again.status_code == 200
    assert again.headers["x-cache-status"] == "HIT"
    assert "max-age" in again.headers["cache-control"] or "etag" in again.headers


def test_the_other_process_keeps_serving_when_one_stops(
    cluster: tuple[str, list[ServerProcess]],
) -> None:
    url, processes = cluster
    game = post(f"{url}/api/games", json={"preset": "beginner", "seed": 3}).json()
    processes[0].process.kill()
    processes[0].process.wait()
    headers = {"Authorization": f"Bearer {game['token']}"}
    for col in range(6):
        answer = post(
            f"{url}/api/games/{game['id']}/flag", json={"row": 1, "col": col}, headers=headers
        )
        assert answer.status_code == 200, answer.text
    assert get(f"{url}/api/games/{game['id']}").json()["view"]["cells"][1][:6] == "FFFFFF"


def test_the_systemd_unit_runs_a_command_mines_serve_accepts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unit = UNIT.read_text()
    start = re.search(r"^ExecStart=(.+)$", unit, re.M)
    assert start is not None
    words = shlex.split(start[1].replace("%i", "8001"))
    assert Path(words[0]).name == "mines"
    assert words[1] == "serve"
    assert "EnvironmentFile=/etc/mines/mines.env" in unit
    for name, value in shipped_settings().items():
        monkeypatch.setenv(name, value)
    # A malformed setting would exit here.
    settings = settings_from(build_parser().parse_args(words[1:]))
    assert settings.port == 8001
    assert settings.forwarded_allow_ips == ("127.0.0.1",)
    assert settings.redis
    assert settings.database.startswith("postgresql://")
    verify = shutil.which("systemd-analyze")
    if verify is None:
        return
    checked = subprocess.run(
        [verify, "verify", "--man=no", str(UNIT).replace("@.service", "@8001.service")],
        capture_output=True,
        text=True,
        check=False,
    )
    # A unit file whose syntax systemd rejects says so; the missing binary and user of this
    # machine are not the unit's fault.
    problems = [
        line
        for line in checked.stderr.splitlines()
        if line.strip() and "mines/venv/bin/mines" not in line and "mines.env" not in line
    ]
    assert not [p for p in problems if "Unknown" in p or "Failed to parse" in p], problems
