"""Race benchmark: rooms of bots racing over HTTP on two servers sharing PostgreSQL.

Run with `nice ./dev bench race [--rooms 50 --players 4]` (or `python -m benchmarks.race`). It
starts two `mines serve` processes on one PostgreSQL schema and one Redis (`--redis`, or
`--redis none` for PostgreSQL's NOTIFY, the fallback without Redis), fills the rooms (each
player on either server, so each room's copies on both fall behind and are fenced), connects
every player's WebSocket from a second process, and lets the
solver's `Bot` play every player until every race is over. It prints moves per second, the
delay from a move's answer to its event reaching every player of the room (p50, p99, max;
the target is p99 <= 100 ms), and whether any socket lost or reordered an event. To say
where a delay comes from, it splits the delays by socket (on the mover's server or on the
other one, whose events come through the room's Redis channel) and reports how late the
event loops of its own two processes ran (a late client loop shows the machine, not the
servers, is the limit).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import multiprocessing
import random
import statistics
import sys
import time
import uuid
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from typing import Any

import httpx

from benchmarks.load import POSTGRES, RAISED_RATES, Connection
from mines.solver import Bot
from mines.view import BoardView
from tests.server.processes import server_process

TARGET_P99_MS = 100.0
REDIS = "redis://127.0.0.1:6379/0"
WATCH_SECONDS = 600.0
"""The watchers give up after this long, so a lost event cannot hang the benchmark."""
PROBE_SECONDS = 0.005
"""The loop-lag probe sleeps this long, and records by how much more it slept."""


@dataclass
class Seat:
    room: str
    player: int
    token: str
    url: str


@dataclass
class Tally:
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    answered: dict[tuple[str, int], float] = field(default_factory=dict)
    """(room, seq) -> the earliest wall time an answer showed the room at that seq."""
    lags: list[float] = field(default_factory=list)
    """How late the bots' event loop woke the lag probe, in seconds."""


def fill_rooms(urls: list[str], rooms: int, players: int, preset: str) -> list[list[Seat]]:
    """Create the rooms and seat their players, alternating the two servers."""
    filled = []
    with httpx.Client(timeout=30) as client:
        for r in range(rooms):
            url = urls[r % len(urls)]
            created = client.post(
                f"{url}/api/races", json={"player": "bot 0", "preset": preset, "seed": r}
            ).json()
            room = created["room"]["id"]
            seats = [Seat(room, 0, created["token"], url)]
            for p in range(1, players):
                url = urls[(r + p) % len(urls)]
                joined = client.post(f"{url}/api/races/{room}/join", json={"player": f"bot {p}"})
                seats.append(Seat(room, p, joined.json()["token"], url))
            filled.append(seats)
    return filled


def watch(seats: list[Seat], pipe: Pipe) -> None:
    """The watcher process: every player's WebSocket, each event's arrival time per socket."""
    pipe.send(asyncio.run(_watch_all(seats, pipe)))


async def _watch_all(seats: list[Seat], pipe: Pipe) -> dict[str, Any]:
    import websockets

    arrivals: list[tuple[str, int, int, float, int | None]] = []
    """(room, watching player, seq, arrival time, the player whose move it was)"""
    problems: list[str] = []
    ready = asyncio.Event()
    connected = [0]

    async def one(seat: Seat) -> None:
        address = seat.url.replace("http://", "ws://") + f"/api/races/{seat.room}/live"
        async with websockets.connect(f"{address}?token={seat.token}") as socket:
            first = json.loads(await socket.recv())
            expected = first["room"]["seq"] + 1
            connected[0] += 1
            if connected[0] == len(seats):
                ready.set()
            while True:
                message = json.loads(await socket.recv())
                now = time.time()
                if message["type"] != "event":
                    problems.append(f"{seat.room}/{seat.player}: {message['type']}")
                    continue
                seq = message["event"]["seq"]
                if seq != expected:
                    problems.append(f"{seat.room}/{seat.player}: got {seq}, expected {expected}")
                expected = seq + 1
                arrivals.append((seat.room, seat.player, seq, now, message["event"]["player"]))
                if message["event"]["kind"] == "over":
                    return

    tasks = [asyncio.create_task(one(seat)) for seat in seats]
    lags: list[float] = []
    probe = asyncio.create_task(lag_probe(lags))
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not ready.is_set():  # a socket failed before every one was connected
        failed = next(task for task in tasks if task.done())
        pipe.send(f"a socket failed to connect: {failed.exception()!r}")
        raise SystemExit(1)
    pipe.send("ready")
    done, pending = await asyncio.wait(tasks, timeout=WATCH_SECONDS)
    for task in pending:
        task.cancel()
        problems.append("a socket never saw its race end")
    for task in done:
        if task.exception() is not None:
            problems.append(repr(task.exception()))
    probe.cancel()
    return {"arrivals": arrivals, "problems": problems, "lags": lags}


