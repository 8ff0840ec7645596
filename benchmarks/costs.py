"""What a stored move costs with N processes behind nginx on one PostgreSQL and one Redis.

Run with `./dev bench costs --processes N`, or `./dev bench cluster --processes N`, which hands
over to it (docs/scaling.md turns the figures into a capacity model). To count exactly, it
starts a PostgreSQL and a Redis of its own (nothing else writes there): PostgreSQL with
pg_stat_statements (every statement, BEGIN and COMMIT included, and the WAL each one
wrote), Redis with its command statistics reset. Then, for 1 process and for N:

0. `--warmup` seconds (3) of the load below, not counted: each process's first requests open
   its connections and fill its caches, once per process (the CPU it took is shown apart);
1. Expert games played through nginx by `--clients` players (benchmarks/load.py's: a new game
   every 7 moves or so, its creation counted in), and per stored move: SQL statements,
   transactions, WAL bytes, Redis commands, server CPU (the processes', and PostgreSQL's);
2. moves alone: `--watched` games made first, then flagged 50 times each through nginx, each
   watched by a WebSocket on every process; the same figures per move, and the live frames
   each process received from the others through Redis. The targets are checked on these:
   0 NOTIFY, at most 1 transaction and 5 statements a move, frames only to the processes
   watching the game; and on the first, the server CPU a move of N processes within 10% of
   one's.

With `--pgbench`, also pgbench on the move's transaction as it was (a read, then SELECT ... FOR
UPDATE, INSERT, UPDATE and NOTIFY) and as it is (the fenced UPDATE and the INSERT), at 8, 16
and 32 clients: the moves/s one PostgreSQL serves, before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

from benchmarks.checks import Checks
from benchmarks.load import RAISED_RATES, Connection, cpu_seconds, drive
from tests.server.cluster import NGINX_SITE, SHIPPED_PORTS, nginx, nginx_binary
from tests.server.processes import ServerProcess, free_port, server_process

EXTRA = [*RAISED_RATES, "--rate-limit-game", "1000000/second"]
TARGET_STATEMENTS = 5
TARGET_TRANSACTIONS = 1
TARGET_CPU_RATIO = 1.1
"""The per-move server CPU of N processes against one, at most."""
MOVES_WATCHED = 50
"""Moves in each watched game."""
ROOM_MOVES = 200
"""Flags in the race room measured."""
RECEIVED = r'mines_fanout_messages_total\{direction="received"\}'
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _pg_bin(name: str) -> str:
    found = shutil.which(name, path=f"{PG_BIN}:{os.environ.get('PATH', '')}")
    if found is None:
        raise RuntimeError(f"{name} is not installed (Debian: apt-get install postgresql)")
    return found


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def private_postgres(folder: Path) -> Iterator[tuple[str, int]]:
    """A PostgreSQL of this run's own, with pg_stat_statements: (its URL, its postmaster's pid)."""
    data, port = folder / "pg", free_port()
    folder.chmod(0o777)
    subprocess.run(
        _as_postgres([_pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200 "
        "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=on"
    )
    control = _pg_bin("pg_ctl")
    log = str(folder / "pg.log")
    subprocess.run(
        _as_postgres([control, "-D", str(data), "-o", options, "-l", log, "-w", "start"]),
        check=True,
        capture_output=True,
    )
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        import psycopg

        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute("CREATE DATABASE mines")
            connection.execute("CREATE EXTENSION pg_stat_statements")
        yield f"postgresql://postgres@127.0.0.1:{port}/mines", pid
    finally:
        subprocess.run(
            _as_postgres([control, "-D", str(data), "-m", "fast", "stop"]), capture_output=True
        )


@contextmanager
def private_redis(folder: Path) -> Iterator[str]:
    port = free_port()
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (Debian: apt-get install redis-server)")
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    process = subprocess.Popen([*command, "--dir", str(folder)], stdout=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def site_for(ports: Sequence[int], listen: int, cache: Path) -> str:
    """The shipped nginx site with one `server` line per process, its port and cache folder."""
    site = NGINX_SITE.read_text()
    lines = site.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if SHIPPED_PORTS[0] in line)
    template = lines[first]
    kept = [line for line in lines if not any(port in line for port in SHIPPED_PORTS)]
    servers = [template.replace(SHIPPED_PORTS[0], f"127.0.0.1:{port}") for port in ports]
    site = "".join([*kept[:first], *servers, *kept[first:]])
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    site = site.replace("listen [::]:80;", "")
    return site.replace("/var/cache/nginx/mines", str(cache))


class Meter:
    """Counters of the private PostgreSQL and Redis, and the CPU of the processes, read
    before and after a phase."""

    def __init__(
        self, database: str, postmaster: int, redis_url: str, servers: list[ServerProcess]
    ):
        import psycopg
        import redis

        self._pg = psycopg.connect(database.replace("/mines", "/postgres"), autocommit=True)
        self._redis = redis.Redis.from_url(redis_url)
        self._postmaster, self._servers = postmaster, servers

    def reset(self) -> None:
        self._pg.execute("SELECT pg_stat_statements_reset()")
        self._redis.config_resetstat()
        self._lsn = self._lsn_now()
        self._cpu = self._cpu_now()
        self._switches = self._switches_now()
        self._messages = self._received()

    def _lsn_now(self) -> int:
        row = self._pg.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
        assert row is not None
        return int(row[0])

    def _cpu_now(self) -> tuple[float, float]:
        servers = sum(cpu_seconds(s.process.pid) for s in self._servers)
        backends = [self._postmaster, *_children(self._postmaster)]
        return servers, sum(cpu_seconds(pid) for pid in backends if Path(f"/proc/{pid}").exists())

    def _switches_now(self) -> int:
        """The servers' threads' involuntary context switches so far: how often the kernel
        took a core from them (a measure of how crowded the cores are)."""
        total = 0
        for server in self._servers:
            for task in Path(f"/proc/{server.process.pid}/task").iterdir():
                try:
                    status = (task / "status").read_text()
                except OSError:
                    continue
                found = re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", status, re.M)
                total += int(found[1]) if found else 0
        return total

    def server_cpu(self) -> float:
        """CPU seconds the server processes have used so far."""
        return self._cpu_now()[0]

    def _received(self) -> float:
        total = 0.0
        for server in self._servers:
            text = httpx.get(f"{server.url}/metrics", timeout=10).text
            found = re.search(
                r'^mines_fanout_messages_total\{direction="received"\} (\S+)', text, re.M
            )
            total += float(found[1]) if found else 0.0
        return total

    def read(self) -> dict[str, Any]:
        rows = self._pg.execute(
            "SELECT query, calls, wal_bytes FROM pg_stat_statements s JOIN pg_database d "
            "ON d.oid = s.dbid WHERE d.datname = 'mines'"
        ).fetchall()
        statements = {str(query): (int(calls), float(wal)) for query, calls, wal in rows}
        stored = sum(c for q, (c, _) in statements.items() if q.startswith("INSERT INTO moves"))
        # A room's move is one INSERT of its moves (one row each, here: flags).
        room_moves = sum(
            c for q, (c, _) in statements.items() if q.startswith("INSERT INTO race_moves")
        )
        begins = sum(c for q, (c, _) in statements.items() if q.upper().startswith("BEGIN"))
        # Each process reads the block list every 10 s (`web.blocks`), in a transaction of its
        # own: a cost per process and second, not per move, so it is counted apart.
        periodic = sum(c for q, (c, _) in statements.items() if "FROM blocked_networks" in q)
        notifies = sum(c for q, (c, _) in statements.items() if "pg_notify" in q)
        stats: dict[str, Any] = self._redis.info("commandstats")  # type: ignore[assignment]
        commands = {
            name.removeprefix("cmdstat_"): int(value["calls"])
            for name, value in stats.items()
            if name.removeprefix("cmdstat_") not in ("info", "config|resetstat", "config")
        }
        servers, postgres = self._cpu_now()
        return {
            "stored": stored,
            "room_moves": room_moves,
            "statements": sum(c for c, _ in statements.values()) - 3 * periodic,
            "transactions": begins - periodic,
            "periodic": periodic,
            "notifies": notifies,
            "wal_statements": sum(w for _, w in statements.values()),
            "wal_lsn": self._lsn_now() - self._lsn,
            "redis": sum(commands.values()),
            "redis_by": commands,
            "publish": commands.get("publish", 0),
            "server_cpu": servers - self._cpu[0],
            "switches": self._switches_now() - self._switches,
            "postgres_cpu": postgres - self._cpu[1],
            "messages": self._received() - self._messages,
            "top": sorted(statements.items(), key=lambda item: -item[1][0])[:8],
        }

    def close(self) -> None:
        self._pg.close()
        self._redis.close()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                found.append(int(entry.name))
    return found


async def _flag_watched(
    proxy: str, servers: list[ServerProcess], games: int, moves: int, meter: Meter
) -> dict[str, Any]:
    """`games` games made, then moved through nginx, each watched on every process: the
    meter's figures of the moves alone."""
    from websockets.asyncio.client import connect

    setup = await Connection.open(proxy)
    created = []
    for _ in range(games):
        status, game = await setup.request("POST", "/api/games", {"preset": "expert"})
        assert status == 201, game
        created.append(game)
    setup.close()
    frames = 0
    viewed = asyncio.Semaphore(0)

    async def watch(url: str) -> None:
        nonlocal frames
        async with connect(url.replace("http", "ws", 1)) as socket:
            await socket.recv()  # the view, read once the game's channel is subscribed
            viewed.release()
            while True:
                await socket.recv()
                frames += 1

    async def flag(game: dict[str, Any], seed: int) -> None:
        rng = random.Random(seed)
        connection = await Connection.open(proxy)
        path = f"/api/games/{game['id']}/flag"
        for _ in range(moves):
            cell = {"row": rng.randrange(16), "col": rng.randrange(30)}
            status, answer = await connection.request("POST", path, cell, game["token"])
            assert status == 200, answer
        connection.close()

    watchers = [
        asyncio.create_task(watch(f"{s.url}/api/games/{g['id']}/live"))
        for g in created
        for s in servers
    ]
    # Every socket subscribed and its view read (on a busy machine that can take seconds):
    # those reads are not the moves' cost.
    for _ in watchers:
        await asyncio.wait_for(viewed.acquire(), 120)
    meter.reset()
    await asyncio.gather(*(flag(game, n) for n, game in enumerate(created)))
    await asyncio.sleep(0.2)  # the last frames on their way
    found = meter.read()
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    found["frames"] = frames
    return found


