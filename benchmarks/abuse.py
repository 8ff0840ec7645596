"""Noisy neighbours: Expert players' latency beside hostile clients, and a memory hog.

16 clients play Expert while 2 hostile clients loop over the heaviest requests the server
accepts; and a client creates games until the memory budget refuses.

Run with `./dev bench abuse [--backend sqlite|postgresql|both] [--seconds S]` (under `nice` on
a shared machine). Each backend runs twice with the same well-behaved clients, without and
with the hostile ones (SQLite: one server process; PostgreSQL: two). The hostile clients loop
over: the largest no-guess board allowed (50x50, 525 mines) and its first reveal; the largest
dense first reveal allowed (a 1000x1000 board, one mine, whose flood opens a million cells,
and 999,999 mines with a safe first click); the biggest reads (the flooded board's whole
view, the dense game's record, summary and replay); bodies at the 16 KiB cap and past it;
and as many WebSockets as one address may hold. They run in a process of their own. Targets:
the well-behaved clients' p99 move latency with the hostile clients at most 2x the p99
without, and no well-behaved move over 1 s.

The memory run starts a server with `--memory 128M`; 16 clients create 400 games of 1000x1000
(about 1 MiB each) and flood each with its first reveal. The server drops the games no
request is using (storage keeps them), holds each move's working memory (56 MiB for a
million-cell flood) in the budget while it runs, and refuses what does not fit with 503.
Targets: the server's RSS over its idle baseline (after a warm-up game) stays within the
budget, and every refusal is a 503 with Retry-After.

All clients share the loopback address, so the servers run with per-address rate limits
raised (the 16 players stand for 16 addresses); the isolation is measured, not the limits.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import threading
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
MEMORY_BUDGET_MIB = 128
MEMORY_CLIENTS = 16
MEMORY_GAMES = 400
READS = {
    "no-guess 50x50": [],
    "1000x1000 flood": [""],
    "1000x1000 dense": ["/record", "/summary", "/replay?height=1&width=1"],
}


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
                path = f"/api/games/{game['id']}"
                status, _ = await connection.request(
                    "POST",
                    f"{path}/reveal?height=1&width=1",
                    {"row": cell[0], "col": cell[1]},
                    game["token"],
                )
                counts[f"{name} reveal {status}"] = counts.get(f"{name} reveal {status}", 0) + 1
                # The biggest reads: the whole 1000x1000 view, and the dense game (won by its
                # first reveal) read back whole: its record, summary and replay.
                for read in READS[name]:
                    status, _ = await connection.request("GET", path + read, parse=False)
                    key = f"{name} GET {read or 'view'} {status}"
                    counts[key] = counts.get(key, 0) + 1
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


def hostile_process(urls: list[str], seconds: float, clients: int, results: Any) -> None:
    """The hostile clients, in a process of their own: reading a 12 MB record or building a
    64 KiB body must not slow the loop that times the well-behaved clients."""

    async def run() -> dict[str, int]:
        counts: dict[str, int] = {}
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            *(hostile(urls[i % len(urls)], deadline, counts, i) for i in range(clients))
        )
        return counts

    results.put(asyncio.run(run()))


async def drive(urls: list[str], seconds: float) -> Tally:
    tally = Tally()
    budget = [10**9]
    deadline = time.monotonic() + seconds
    await asyncio.gather(
        *(player(urls[i % len(urls)], deadline, budget, tally, i) for i in range(16))
    )
    return tally


def measure(database: str, processes: int, seconds: float, hostile_clients: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    with ExitStack() as stack:
        servers = [
            stack.enter_context(server_process(database, extra=RAISED_RATES))
            for _ in range(processes)
        ]
        urls = [s.url for s in servers]
        noise = context.Process(
            target=hostile_process, args=(urls, seconds, hostile_clients, results)
        )
        if hostile_clients:
            noise.start()
        tally = asyncio.run(drive(urls, seconds))
        counts: dict[str, int] = results.get() if hostile_clients else {}
        if hostile_clients:
            noise.join()
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


async def creator(url: str, left: list[int], answers: dict[str, int]) -> None:
    """Creates 1000x1000 games and floods each while `left` lasts, counting the answers."""
    connection = await Connection.open(url)
    rows, cols = BIG

    def count(what: str, status: int) -> None:
        key = f"{what} {status}"
        if status >= 300:
            key += f" Retry-After={connection.headers.get('retry-after')}"
        answers[key] = answers.get(key, 0) + 1

    try:
        while left[0] > 0:
            left[0] -= 1
            body = {"rows": rows, "cols": cols, "mines": 1}
            status, game = await connection.request("POST", "/api/games?height=1&width=1", body)
            count("create", status)
            if status == 201:
                status, _ = await connection.request(
                    "POST",
                    f"/api/games/{game['id']}/reveal?height=1&width=1",
                    {"row": 500, "col": 500},
                    game["token"],
                )
                count("reveal", status)
    finally:
        connection.close()


def memory(database: str, checks: Checks) -> None:
    budget = MEMORY_BUDGET_MIB * 2**20
    extra = [*RAISED_RATES, "--memory", f"{MEMORY_BUDGET_MIB}M"]
    with server_process(database, extra=extra) as server:
        pid = server.process.pid
        # Warm up (the first game and flood load modules), then the idle baseline.
        with httpx.Client(base_url=server.url, timeout=60) as client:
            game = client.post("/api/games", json={"rows": 100, "cols": 100, "mines": 1}).json()
            client.post(
                f"/api/games/{game['id']}/reveal",
                json={"row": 50, "col": 50},
                headers={"Authorization": f"Bearer {game['token']}"},
            )
        time.sleep(1.0)
        base = rss(pid)
        peak = [base]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.01):
                peak[0] = max(peak[0], rss(pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        answers: dict[str, int] = {}
        left = [MEMORY_GAMES]

        async def run() -> None:
            await asyncio.gather(
                *(creator(server.url, left, answers) for _ in range(MEMORY_CLIENTS))
            )

        asyncio.run(run())
        done.set()
        sampler.join()
    grown = peak[0] - base
    refused = {key: n for key, n in answers.items() if " 2" not in key}
    print(
        f"memory: {MEMORY_CLIENTS} clients asked for {MEMORY_GAMES} games of 1000x1000 "
        f"(~1 MiB each) and flooded each: {dict(sorted(answers.items()))}; server RSS "
        f"{base / 2**20:.0f} MiB idle, {peak[0] / 2**20:.0f} MiB at peak"
    )
    checks.report(
        "memory: RSS over the idle baseline within the budget",
        grown <= budget,
        f"+{grown / 2**20:.1f} MiB at peak, budget {MEMORY_BUDGET_MIB} MiB",
    )
    well = sum(n for key, n in refused.items() if " 503 " in key and not key.endswith("=None"))
    checks.report(
        "memory: refusals are 503 with Retry-After",
        bool(refused) and well == sum(refused.values()),
        f"{sum(refused.values())} refused, {well} of them 503 with Retry-After",
    )


def run_all(folder: Path, args: argparse.Namespace, checks: Checks) -> None:
    """The runs `--backend` and `--part` ask for, their SQLite files in `folder`."""
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
    if args.part != "noisy":
        memory(f"sqlite:///{folder / 'memory.sqlite3'}", checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each run lasts")
    parser.add_argument("--postgres", default=POSTGRES, help="database for the PostgreSQL runs")
    parser.add_argument(
        "--part", choices=["noisy", "memory", "both"], default="both", help="which runs to make"
    )
    args = parser.parse_args(argv)
    if args.part == "memory":
        args.backend = "none"
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="mines-abuse-") as name:
        run_all(Path(name), args, checks)
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
