"""The shipped deployment: nginx, 2 processes, PostgreSQL, Redis; one process killed.

Run with `./dev bench cluster [--runs N] [--seconds S]`. It starts exactly what deploy/ ships
(Debian's nginx with deploy/nginx/mines.conf, two `mines serve` processes configured by
deploy/mines.env on a schema of its own in PostgreSQL and a Redis prefix of its own), then:

1. plays Expert games with `--clients` players through nginx and directly (both processes),
   `--runs` times each, alternating, and compares moves/s and p99: through nginx the target
   is >= 80% of direct's moves/s and a p99 <= 2x direct's;
2. races 4 rooms of 2 solver bots to the end through nginx (benchmarks/race.py's bots);
3. plays games through nginx with a WebSocket watcher of each game on both processes, kills
   one process (SIGKILL) a third of the way in, and checks that no answered move is lost (every
   game's stored version is at least its last answered one), that the other process keeps
   answering moves, and that its watchers keep receiving them;
4. before that, restarts both processes one after the other as the shipped unit does (each
   drained by SIGUSR1, then started again and waited for at /readyz) while 6 players create
   games and flag cells through nginx, and counts the failed requests (target: none).
"""

from __future__ import annotations

import argparse
import asyncio
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

from benchmarks import race
from benchmarks.checks import Checks
from benchmarks.load import POSTGRES, RAISED_RATES, Connection, Tally, drive, report
from tests.server.cluster import nginx, nginx_binary, shipped_settings, site_for_test
from tests.server.processes import ServerProcess, free_port, server_process
from tests.server.rolling import rolling_restart

TARGET_SHARE = 0.8
"""Moves/s through nginx against direct, at least."""
TARGET_P99_RATIO = 2.0
"""p99 through nginx against direct, at most."""
EXTRA = [*RAISED_RATES, "--rate-limit-game", "1000000/second"]
"""The load generator is one address, and the kill run's players move fast in their games."""
KILL_AT = 1 / 3
"""The share of the kill run after which one process is killed."""


@dataclass
class KillTally:
    answered: dict[str, int] = field(default_factory=dict)
    """Each game's highest version answered to its player."""
    moves_before: int = 0
    moves_after: int = 0
    refused: int = 0
    """Moves that got no answer or an error: in flight to the killed process, or sent to it
    before nginx marked it down."""
    frames: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: []})
    """When each process's watchers received a frame."""


async def flagger(
    url: str, deadline: float, killed: asyncio.Event, tally: KillTally, seed: int, game: Any
) -> None:
    """Flags and unflags random cells of one game through `url` until the deadline: every
    such move changes the game, so each answered one has a version of its own."""
    rng = random.Random(seed)
    path, token = f"/api/games/{game['id']}", game["token"]
    connection: Connection | None = None
    while time.monotonic() < deadline:
        try:
            connection = connection or await Connection.open(url)
            body = {"row": rng.randrange(16), "col": rng.randrange(30)}
            status, answer = await connection.request("POST", f"{path}/flag", body, token)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            tally.refused += 1
            connection = None
            await asyncio.sleep(0.05)
            continue
        if status != 200:
            tally.refused += 1
            continue
        version = int(answer["view"]["version"])
        tally.answered[game["id"]] = max(tally.answered.get(game["id"], 0), version)
        if killed.is_set():
            tally.moves_after += 1
        else:
            tally.moves_before += 1
    if connection is not None:
        connection.close()


