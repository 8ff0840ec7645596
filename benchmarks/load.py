"""Load test of `mines serve` on loopback: clients playing Expert games for a fixed time.

Run with `./dev bench load [--backend sqlite|postgresql|both] [--runs N]` (under `nice` on a
shared machine). It starts the servers itself (one process on SQLite, two sharing
PostgreSQL), runs each backend N times (3 by default) for `--seconds` or until `--max-moves`,
and prints moves/s, p50/p99 latency and errors per run. The target on SQLite: its best run
(the most moves/s) makes >= 500 moves/s with p99 <= 50 ms, and no run has an error.
`--signed-in-cost` compares players signed in to accounts (the session cookie on every
request, their games ranked) with anonymous ones, in alternating SQLite runs: the target is
>= 90% of the anonymous moves/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.checks import Checks
from tests.server.processes import server_process

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
RAISED_RATES = ["--rate-limit-address", "1000000/second", "--rate-limit-create", "1000000/second"]
"""Every client here shares the loopback address; the players stand for many addresses, so the
per-address rate limits are raised (the per-game one stays)."""
TARGET_MOVES_PER_SECOND = 500
TARGET_P99_MS = 50.0


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    """Seconds per move request."""
    creates: int = 0
    games_over: int = 0
    errors: list[str] = field(default_factory=list)


class Connection:
    """One keep-alive HTTP/1.1 connection; a bare client keeps the load generator's CPU small."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str):
        self._reader, self._writer, self._host = reader, writer, host
        self.headers: dict[str, str] = {}
        """The last answer's headers, by lower-case name."""
        self.cookie: str | None = None
        """Sent with every request once set, as a browser sends its session cookie."""

    @classmethod
    async def open(cls, url: str) -> Connection:
        parts = urlsplit(url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        return cls(reader, writer, parts.netloc)

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        *,
        parse: bool = True,
    ) -> tuple[int, Any]:
        """The answer's status and its JSON body (with `parse` false, its bytes)."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self._host}"]
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        status_line = await self._reader.readline()
        self.headers = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            self.headers[name.lower()] = value.strip()
        data = await self._reader.readexactly(int(self.headers.get("content-length", 0)))
        if not parse:
            return int(status_line.split()[1]), data
        return int(status_line.split()[1]), json.loads(data) if data else None

    def close(self) -> None:
        self._writer.close()


async def sign_up(url: str, seed: int) -> str:
    """A new account's session cookie (`mines_session=...`), for a signed-in player."""
    connection = await Connection.open(url)
    try:
        account = {"name": f"player{seed}", "password": f"load password {seed}"}
        status, answer = await connection.request("POST", "/api/accounts", account)
        if status != 201:
            raise RuntimeError(f"sign-up: {status} {answer}")
        return connection.headers["set-cookie"].partition(";")[0]
    finally:
        connection.close()


async def sign_up_all(urls: list[str], clients: int) -> list[str]:
    """One account per player, made before the measured run: a sign-up's Argon2id hash is
    paid once a session, not within the measured seconds."""
    return list(await asyncio.gather(*(sign_up(urls[i % len(urls)], i) for i in range(clients))))


async def player(
    url: str,
    deadline: float,
    budget: list[int],
    tally: Tally,
    seed: int,
    cookie: str | None = None,
) -> None:
    """Plays expert games one after another: a flag, then a reveal of a random hidden cell;
    with `cookie`, signed in (the cookie goes with every request, as a browser's does)."""
    rng = random.Random(seed)
    connection = await Connection.open(url)
    connection.cookie = cookie
    try:
        while time.monotonic() < deadline and budget[0] > 0:
            status, game = await connection.request("POST", "/api/games", {"preset": "expert"})
            if status != 201:
                tally.errors.append(f"create: {status} {game}")
                continue
            tally.creates += 1
            cells = game["view"]["cells"]
            flags: set[tuple[int, int]] = set()
            path, token = f"/api/games/{game['id']}", game["token"]
            while time.monotonic() < deadline and budget[0] > 0:
                hidden = [
                    (r, c)
                    for r, line in enumerate(cells)
                    for c, s in enumerate(line)
                    if s == "H" and (r, c) not in flags
                ]
                kind = "flag" if rng.random() < 0.3 and len(flags) < 10 else "reveal"
                row, col = rng.choice(hidden)
                budget[0] -= 1
                started = time.perf_counter()
                status, answer = await connection.request(
                    "POST", f"{path}/{kind}", {"row": row, "col": col}, token
                )
                tally.latencies.append(time.perf_counter() - started)
                if status != 200:
                    tally.errors.append(f"{kind}: {status} {answer}")
                    break
                if kind == "flag":
                    flags.add((row, col))
                cells = answer["view"]["cells"]
                if answer["view"]["status"] != "IN_PROGRESS":
                    tally.games_over += 1
                    break
    finally:
        connection.close()


