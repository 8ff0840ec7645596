"""Noisy neighbours: Expert players' latency beside hostile clients, and a memory hog.

16 clients play Expert while 2 hostile clients loop over the heaviest requests the server
accepts; and a client creates games until the memory budget refuses.

Run with `./dev bench abuse [--backend sqlite|postgresql|both] [--seconds S]` (under `nice` on
a shared machine). Each backend runs twice with the same well-behaved clients, without and
with the hostile ones (SQLite: one server process; PostgreSQL: two). The hostile clients loop
over: the largest no-guess board allowed (50x50, 525 mines) and its first reveal; the largest
dense first reveal allowed (a 1000x1000 board, one mine, whose flood opens a million cells,
and 999,999 mines with a safe first click); bodies at the 16 KiB cap and past it; and as many
WebSockets as one address may hold. Targets: the well-behaved clients' p99 move latency with
the hostile clients at most 2x the p99 without, and no well-behaved move over 1 s.

The memory run starts a server with `--memory 64M`, creates 1000x1000 games and plays a
first reveal in each until the server refuses or 200 games exist, and reports the server's
RSS against its budget and how refusals were answered.

All clients share the loopback address, so the servers run with per-address rate limits
raised (the 16 players stand for 16 addresses); the isolation is measured, not the limits.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from benchmarks.checks import Checks
from benchmarks.load import POSTGRES, RAISED_RATES, Connection, Tally, player
from tests.server.processes import server_process

TARGET_RATIO = 2.0
TARGET_MAX_S = 1.0
BIG = (1000, 1000)
NO_GUESS = {"rows": 50, "cols": 50, "mines": 525, "no_guess": True}
BODY_CAP = 16 * 1024
SOCKETS = 32


async def hostile(url: str, deadline: float, counts: dict[str, int], index: int) -> None:
    """Loops over the heaviest requests the server accepts until the deadline."""
    connection = await Connection.open(url)
    sockets: list[Any] = []
    rows, cols = BIG
    heavy: list[tuple[str, dict[str, Any], tuple[int, int]]] = [
        ("no-guess 50x50", NO_GUESS, (25, 25)),
        ("1000x1000 flood", {"rows": rows, "cols": cols, "mines": 1}, (500, 500)),
        (
            "1000x1000 dense",
            {"rows": rows, "cols": cols, "mines": rows * cols - 1, "first_click": "safe"},
            (500, 500),
        ),
    ]
    step = index
    try:
        while time.monotonic() < deadline:
            name, body, cell = heavy[step % len(heavy)]
            step += 1
            status, game = await connection.request("POST", "/api/games?height=1&width=1", body)
            counts[f"{name} create {status}"] = counts.get(f"{name} create {status}", 0) + 1
            if status == 201:
                path = f"/api/games/{game['id']}/reveal?height=1&width=1"
                status, _ = await connection.request(
                    "POST", path, {"row": cell[0], "col": cell[1]}, game["token"]
                )
                counts[f"{name} reveal {status}"] = counts.get(f"{name} reveal {status}", 0) + 1
                if len(sockets) < SOCKETS:
                    sockets.extend(await _open_sockets(url, game["id"], SOCKETS - len(sockets)))
            padding = "x" * (BODY_CAP - 64)
            status, _ = await connection.request(
                "POST", "/api/games", {"preset": "expert", "x": padding}
            )
            counts[f"16 KiB body {status}"] = counts.get(f"16 KiB body {status}", 0) + 1
            status = await _oversized(connection)
            counts[f"oversized body {status}"] = counts.get(f"oversized body {status}", 0) + 1
            if status != 413:
                connection = await Connection.open(url)
            else:
                connection.close()
                connection = await Connection.open(url)
    finally:
        connection.close()
        for socket in sockets:
            await socket.close()


async def _oversized(connection: Connection) -> int:
    status, _ = await connection.request("POST", "/api/games", {"x": "y" * (4 * BODY_CAP)})
    return status


async def _open_sockets(url: str, game_id: str, count: int) -> list[Any]:
    import websockets

    address = url.replace("http://", "ws://") + f"/api/games/{game_id}/live?height=1&width=1"
    opened = []
    for _ in range(count):
        try:
            opened.append(await websockets.connect(address))
        except Exception:
            break
    return opened


async def drive(
    urls: list[str], seconds: float, hostile_clients: int
) -> tuple[Tally, dict[str, int]]:
    tally, counts = Tally(), dict[str, int]()
    budget = [10**9]
    deadline = time.monotonic() + seconds
    tasks = [player(urls[i % len(urls)], deadline, budget, tally, i) for i in range(16)]
    tasks += [hostile(urls[i % len(urls)], deadline, counts, i) for i in range(hostile_clients)]
    await asyncio.gather(*tasks)
    return tally, counts


def measure(database: str, processes: int, seconds: float, hostile_clients: int) -> dict[str, Any]:
    with ExitStack() as stack:
        servers = [
            stack.enter_context(server_process(database, extra=RAISED_RATES))
            for _ in range(processes)
            for _ in range(processes)
        ]
        tally, counts = asyncio.run(drive([s.url for s in servers], seconds, hostile_clients))
    ms = sorted(1000 * t for t in tally.latencies) or [0.0]
    return {
        "moves": len(ms),
        "p99_ms": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
        "max_ms": ms[-1],
        "errors": len(tally.errors),
        "counts": counts,
        "first_errors": tally.errors[:3],
    }


def noisy(
    name: str, database: Callable[[], str], processes: int, args: argparse.Namespace, checks: Checks
) -> None:
    quiet = measure(database(), processes, args.seconds, 0)
    loud = measure(database(), processes, args.seconds, 2)
    for label, result in (("alone", quiet), ("with 2 hostile clients", loud)):
        print(
            f"{name} {label}: {result['moves']} moves, p99 {result['p99_ms']:.1f} ms, "
            f"max {result['max_ms']:.1f} ms, {result['errors']} errors",
            flush=True,
        )
        for error in result["first_errors"]:
            print(f"  error: {error}")
    for key, count in sorted(loud["counts"].items()):
        print(f"  hostile: {key}: {count}")
    ratio = loud["p99_ms"] / max(quiet["p99_ms"], 1e-9)
    checks.report(
        f"{name}: p99 with hostile clients",
        ratio <= TARGET_RATIO and loud["errors"] == 0,
        f"{loud['p99_ms']:.1f} ms vs {quiet['p99_ms']:.1f} ms alone = {ratio:.2f}x "
        f"(target <= {TARGET_RATIO:.0f}x), {loud['errors']} errors",
    )
    checks.report(
        f"{name}: slowest well-behaved move",
        loud["max_ms"] <= 1000 * TARGET_MAX_S,
        f"{loud['max_ms']:.0f} ms (target <= {1000 * TARGET_MAX_S:.0f} ms)",
    )


def rss(pid: int) -> int:
    """A process's resident memory in bytes, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def memory(database: str, checks: Checks) -> None:
    budget = 64 * 2**20
    with server_process(database, extra=[*RAISED_RATES, "--memory", "64M"]) as server:
        pid = server.process.pid
        base = rss(pid)
        refused: dict[str, int] = {}
        created = 0
        peak = base
        with httpx.Client(base_url=server.url, timeout=60) as client:
            for index in range(200):
                answer = client.post(
                    "/api/games?height=1&width=1", json={"rows": 1000, "cols": 1000, "mines": 1000}
                )
                if answer.status_code != 201:
                    key = f"{answer.status_code} Retry-After={answer.headers.get('retry-after')}"
                    refused[key] = refused.get(key, 0) + 1
                    continue
                created += 1
                game = answer.json()
                client.post(
                    f"/api/games/{game['id']}/reveal?height=1&width=1",
                    json={"row": index % 1000, "col": 500},
                    headers={"Authorization": f"Bearer {game['token']}"},
                )
                peak = max(peak, rss(pid))
    grown = peak - base
    print(
        f"memory: {created} games of 1000x1000 created and opened; server RSS "
        f"{base / 2**20:.0f} MiB at start, {peak / 2**20:.0f} MiB at peak (+{grown / 2**20:.0f} "
        f"MiB; budget for games 64 MiB); refused: {refused or 'none'}"
    )
    checks.report(
        "memory: RSS growth within the budget",
        grown <= budget * 1.5,
        f"+{grown / 2**20:.0f} MiB for games with a 64 MiB budget (allowing 50% for "
        "allocator slack)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each run lasts")
    parser.add_argument("--postgres", default=POSTGRES, help="database for the PostgreSQL runs")
    args = parser.parse_args(argv)
    checks = Checks()
    folder = Path(tempfile.mkdtemp(prefix="mines-abuse-"))
    if args.backend in ("sqlite", "both"):
        noisy(
            "SQLite, 1 process",
            lambda: f"sqlite:///{folder / f'{uuid.uuid4().hex}.sqlite3'}",
            1,
            args,
            checks,
        )
    schemas: list[str] = []
    if args.backend in ("postgresql", "both"):

        def fresh() -> str:
            schemas.append(f"mines_abuse_{uuid.uuid4().hex[:10]}")
            return f"{args.postgres}?schema={schemas[-1]}"

        try:
            noisy("PostgreSQL, 2 processes", fresh, 2, args, checks)
        finally:
            import psycopg

            with psycopg.connect(args.postgres, autocommit=True) as admin:
                for schema in schemas:
                    admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    memory(f"sqlite:///{folder / 'memory.sqlite3'}", checks)
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