async def _room_flags(proxy: str, moves: int, meter: Meter) -> dict[str, Any]:
    """A started two-player room, then `moves` flags through nginx, the players in turn (each
    one stored): the meter's figures of a race room's moves alone."""
    connection = await Connection.open(proxy)
    body = {"player": "host", "preset": "beginner"}
    status, created = await connection.request("POST", "/api/races", body)
    assert status == 201, created
    path = f"/api/races/{created['room']['id']}"
    status, joined = await connection.request("POST", f"{path}/join", {"player": "guest"})
    assert status == 200, joined
    tokens = [created["token"], joined["token"]]
    status, room = await connection.request("POST", f"{path}/start", None, tokens[0])
    assert status == 200, room
    await asyncio.sleep(room["starts_in"] + 0.1)
    meter.reset()
    for n in range(moves):
        cell = {"row": n // 2 % 9, "col": n // 18 % 9}
        status, answer = await connection.request("POST", f"{path}/flag", cell, tokens[n % 2])
        assert status == 200, answer
    connection.close()
    return meter.read()


def measure(
    processes: int, database: str, postmaster: int, redis_url: str, args: argparse.Namespace
) -> dict[str, Any]:
    schema = f"mines_costs_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "MINES_REDIS_PREFIX": f"mines-costs-{schema}"}
    options = [*EXTRA, "--redis", redis_url]
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="mines-nginx-") as folder:
        servers = [
            stack.enter_context(
                server_process(f"{database}?schema={schema}", extra=options, env=env)
            )
            for _ in range(processes)
        ]
        ports = [int(s.url.rsplit(":", 1)[1]) for s in servers]
        proxy = stack.enter_context(
            nginx(site_for(ports, free_port(), Path(folder) / "cache"), Path(folder))
        )
        meter = Meter(database, postmaster, redis_url, servers)
        stack.callback(meter.close)
        # A process's first requests open its connections and fill its caches: a cost per
        # process, not per move, so it is played (and shown) apart from the moves counted.
        warm = meter.server_cpu()
        asyncio.run(drive([proxy], args.clients, args.warmup, args.max_moves))
        warm = meter.server_cpu() - warm
        meter.reset()
        started = time.monotonic()
        tally = asyncio.run(drive([proxy], args.clients, args.seconds, args.max_moves))
        elapsed = time.monotonic() - started
        load = meter.read()
        load["answered"] = len(tally.latencies)
        load["errors"] = len(tally.errors) + sum("Traceback" in s.log() for s in servers)
        load["moves_per_s"] = len(tally.latencies) / elapsed
        watched = asyncio.run(_flag_watched(proxy, servers, args.watched, MOVES_WATCHED, meter))
        rooms = asyncio.run(_room_flags(proxy, ROOM_MOVES, meter))
    return {
        "processes": processes,
        "warmup_cpu": warm,
        "load": load,
        "watched": watched,
        "rooms": rooms,
        "samples": tally.errors[:3],
    }