async def watcher(url: str, which: int, deadline: float, tally: KillTally) -> None:
    """A live view of one game on one process, noting when each frame comes."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    try:
        async with connect(url.replace("http", "ws", 1)) as socket:
            while (left := deadline - time.monotonic()) > 0:
                try:
                    await asyncio.wait_for(socket.recv(), left)
                except TimeoutError:
                    return
                tally.frames[which].append(time.monotonic())
    except (OSError, WebSocketException):
        return  # the killed process's watchers end here


async def kill_run(
    proxy: str, processes: list[ServerProcess], clients: int, seconds: float
) -> tuple[KillTally, float]:
    tally = KillTally()
    setup = await Connection.open(proxy)
    games = []
    for _ in range(clients):
        status, game = await setup.request("POST", "/api/games", {"preset": "expert"})
        assert status == 201, game
        games.append(game)
    setup.close()
    killed = asyncio.Event()
    start = time.monotonic()
    deadline = start + seconds
    tasks = [
        asyncio.create_task(watcher(f"{p.url}/api/games/{g['id']}/live", i, deadline, tally))
        for g in games
        for i, p in enumerate(processes)
    ]
    tasks += [
        asyncio.create_task(flagger(proxy, deadline, killed, tally, n, game))
        for n, game in enumerate(games)
    ]
    await asyncio.sleep(seconds * KILL_AT)
    processes[0].process.kill()
    killed_at = time.monotonic()
    killed.set()
    await asyncio.gather(*tasks)
    lost = 0
    final = await Connection.open(proxy)
    for game in games:
        status, answer = await final.request("GET", f"/api/games/{game['id']}")
        assert status == 200, answer
        if int(answer["view"]["version"]) < tally.answered.get(game["id"], 0):
            lost += 1
    final.close()
    tally.answered = {"lost": lost}  # what the report needs of it now
    return tally, killed_at


def compare(proxy: str, direct: list[str], args: argparse.Namespace) -> dict[str, list[Any]]:
    """Alternating runs through nginx and directly on both processes."""
    runs: dict[str, list[dict[str, Any]]] = {"nginx": [], "direct": []}
    for index in range(args.runs):
        order = ("nginx", "direct") if index % 2 == 0 else ("direct", "nginx")
        for kind in order:
            urls = [proxy] if kind == "nginx" else direct
            started = time.monotonic()
            tally: Tally = asyncio.run(drive(urls, args.clients, args.seconds, args.max_moves))
            runs[kind].append(report(kind, 2, tally, time.monotonic() - started))
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="how long each run lasts")
    parser.add_argument("--runs", type=int, default=3, help="runs through nginx and direct")
    parser.add_argument("--clients", type=int, default=16, help="concurrent players")
    parser.add_argument("--max-moves", type=int, default=50_000, help="stop a run after this many")
    parser.add_argument("--postgres", default=POSTGRES, help="the PostgreSQL database to use")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="instead: the costs of a stored move with 1 and N processes (benchmarks/costs.py)",
    )
    parser.add_argument("--pgbench", action="store_true", help="with --processes: pgbench too")
    args = parser.parse_args(argv)
    if args.processes:
        from benchmarks import costs

        given = ["--processes", str(args.processes), "--seconds", str(args.seconds)]
        given += ["--clients", str(args.clients), "--max-moves", str(args.max_moves)]
        return costs.main([*given, *(["--pgbench"] if args.pgbench else [])])
    checks = Checks()
    if nginx_binary() is None:
        checks.report("cluster", False, "nginx is not installed (Debian: apt-get install nginx)")
        return checks.exit_code
    schema = f"mines_cluster_{uuid.uuid4().hex[:10]}"
    database = f"{args.postgres}?schema={schema}"
    env = {**os.environ, **shipped_settings(), "MINES_DB": database}
    env["MINES_REDIS_PREFIX"] = f"mines-cluster-{schema}"
    env["MINES_ACCESS_LOG"] = "1"
    try:
        with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="mines-nginx-") as folder:
            processes = [
                stack.enter_context(server_process(database, extra=EXTRA, env=env))
                for _ in range(2)
            ]
            ports = [int(p.url.rsplit(":", 1)[1]) for p in processes]
            site = site_for_test((ports[0], ports[1]), free_port(), Path(folder) / "cache")
            proxy = stack.enter_context(nginx(site, Path(folder)))
            print(f"nginx {proxy} in front of {', '.join(p.url for p in processes)}", flush=True)
            runs = compare(proxy, [p.url for p in processes], args)
            races = race.Tally()
            started = time.monotonic()
            asyncio.run(race.race_all(race.fill_rooms([proxy], 4, 2, "beginner"), races))
            race_seconds = time.monotonic() - started
            rolled = rolling_restart(proxy, processes, database, env, stack, extra=EXTRA)
            kill, killed_at = asyncio.run(kill_run(proxy, processes, 8, args.seconds * 1.5))
    finally:
        import psycopg

        with psycopg.connect(args.postgres, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    rate = {kind: statistics.fmean(r["moves_per_s"] for r in found) for kind, found in runs.items()}
    p99 = {kind: statistics.median(r["p99_ms"] for r in found) for kind, found in runs.items()}
    errors = sum(r["errors"] for found in runs.values() for r in found)
    share = rate["nginx"] / rate["direct"]
    checks.report(
        "through nginx against direct",
        share >= TARGET_SHARE and p99["nginx"] <= TARGET_P99_RATIO * p99["direct"] and not errors,
        f"{rate['nginx']:.0f} moves/s through nginx, {rate['direct']:.0f} direct "
        f"({100 * share:.0f}%; mean of {args.runs} runs each); p99 {p99['nginx']:.1f} ms "
        f"against {p99['direct']:.1f} ms ({p99['nginx'] / p99['direct']:.2f}x; median); "
        f"{errors} errors (target >= {100 * TARGET_SHARE:.0f}%, <= {TARGET_P99_RATIO:.0f}x, 0)",
    )
    checks.report(
        "races through nginx",
        races.moves > 0 and not races.errors,
        f"4 rooms of 2 bots raced to the end through nginx: {races.moves} moves in "
        f"{race_seconds:.1f} s, {len(races.errors)} errors {races.errors[:2]}",
    )
    checks.report(
        "rolling restart through nginx",
        rolled.requests > 0 and not rolled.failures,
        f"both processes drained and restarted in turn in {rolled.seconds:.0f} s while 6 "
        f"players played through nginx: {rolled.requests} requests, {len(rolled.failures)} "
        f"failed {rolled.failures[:2]} (target: none failed)",
    )
    lost = kill.answered["lost"]
    survivor_frames = sum(1 for t in kill.frames[1] if t > killed_at)
    checks.report(
        "one process killed",
        lost == 0 and kill.moves_after > 0 and survivor_frames > 0,
        f"{kill.moves_before} moves answered before the kill, {kill.moves_after} after (8 "
        f"players through nginx), {kill.refused} refused or unanswered around it, {lost} "
        f"games missing an answered move; the survivor's watchers got {survivor_frames} "
        f"frames after the kill, the killed one's {len(kill.frames[0])} before it "
        "(target: none lost, moves and frames after the kill)",
    )
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
