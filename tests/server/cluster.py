"""The shipped deployment on this machine: deploy/'s nginx site (only its ports and cache
folder changed) run by Debian's nginx, and deploy/mines.env's settings; for
tests/server/test_deploy.py and `./dev bench cluster`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.patience import PATIENCE

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NGINX_SITE = DEPLOY / "nginx" / "mines.conf"
UNIT = DEPLOY / "systemd" / "mines@.service"
ENV_FILE = DEPLOY / "mines.env"
SHIPPED_PORTS = ("127.0.0.1:8001", "127.0.0.1:8002")


def nginx_binary() -> str | None:
    """Debian's nginx, where it is installed."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")


def shipped_settings() -> dict[str, str]:
    """deploy/mines.env as systemd reads it: KEY=VALUE lines, # comments."""
    settings = {}
    for line in ENV_FILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            settings[name.strip()] = value.strip()
    return settings


def site_for_test(ports: tuple[int, int], listen: int, cache: Path) -> str:
    """The shipped site with only what a test must change: the ports and the cache folder."""
    site = NGINX_SITE.read_text()
    for shipped, port in zip(SHIPPED_PORTS, ports, strict=True):
        assert shipped in site
        site = site.replace(shipped, f"127.0.0.1:{port}")
    assert "listen 80;" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    site = site.replace("listen [::]:80;", "")
    return site.replace("/var/cache/nginx/mines", str(cache))


@contextmanager
def nginx(site: str, folder: Path) -> Iterator[str]:
    """Debian's nginx running `site` in the foreground, as an unprivileged test can."""
    binary = nginx_binary()
    assert binary is not None, "nginx is not installed (Debian: apt-get install nginx)"
    (folder / "site.conf").write_text(site)
    # Started by root, nginx's workers would run as nobody, who cannot enter the test's folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    (folder / "nginx.conf").write_text(
        f"""{user}daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""
    )
    listen = re.search(r"listen 127\.0\.0\.1:(\d+);", site)
    assert listen is not None
    url = f"http://127.0.0.1:{listen[1]}"
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t refused the configuration: {checked.stderr}")
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                httpx.get(f"{url}/healthz", timeout=1.0)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = (folder / "error.log").read_text()
                    raise RuntimeError(f"nginx did not start: {log}") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(PATIENCE)