def per_move(found: dict[str, Any], stored_by: str = "stored") -> dict[str, float]:
    stored = max(1, found[stored_by])
    return {
        "statements": found["statements"] / stored,
        "transactions": found["transactions"] / stored,
        "notifies": found["notifies"] / stored,
        "wal_statements": found["wal_statements"] / stored,
        "wal_lsn": found["wal_lsn"] / stored,
        "redis": found["redis"] / stored,
        "publish": found["publish"] / stored,
        "server_cpu_ms": 1000 * found["server_cpu"] / stored,
        "switches": found["switches"] / stored,
        "postgres_cpu_ms": 1000 * found["postgres_cpu"] / stored,
        "messages": found["messages"] / stored,
    }


def show(result: dict[str, Any]) -> None:
    load, watched = result["load"], result["watched"]
    costs, frames = per_move(load), per_move(watched)
    print(
        f"{result['processes']} process(es) behind nginx: {load['answered']} moves answered "
        f"({load['moves_per_s']:.0f}/s), {load['stored']} stored, {load['errors']} errors "
        f"(after a warm-up that took {1000 * result['warmup_cpu']:.0f} ms of server CPU)\n"
        f"  per stored move: {costs['statements']:.2f} SQL statements (BEGIN and COMMIT "
        f"included), {costs['transactions']:.2f} transactions, {costs['notifies']:.2f} NOTIFY, "
        f"{costs['wal_statements']:.0f} B WAL by statements ({costs['wal_lsn']:.0f} B by LSN), "
        f"{costs['redis']:.2f} Redis commands ({costs['publish']:.2f} PUBLISH), "
        f"{costs['messages']:.2f} messages to other processes; server CPU "
        f"{costs['server_cpu_ms']:.2f} ms, PostgreSQL CPU {costs['postgres_cpu_ms']:.2f} ms; "
        f"{costs['switches']:.2f} involuntary context switches of the servers; "
        f"{load['periodic']} reads of the block list apart\n"
        f"  moves alone, games watched on every process ({watched['stored']} moves): "
        f"{frames['statements']:.2f} statements, {frames['transactions']:.2f} transactions, "
        f"{frames['notifies']:.2f} NOTIFY, {frames['wal_statements']:.0f} B WAL by statements "
        f"({frames['wal_lsn']:.0f} B by LSN), {frames['redis']:.2f} Redis commands "
        f"({frames['publish']:.2f} PUBLISH), {frames['messages']:.2f} messages to other "
        f"processes, {watched['frames']} frames in all; server CPU "
        f"{frames['server_cpu_ms']:.2f} ms, PostgreSQL CPU {frames['postgres_cpu_ms']:.2f} ms"
    )
    for query, (calls, _) in watched["top"][:6]:
        print(f"    moves alone: {calls:>5} x {query[:80]!r}")
    room = per_move(result["rooms"], "room_moves")
    print(
        f"  race room moves alone ({result['rooms']['room_moves']} flags): "
        f"{room['statements']:.2f} statements, {room['transactions']:.2f} transactions, "
        f"{room['notifies']:.2f} NOTIFY, {room['wal_lsn']:.0f} B WAL by LSN, "
        f"{room['redis']:.2f} Redis commands ({room['publish']:.2f} PUBLISH); server CPU "
        f"{room['server_cpu_ms']:.2f} ms, PostgreSQL CPU {room['postgres_cpu_ms']:.2f} ms"
    )
    for query, (calls, _) in result["rooms"]["top"][:6]:
        print(f"    race room: {calls:>5} x {query[:80]!r}")
    for query, (calls, wal) in load["top"]:
        print(f"    {calls:>7} x {query[:90]!r} ({wal / max(1, calls):.0f} B WAL each)")
    print(f"    Redis: {load['redis_by']}")


