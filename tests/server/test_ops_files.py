"""The operator's files in deploy/ checked: the Prometheus alert rules by `promtool`, the
Grafana dashboard and the rules naming only metrics the server exports, the systemd timers and
the compose file well formed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.conftest import Server
from tests.services import service_missing

DEPLOY = Path(__file__).parents[2] / "deploy"
RULES = DEPLOY / "prometheus" / "mines-alerts.yml"
DASHBOARD = DEPLOY / "grafana" / "mines-dashboard.json"
METRIC = re.compile(r"\bmines_[a-z_]+")
SUFFIXES = ("_total", "_bucket", "_count", "_sum", "_created")


def needs(tool: str, package: str) -> str:
    found = shutil.which(tool)
    if found is None:
        service_missing(f"{tool} is not installed (Debian: apt-get install {package})")
    return found


def exported(server: Server) -> set[str]:
    """The names of the metric families a server exports, after a request or two."""
    server.client.get("/api/meta")
    server.create()
    loopback = TestClient(server.client.app, client=("127.0.0.1", 5000))  # /metrics answers it
    text = loopback.get("/metrics").text
    names = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            names.add(family(line.split()[2]))
    return names


def family(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def test_the_alert_rules_pass_promtool() -> None:
    promtool = needs("promtool", "prometheus")
    checked = subprocess.run(
        [promtool, "check", "rules", str(RULES)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS" in checked.stdout


def test_the_rules_and_the_dashboard_name_only_metrics_that_exist(server: Server) -> None:
    names = exported(server)
    expressions = [RULES.read_text()]  # promtool checks its shape; its metrics are read here
    dashboard = json.loads(DASHBOARD.read_text())
    expressions += [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {family(name) for expr in expressions for name in METRIC.findall(expr)}
    assert used
    assert used <= names, used - names
    # Every metric the server exports has a panel.
    shown = {
        family(n)
        for p in dashboard["panels"]
        for t in p["targets"]
        for n in METRIC.findall(t["expr"])
    }
    assert {n for n in names if n.startswith("mines_") and n != "mines_build"} <= shown


def test_the_timers_and_their_services_are_systemd_units() -> None:
    for name in ("mines-prune", "mines-backup"):
        timer = (DEPLOY / "systemd" / f"{name}.timer").read_text()
        service = (DEPLOY / "systemd" / f"{name}.service").read_text()
        assert "OnCalendar=" in timer
        assert "Persistent=true" in timer
        assert "User=mines" in service
        assert "Type=oneshot" in service
    verify = shutil.which("systemd-analyze")
    if verify is None:
        return
    for unit in (DEPLOY / "systemd").glob("mines-*.*"):
        checked = subprocess.run(
            [verify, "verify", "--man=no", str(unit)], capture_output=True, text=True, check=False
        )
        assert "Failed to parse" not in checked.stderr, checked.stderr


def test_the_compose_file_runs_the_shipped_site_and_two_processes() -> None:
    compose = (DEPLOY / "container" / "compose.yaml").read_text()
    services = re.findall(r"^  ([a-z0-9-]+):$", compose, re.M)
    assert {"mines-8001", "mines-8002", "postgres", "redis", "nginx"} <= set(services)
    site = re.search(r"- (\S+mines\.conf):/etc/nginx/conf\.d/default\.conf:ro", compose)
    assert site is not None
    assert (DEPLOY / "container" / site[1]).resolve() == DEPLOY / "nginx" / "mines.conf"
    shipped = (DEPLOY / "nginx" / "mines.conf").read_text()
    for port in ("8001", "8002"):
        assert f'MINES_PORT: "{port}"' in compose
        assert f"127.0.0.1:{port}" in shipped
    # Every service on the host's network (the two processes through the x-mines anchor):
    # the shipped site's 127.0.0.1 is the processes.
    assert compose.count("network_mode: host") == 4