async def drive(
    urls: list[str],
    clients: int,
    seconds: float,
    max_moves: int,
    cookies: Sequence[str | None] = (),
) -> Tally:
    tally = Tally()
    budget = [max_moves]
    deadline = time.monotonic() + seconds
    await asyncio.gather(
        *(
            player(urls[i % len(urls)], deadline, budget, tally, i, cookies[i] if cookies else None)
            for i in range(clients)
        )
    )
    return tally


def report(name: str, processes: int, tally: Tally, seconds: float) -> dict[str, Any]:
    moves = len(tally.latencies)
    ms = sorted(1000 * t for t in tally.latencies) or [0.0]
    result = {
        "backend": name,
        "processes": processes,
        "moves": moves,
        "moves_per_s": moves / seconds,
        "p50_ms": statistics.median(ms),
        "p99_ms": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
        "games": tally.creates,
        "errors": len(tally.errors),
    }
    print(
        f"{name:<10} {processes} process(es): {moves} moves in {seconds:.1f} s = "
        f"{result['moves_per_s']:.0f} moves/s, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, {tally.creates} games, {len(tally.errors)} errors"
    )
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    return result


def run(
    name: str,
    database: str,
    processes: int,
    args: argparse.Namespace,
    extra: Sequence[str] = (),
    signed_in: bool = False,
) -> dict[str, Any]:
    with ExitStack() as stack:
        servers = [
            stack.enter_context(server_process(database, extra=[*RAISED_RATES, *extra]))
            for _ in range(processes)
        ]
        urls = [s.url for s in servers]
        cookies = asyncio.run(sign_up_all(urls, args.clients)) if signed_in else []
        cpu = sum(cpu_seconds(s.process.pid) for s in servers)
        started = time.monotonic()
        tally = asyncio.run(drive(urls, args.clients, args.seconds, args.max_moves, cookies))
        elapsed = time.monotonic() - started
        cpu = sum(cpu_seconds(s.process.pid) for s in servers) - cpu
    result = report(name, processes, tally, elapsed)
    result["cpu_ms_per_move"] = 1000 * cpu / max(1, result["moves"])
    print(f"  server CPU {result['cpu_ms_per_move']:.3f} ms a move")
    return result


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) a process has used so far, all its threads (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each run lasts")
    parser.add_argument("--runs", type=int, default=3, help="runs per backend (default 3)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent players")
    parser.add_argument("--max-moves", type=int, default=50_000, help="stop after this many")
    parser.add_argument("--postgres", default=POSTGRES, help="database for the PostgreSQL run")
    parser.add_argument(
        "--observe-cost",
        action="store_true",
        help="instead: SQLite runs in pairs, with and without metrics and the access log",
    )
    parser.add_argument(
        "--signed-in-cost",
        action="store_true",
        help="instead: SQLite runs in pairs, players signed in to accounts and anonymous",
    )
    args = parser.parse_args(argv)
    if args.observe_cost:
        return observe_cost(args)
    if args.signed_in_cost:
        return signed_in_cost(args)
    sqlite_runs = []
    for _ in range(args.runs):
        if args.backend in ("sqlite", "both"):
            with tempfile.TemporaryDirectory(prefix="mines-load-") as folder:
                database = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
                sqlite_runs.append(run("sqlite", database, 1, args))
        if args.backend in ("postgresql", "both"):
            schema = f"mines_load_{uuid.uuid4().hex[:10]}"
            try:
                run("postgresql", f"{args.postgres}?schema={schema}", 2, args)
            finally:
                import psycopg

                with psycopg.connect(args.postgres, autocommit=True) as admin:
                    admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    checks = Checks()
    if sqlite_runs:
        best = max(sqlite_runs, key=lambda r: r["moves_per_s"])
        errors = sum(r["errors"] for r in sqlite_runs)
        checks.report(
            "SQLite, one server process",
            best["moves_per_s"] >= TARGET_MOVES_PER_SECOND
            and best["p99_ms"] <= TARGET_P99_MS
            and errors == 0,
            f"best of {len(sqlite_runs)} runs {best['moves_per_s']:.0f} moves/s, p99 "
            f"{best['p99_ms']:.1f} ms, {errors} errors in all runs (target >= "
            f"{TARGET_MOVES_PER_SECOND} moves/s, p99 <= {TARGET_P99_MS:.0f} ms, 0 errors)",
        )
    return checks.exit_code


WITHOUT_OBSERVING = ("--no-metrics", "--no-access-log")
TARGET_OBSERVE_COST = 0.05
"""Metrics and the access log may cost at most this share of the moves per second."""


def observe_cost(args: argparse.Namespace) -> int:
    """`--runs` pairs of SQLite runs, with metrics and the access log (the defaults) and
    without, the order alternating. The verdict is on the server's CPU time per move (mean of
    the runs of each kind), which other load on the machine moves far less than moves/s."""
    runs: dict[str, list[dict[str, Any]]] = {"with": [], "without": []}
    for index in range(args.runs):
        order = ("with", "without") if index % 2 == 0 else ("without", "with")
        for kind in order:
            with tempfile.TemporaryDirectory(prefix="mines-load-") as folder:
                database = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
                extra = () if kind == "with" else WITHOUT_OBSERVING
                runs[kind].append(run(f"sqlite {kind}", database, 1, args, extra))
    rate = {kind: statistics.fmean(r["moves_per_s"] for r in found) for kind, found in runs.items()}
    p99 = {kind: statistics.median(r["p99_ms"] for r in found) for kind, found in runs.items()}
    cpu = {
        kind: statistics.fmean(r["cpu_ms_per_move"] for r in found) for kind, found in runs.items()
    }
    cost = cpu["with"] / cpu["without"] - 1
    errors = sum(r["errors"] for found in runs.values() for r in found)
    checks = Checks()
    checks.report(
        "metrics and access log cost",
        cost <= TARGET_OBSERVE_COST and errors == 0,
        f"server CPU {cpu['with']:.3f} ms a move with, {cpu['without']:.3f} ms without (mean "
        f"of {args.runs} runs each): {100 * cost:+.1f}%, so about {100 * cost / (1 + cost):.1f}% "
        f"fewer moves/s on a saturated CPU; wall {rate['with']:.0f} moves/s with, "
        f"{rate['without']:.0f} without; p99 {p99['with']:.1f} ms with, {p99['without']:.1f} "
        f"ms without (median); {errors} errors (target <= {100 * TARGET_OBSERVE_COST:.0f}%, 0 "
        "errors)",
    )
    return checks.exit_code


TARGET_SIGNED_IN_SHARE = 0.90
"""Signed-in players must make at least this share of the anonymous players' moves/s."""
SIGN_UPS = ["--rate-limit-signin", "1000000/second"]
"""Every player signs up from the loopback address: the per-address sign-in rate is raised."""


def signed_in_cost(args: argparse.Namespace) -> int:
    """`--runs` pairs of SQLite runs, players signed in and anonymous, the order alternating;
    the share is from the moves of all runs of each kind."""
    runs: dict[str, list[dict[str, Any]]] = {"signed in": [], "anonymous": []}
    for index in range(args.runs):
        order = ("signed in", "anonymous") if index % 2 == 0 else ("anonymous", "signed in")
        for kind in order:
            with tempfile.TemporaryDirectory(prefix="mines-load-") as folder:
                database = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
                result = run(f"sqlite {kind}", database, 1, args, SIGN_UPS, kind == "signed in")
                runs[kind].append(result)
    rate = {kind: statistics.fmean(r["moves_per_s"] for r in found) for kind, found in runs.items()}
    share = rate["signed in"] / rate["anonymous"]
    errors = sum(r["errors"] for found in runs.values() for r in found)
    checks = Checks()
    checks.report(
        "signed-in players against anonymous ones",
        share >= TARGET_SIGNED_IN_SHARE and errors == 0,
        f"{rate['signed in']:.0f} moves/s signed in, {rate['anonymous']:.0f} anonymous (mean "
        f"of {args.runs} runs each): {100 * share:.1f}%; {errors} errors (target >= "
        f"{100 * TARGET_SIGNED_IN_SHARE:.0f}%, 0 errors)",
    )
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