PGBENCH_SETUP = """
CREATE TABLE games (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, status TEXT NOT NULL,
    layout TEXT, owner TEXT);
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
    move TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, PRIMARY KEY (game_id, seq));
INSERT INTO games SELECT n, 0, 'IN_PROGRESS', NULL, NULL FROM generate_series(1, 20000) n;
"""
BEFORE = r"""\set g random(1, 20000)
SELECT id, version, status, layout FROM games WHERE id = :g;
BEGIN;
SELECT version AS v FROM games WHERE id = :g FOR UPDATE \gset
INSERT INTO moves (game_id, seq, move, at) VALUES (:g, :v + 1, 'F1,1', 1.0);
UPDATE games SET version = :v + 1, status = 'IN_PROGRESS', layout = COALESCE(NULL, layout)
    WHERE id = :g;
SELECT pg_notify('mines_moves', 'origin ' || :g);
COMMIT;
"""
AFTER = r"""\set g random(1, 20000)
BEGIN;
UPDATE games SET version = version + 1, status = 'IN_PROGRESS', layout = COALESCE(NULL, layout),
    owner = 'p' WHERE id = :g RETURNING version AS v \gset
INSERT INTO moves (game_id, seq, move, at) VALUES (:g, :v, 'F1,1', 1.0);
COMMIT;
"""