async def lag_probe(lags: list[float]) -> None:
    """Record, until cancelled, how much later than asked this event loop wakes a sleeper."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(PROBE_SECONDS)
        lags.append(time.monotonic() - asleep - PROBE_SECONDS)


async def play(seat: Seat, tally: Tally, seed: int) -> None:
    """One bot: reads its view from each answer, opens what the solver says, until the end."""
    connection = await Connection.open(seat.url)
    bot = Bot(seed)
    rng = random.Random(seed)
    path = f"/api/races/{seat.room}"
    try:
        status, room = await connection.request("GET", path, token=seat.token)
        while room["state"] != "over":
            if room["starts_in"] and room["starts_in"] > 0:
                await asyncio.sleep(room["starts_in"])
                status, room = await connection.request("GET", path, token=seat.token)
                continue
            if room["players"][seat.player]["out"]:
                return
            row, col = _choose(bot, room["view"], rng)
            status, answer = await connection.request(
                "POST", f"{path}/reveal", {"row": row, "col": col}, seat.token
            )
            if status == 409 and "over" in answer.get("detail", ""):
                return
            if status != 200:
                tally.errors.append(f"reveal: {status} {answer}")
                return
            tally.moves += 1
            key = (seat.room, answer["seq"])
            tally.answered.setdefault(key, time.time())
            room = answer
    finally:
        connection.close()


def _choose(bot: Bot, view: dict[str, Any], rng: random.Random) -> tuple[int, int]:
    """The bot's next cell. A mine another player hit is shown to the bot as a flag, which
    the solver counts as an unknown cell: when it would then open that very cell (a coin
    flip to it), a random hidden cell is opened instead."""
    lines = [line.replace("X", "F") for line in view["cells"]]
    for row, col in bot.moves(BoardView.from_strings(lines, mines_left=view["mines_left"])):
        if lines[row][col] == "H":
            return row, col
    hidden = [(r, c) for r, line in enumerate(lines) for c, s in enumerate(line) if s == "H"]
    return rng.choice(hidden)


class Shown:
    """When an answer first showed a room at a seq or later: the earliest moment the
    event of that seq was known to a player."""

    def __init__(self, tally: Tally):
        by_room: dict[str, list[tuple[int, float]]] = {}
        for (room, seq), at in tally.answered.items():
            by_room.setdefault(room, []).append((seq, at))
        self._seqs: dict[str, list[int]] = {}
        self._earliest: dict[str, list[float]] = {}
        for room, answers in by_room.items():
            answers.sort()
            earliest = [at for _, at in answers]
            for i in range(len(earliest) - 2, -1, -1):  # the minimum over every later seq
                earliest[i] = min(earliest[i], earliest[i + 1])
            self._seqs[room] = [seq for seq, _ in answers]
            self._earliest[room] = earliest

    def at(self, room: str, seq: int) -> float | None:
        seqs = self._seqs.get(room, [])
        i = bisect.bisect_left(seqs, seq)
        return self._earliest[room][i] if i < len(seqs) else None


def delays(tally: Tally, arrivals: list[Any]) -> list[float]:
    """Per event: when the last player of its room got it, less the first answer showing it."""
    reached: dict[tuple[str, int], float] = {}
    for room, _, seq, at, _ in arrivals:
        reached[room, seq] = max(reached.get((room, seq), 0.0), at)
    shown = Shown(tally)
    known = ((last, shown.at(*key)) for key, last in reached.items())
    return [last - first for last, first in known if first is not None]


def delays_by_socket(
    rooms: list[list[Seat]], tally: Tally, arrivals: list[Any]
) -> tuple[list[float], list[float]]:
    """Per arrival, its delay from the first answer showing the event: at sockets on the
    mover's server, and at sockets on the other one."""
    url = {(seat.room, seat.player): seat.url for seats in rooms for seat in seats}
    shown = Shown(tally)
    same: list[float] = []
    other: list[float] = []
    for room, player, seq, at, mover in arrivals:
        first = shown.at(room, seq)
        if mover is None or first is None:
            continue  # the end (nobody's move), or an event no answer showed
        (same if url[room, player] == url[room, mover] else other).append(at - first)
    return same, other


