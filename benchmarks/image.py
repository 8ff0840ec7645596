"""The container image built as docs/deploy.md says, then served from until /readyz answers.

`./dev bench image` makes a Debian root filesystem with mmdebstrap from Debian's archive (once:
`podman import` keeps it as localhost/debian:bookworm), builds this checkout's wheel, builds
deploy/container/Containerfile with `buildah bud`, prints the image's size and build time, and
starts `mines serve` in it with `buildah run` until `/readyz` answers. Slow (minutes: numpy and
scipy are installed in the image), so it is a benchmark, not a test."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.checks import Checks

ROOT = Path(__file__).resolve().parents[1]
CONTAINER = ROOT / "deploy" / "container"
BASE = "localhost/debian:bookworm"
IMAGE = "localhost/mines-bench"
TOOLS = ("mmdebstrap", "podman", "buildah")
ISOLATION = "chroot"
"""buildah's isolation: chroot needs no OCI runtime or cgroups (this sandbox's crun refuses
cgroups in hybrid mode); `--isolation oci` elsewhere."""
READY_SECONDS = 120.0


def run(*command: str, **options: object) -> None:
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, **options)  # type: ignore[call-overload]


def wait_ready(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            time.sleep(1)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(prog=sys.argv[0], description=__doc__)
    parser.add_argument("--mirror", default="http://deb.debian.org/debian")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--isolation", default=ISOLATION, help="buildah's (default %(default)s)")
    args = parser.parse_args()
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        print(f"needs {', '.join(missing)} (Debian: apt-get install {' '.join(TOOLS)})")
        return 2
    checks = Checks()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        rootfs = Path(folder) / "debian.tar"
        known = subprocess.run(["podman", "image", "exists", BASE], check=False).returncode == 0
        if not known:
            run("mmdebstrap", "--variant=apt", "bookworm", str(rootfs), args.mirror)
            run("podman", "import", str(rootfs), BASE)
        dist = CONTAINER / "dist"
        shutil.rmtree(dist, ignore_errors=True)
        run(sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT))
        # A network that inspects TLS (this sandbox's) has its own CA: lent to the build only.
        cert = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE")
        lent = []
        if cert and Path(cert).is_file():
            lent = ["--volume", f"{cert}:/run/host-ca.crt:ro", "--build-arg",
                    "PIP_CERT=/run/host-ca.crt"]  # fmt: skip
        run(
            "buildah", "bud", "--isolation", args.isolation, "--format", "docker", *lent,
            "-f", str(CONTAINER / "Containerfile"),
            "-t", IMAGE, str(CONTAINER),
        )  # fmt: skip
        built = time.monotonic() - started
        size = subprocess.run(
            ["podman", "image", "inspect", "--format", "{{.Size}}", IMAGE],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        print(f"image {IMAGE}: {int(size) / 2**20:.0f} MiB, built in {built:.0f} s")
        container = subprocess.run(
            ["buildah", "from", IMAGE], capture_output=True, text=True, check=True
        ).stdout.strip()
        env = {**os.environ}
        server = subprocess.Popen(
            ["buildah", "run", "--isolation", args.isolation, "--network", "host",
             "--env", f"MINES_PORT={args.port}",
             "--env", "MINES_HOST=127.0.0.1", container, "--", "mines", "serve"],
            env=env,
        )  # fmt: skip
        try:
            ready = wait_ready(f"http://127.0.0.1:{args.port}/readyz", READY_SECONDS)
            checks.report("served", ready, f"/readyz from buildah run: {'200' if ready else 'no'}")
        finally:
            server.terminate()
            server.wait(30)
            subprocess.run(["buildah", "rm", container], check=False)
    return 1 if checks.failures else 0