def pgbench(database: str, folder: Path, seconds: float) -> dict[str, dict[int, float]]:
    """Moves/s of the move's transaction before and after, by pgbench clients."""
    import psycopg

    found: dict[str, dict[int, float]] = {"before": {}, "after": {}}
    for name, script in (("before", BEFORE), ("after", AFTER)):
        (folder / f"{name}.sql").write_text(script)
    for clients in (8, 16, 32):
        for name in ("before", "after"):
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute("DROP TABLE IF EXISTS moves, games")
                for statement in PGBENCH_SETUP.split(";"):
                    if statement.strip():
                        connection.execute(statement)
            options = ["-n", "-M", "prepared", "-c", str(clients), "-j", "2"]
            run = subprocess.run(
                [
                    _pg_bin("pgbench"),
                    *options,
                    "-T",
                    str(int(seconds)),
                    "-f",
                    str(folder / f"{name}.sql"),
                    database,
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            tps = re.search(r"tps = ([\d.]+)", run.stdout)
            found[name][clients] = float(tps[1]) if tps else 0.0
            print(f"  pgbench {name:<6} {clients:>2} clients: {found[name][clients]:.0f} moves/s")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=4, help="processes behind nginx (N)")
    parser.add_argument("--seconds", type=float, default=8.0, help="how long the load lasts")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds of load before counting starts"
    )
    parser.add_argument("--clients", type=int, default=16, help="concurrent players")
    parser.add_argument("--max-moves", type=int, default=20_000, help="stop the load at this")
    parser.add_argument("--watched", type=int, default=8, help="games watched on every process")
    parser.add_argument("--pgbench", action="store_true", help="pgbench before and after too")
    args = parser.parse_args(argv)
    checks = Checks()
    if nginx_binary() is None:
        checks.report("costs", False, "nginx is not installed (Debian: apt-get install nginx)")
        return checks.exit_code
    with (
        tempfile.TemporaryDirectory(prefix="mines-costs-") as folder,
        private_postgres(Path(folder)) as (database, postmaster),
        private_redis(Path(folder)) as redis_url,
    ):
        one = measure(1, database, postmaster, redis_url, args)
        show(one)
        many = measure(args.processes, database, postmaster, redis_url, args)
        show(many)
        bench = pgbench(database, Path(folder), args.seconds) if args.pgbench else None
    costs, single = per_move(many["load"]), per_move(one["load"])
    moves = per_move(many["watched"])
    checks.report(
        f"per stored move, {args.processes} processes",
        moves["notifies"] == 0
        and moves["transactions"] <= TARGET_TRANSACTIONS
        and moves["statements"] <= TARGET_STATEMENTS
        and many["load"]["errors"] == 0,
        f"{moves['notifies']:.2f} NOTIFY, {moves['transactions']:.2f} transactions, "
        f"{moves['statements']:.2f} statements (BEGIN and COMMIT counted), "
        f"{many['load']['errors']} errors in the load (target 0, "
        f"<= {TARGET_TRANSACTIONS}, <= {TARGET_STATEMENTS}, 0)",
    )
    room = per_move(many["rooms"], "room_moves")
    checks.report(
        f"per stored race room move, {args.processes} processes",
        room["notifies"] == 0
        and room["transactions"] <= TARGET_TRANSACTIONS
        and room["statements"] <= TARGET_STATEMENTS,
        f"{room['notifies']:.2f} NOTIFY, {room['transactions']:.2f} transactions, "
        f"{room['statements']:.2f} statements (target 0, <= {TARGET_TRANSACTIONS}, "
        f"<= {TARGET_STATEMENTS})",
    )
    unwatched = costs["messages"]
    watched = moves["messages"]
    per_frame = many["watched"]["messages"] / max(1, many["watched"]["publish"])
    checks.report(
        "messages only to the watchers' processes",
        unwatched == 0 and 0 < per_frame <= args.processes - 1,
        f"{unwatched:.2f} messages to other processes per move of an unwatched game, "
        f"{per_frame:.2f} per frame published of a game watched on all {args.processes} "
        f"({watched:.2f} per stored move; target 0, and at most {args.processes - 1})",
    )
    ratio = costs["server_cpu_ms"] / max(1e-9, single["server_cpu_ms"])
    checks.report(
        "server CPU per move",
        ratio <= TARGET_CPU_RATIO,
        f"{costs['server_cpu_ms']:.2f} ms a stored move with {args.processes} processes, "
        f"{single['server_cpu_ms']:.2f} ms with one ({ratio:.2f}x; target <= "
        f"{TARGET_CPU_RATIO:.2f}x)",
    )
    if bench is not None:
        grows = bench["after"][32] > 1.2 * bench["after"][8]
        checks.report(
            "one PostgreSQL's moves/s by clients",
            bench["after"][32] > bench["before"][32],
            "pgbench, before (NOTIFY) "
            + ", ".join(f"{c}: {v:.0f}" for c, v in bench["before"].items())
            + "; after "
            + ", ".join(f"{c}: {v:.0f}" for c, v in bench["after"].items())
            + f" moves/s by clients ({'grows' if grows else 'flat'} after)",
        )
    return checks.exit_code