def percentiles(seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds) or [0.0]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"


async def race_all(rooms: list[list[Seat]], tally: Tally) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        for seats in rooms:
            host = seats[0]
            answer = await client.post(
                f"{host.url}/api/races/{host.room}/start",
                headers={"Authorization": f"Bearer {host.token}"},
            )
            if answer.status_code != 200:
                tally.errors.append(f"start: {answer.status_code} {answer.text}")
    probe = asyncio.create_task(lag_probe(tally.lags))
    players = asyncio.gather(
        *(play(seat, tally, i) for i, seat in enumerate(s for seats in rooms for s in seats))
    )
    while not players.done():  # a long run on a busy machine says how far it has got
        await asyncio.wait([players], timeout=10)
        print(f"  ... {tally.moves} move requests so far", file=sys.stderr, flush=True)
    await players
    probe.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="beginner")
    parser.add_argument("--postgres", default=POSTGRES, help="the PostgreSQL database to use")
    parser.add_argument(
        "--redis", default=REDIS, help="the Redis of the live frames ('none': NOTIFY instead)"
    )
    args = parser.parse_args(argv)
    schema = f"mines_race_{uuid.uuid4().hex[:10]}"
    database = f"{args.postgres}?schema={schema}"
    try:
        with ExitStack() as stack:
            # Every bot comes from loopback: the per-address rates are raised, as for bench load,
            # and so is the cap on one address's live sockets (every player watches).
            extra = [*RAISED_RATES, "--sockets-per-address", str(2 * args.rooms * args.players)]
            if args.redis != "none":
                extra += ["--redis", args.redis, "--redis-prefix", schema]
            urls = [
                stack.enter_context(server_process(database, extra=extra)).url for _ in range(2)
            ]
            rooms = fill_rooms(urls, args.rooms, args.players, args.preset)
            ours, theirs = multiprocessing.Pipe()
            seats = [seat for room in rooms for seat in room]
            watcher = multiprocessing.get_context("spawn").Process(
                target=watch, args=(seats, theirs)
            )
            watcher.start()
            if (said := ours.recv()) != "ready":
                raise SystemExit(f"race bench: {said}")
            tally = Tally()
            started = time.monotonic()
            asyncio.run(race_all(rooms, tally))
            elapsed = time.monotonic() - started
            watched = ours.recv()
            watcher.join()
    finally:
        import psycopg

        with psycopg.connect(args.postgres, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    every = delays(tally, watched["arrivals"])
    same, other = delays_by_socket(rooms, tally, watched["arrivals"])
    ms = sorted(1000 * d for d in every) or [0.0]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print(
        f"{args.rooms} rooms x {args.players} bots ({args.preset}) on 2 processes, PostgreSQL, "
        f"{'NOTIFY' if args.redis == 'none' else 'Redis'}: "
        f"{tally.moves} move requests in {elapsed:.1f} s = {tally.moves / elapsed:.0f} moves/s"
    )
    print(f"answer -> event at every player: {percentiles(every)} over {len(every)} events")
    print(f"  at a socket on the mover's server: {percentiles(same)}")
    print(f"  at a socket on the other server:   {percentiles(other)}")
    print(
        f"late wake-ups of the client loops: watchers {percentiles(watched['lags'])}; "
        f"bots {percentiles(tally.lags)}"
    )
    problems = watched["problems"]
    print(f"lost or reordered events: {len(problems)}; request errors: {len(tally.errors)}")
    for problem in (problems + tally.errors)[:5]:
        print(f"  {problem}")
    passed = p99 <= TARGET_P99_MS and not problems and not tally.errors
    print(
        f"{'PASS' if passed else 'FAIL'}: p99 <= {TARGET_P99_MS:.0f} ms, nothing lost or reordered"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
