"""Terminal app: key-to-answer time on big boards, and long moves' answer and result.

Run with `./dev bench tui [--repeat N] [--rounds R] [--long L]`. Keys go to Textual's
headless driver; a key is answered when the first screen update after it has been rendered
to terminal text (the headless driver only skips the final write).

Keys (cursor right and left, flag and unflag, reveal or chord, a scroll by a screen), after
a first reveal, on 100x100, 1000x1000, 4000x4000 and a sparse 10^6 x 10^6 board. Two
figures per key, the median of N presses (30 by default), each board's best round of R (3):
- wall milliseconds from the key to its answer, what the player sees. Target: at most
  100 ms on every board ("the UI answers keys within 100 ms whatever the board");
- CPU milliseconds of the UI thread alone (`time.thread_time`), against 100x100 at the same
  density as 1000x1000, larger than the screen, each scroll undone (untimed) before the
  next so its keys scroll and repaint as much as on the big boards. Target: within twice
  100x100. A long move's own thread is not the UI's, so its work is not counted here.

Long moves (boards over a million cells: the first reveal on 4000x4000, and on 10^6 x 10^6,
which floods the whole sea), L fresh games each (3 by default), reported apart:
- answer: wall ms from space to the screen saying Working… Target: at most 100 ms;
- a key while it works: wall ms from `l`, pressed once the move is under way, to its
  answer ("Still working…"). Target: at most 100 ms: the move's thread does not starve
  the UI thread;
- result: wall ms from space to the screen showing the opened board (and the game kept on
  disk), against the engine's own time for the same reveal without the app, measured in
  turn with each game (after one untimed run: a process's first big allocations cost
  more). Target: at most 1.5 times the engine's time, or the engine's time plus 100 ms
  where that is more (a quick move still needs its frames).

Every app keeps its games on disk as `mines play` does (write, sync, rename after every
move), in a temporary folder: the keys that move pay for it here as they do in play.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual import events
from textual._compositor import CompositorUpdate

from benchmarks.checks import Checks
from mines import Game
from mines.tui.app import MinesApp
from mines.tui.board import STILL_WORKING
from mines.tui.clock import PausableClock
from mines.tui.store import RecordStore
from mines.tui.themes import THEMES

SCREEN = (120, 40)
KEYS = ["l", "h", "f", "space", "pagedown"]
"""Cursor right and left, flag and unflag, reveal (or chord), and a scroll by a screen."""
UNDO = {"pagedown": "pageup"}
"""Pressed, untimed, after each timed press of the key: every scroll starts from the same
place, so a board a few screens high scrolls on every press as a huge one does."""
BOARDS = {
    "100x100": (100, 100, 1500),
    "1000x1000": (1000, 1000, 150_000),
    "4000x4000": (4000, 4000, 32_000),
    "10^6 x 10^6 sparse": (1_000_000, 1_000_000, 1000),
}
LONG = ["4000x4000", "10^6 x 10^6 sparse"]
"""Boards whose reveals run off the UI thread (over `LONG_MOVE_CELLS`)."""
SEED = 2024
ANSWER_TARGET_MS = 100.0
RATIO_TARGET = 2.0
"""How much more UI-thread CPU than on 100x100 a key may take on a big board."""
RESULT_SLACK, RESULT_EXTRA_MS = 1.5, 100.0
"""A long move's result: within 1.5 times the engine's time, or its time plus 100 ms."""


class Repaints:
    """Wraps the app's display hook to note the time of each screen update, once rendered,
    with what the screen then said (`state()`)."""

    def __init__(self, app: MinesApp, state: Callable[[], str] = lambda: "") -> None:
        self.done = asyncio.Event()
        self.log: list[tuple[float, str]] = []
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
                self.log.append((time.perf_counter(), state()))
                self.done.set()

        app._display = display  # type: ignore[method-assign]

    async def wait(self) -> float:
        """The time of the next screen update."""
        self.done.clear()
        await asyncio.wait_for(self.done.wait(), timeout=120)
        return self.log[-1][0]

    async def first(self, after: float, *says: str) -> float:
        """The time of the first update after `after` whose state is one of `says`."""
        while True:
            for when, state in self.log:
                if when > after and state in says:
                    return when
            await self.wait()


KEPT_IN: str | None = None
"""The folder the apps keep their games in: a temporary one, removed when the run ends."""


def new_app(rows: int, cols: int, mines: int) -> MinesApp:
    clock = PausableClock(lambda: 0.0)  # a still clock: no timer ticks during the measure
    game = Game(rows, cols, mines, seed=SEED, clock=clock)
    store = RecordStore(Path(tempfile.mkdtemp(prefix="game-", dir=KEPT_IN)))
    return MinesApp(
        game, make_game=lambda r, c, m: game, clock=clock, theme=THEMES["classic"], store=store
    )


def key(name: str) -> events.Key:
    return events.Key(name, name if len(name) == 1 else " ")


@dataclass
class KeyTimes:
    wall: dict[str, float] = field(default_factory=dict)
    ui_cpu: dict[str, float] = field(default_factory=dict)


async def press_times(rows: int, cols: int, mines: int, repeat: int) -> KeyTimes:
    """Median wall and UI-thread CPU milliseconds from each key to its answer, after a first
    reveal (waited for, off the UI thread or not)."""
    app = new_app(rows, cols, mines)
    times = KeyTimes()
    async with app.run_test(size=SCREEN) as pilot:
        app.board.move_cursor(rows // 2, cols // 2)
        await pilot.press("space")
        while app.board.busy:
            await pilot.pause(0.05)
        await pilot.pause()
        repaints = Repaints(app)
        driver = app._driver
        assert driver is not None
        for name in KEYS:
            wall, cpu = [], []
            for _ in range(repeat):
                await pilot.pause()
                answered = asyncio.ensure_future(repaints.wait())
                start, start_cpu = time.perf_counter(), time.thread_time()
                driver.send_message(key(name))
                end = await answered
                cpu.append((time.thread_time() - start_cpu) * 1000)
                wall.append((end - start) * 1000)
                while app.board.busy:  # a reveal that went off the UI thread
                    await pilot.pause(0.01)
                if back := UNDO.get(name):
                    await pilot.pause()
                    answered = asyncio.ensure_future(repaints.wait())
                    driver.send_message(key(back))
                    await answered
            times.wall[name] = statistics.median(wall)
            times.ui_cpu[name] = statistics.median(cpu)
    return times


@dataclass
class LongMove:
    answer: float
    key_while_working: float
    """NaN when the move was over before the key could be pressed."""
    result: float


async def long_move(rows: int, cols: int, mines: int) -> LongMove:
    """Wall milliseconds of one first reveal off the UI thread, in a fresh game."""
    app = new_app(rows, cols, mines)
    async with app.run_test(size=SCREEN) as pilot:
        app.board.move_cursor(rows // 2, cols // 2)
        await pilot.pause()

        def state() -> str:
            if app.board.busy or app.busy:
                said = str(app.query_one("#message").render())
                return "still working" if STILL_WORKING in said else "working"
            return "done"

        repaints = Repaints(app, state)
        driver = app._driver
        assert driver is not None
        start = time.perf_counter()
        driver.send_message(key("space"))
        # Answered: Working… on the screen, or the result if the move was that quick.
        answer = await repaints.first(start, "working", "done")
        key_answer = float("nan")
        await asyncio.sleep(0.05)
        if app.board.busy:  # still under way: a key now must be answered as the flood goes on
            pressed = time.perf_counter()
            driver.send_message(key("l"))
            key_answer = (await repaints.first(pressed, "still working") - pressed) * 1000
        result = await repaints.first(start, "done")
        return LongMove((answer - start) * 1000, key_answer, (result - start) * 1000)


def engine_ms(rows: int, cols: int, mines: int) -> float:
    """The engine's own time for the same first reveal, without the app."""
    game = Game(rows, cols, mines, seed=SEED)
    start = time.perf_counter()
    game.reveal(rows // 2, cols // 2)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=30, help="presses of each key per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best counts")
    parser.add_argument("--long", type=int, default=3, help="fresh games per long move")
    args = parser.parse_args()
    global KEPT_IN
    with tempfile.TemporaryDirectory(prefix="mines-bench-tui-") as folder:
        KEPT_IN = folder
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    """Every figure and its verdict; the exit code."""
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")
    rounds = [
        {name: asyncio.run(press_times(*size, args.repeat)) for name, size in BOARDS.items()}
        for _ in range(args.rounds)
    ]
    wall = {n: {k: min(r[n].wall[k] for r in rounds) for k in KEYS} for n in BOARDS}
    cpu = {n: {k: min(r[n].ui_cpu[k] for r in rounds) for k in KEYS} for n in BOARDS}
    base = cpu["100x100"]
    print(
        f"\nkey to answer, best of {args.rounds} rounds of the median of {args.repeat} "
        f"presses, screen {SCREEN[0]}x{SCREEN[1]}: wall ms / UI-thread CPU ms (x 100x100)"
    )
    print(f"{'board':<20}" + "".join(f"{k:>24}" for k in KEYS))
    for name in BOARDS:
        cells = "".join(
            f"{wall[name][k]:>8.1f} / {cpu[name][k]:>6.2f} (x{cpu[name][k] / base[k]:.2f})"
            for k in KEYS
        )
        print(f"{name:<20}{cells}")
    checks = Checks()
    for name in BOARDS:
        slowest = max(KEYS, key=lambda k: wall[name][k])
        checks.report(
            f"{name} key to answer",
            wall[name][slowest] <= ANSWER_TARGET_MS,
            f"slowest key {slowest!r}: {wall[name][slowest]:.1f} ms wall "
            f"(target <= {ANSWER_TARGET_MS:g} ms)",
        )
        if name == "100x100":
            continue
        worst = max(KEYS, key=lambda k: cpu[name][k] / base[k])
        ratio = cpu[name][worst] / base[worst]
        checks.report(
            f"{name} UI-thread CPU per key against 100x100",
            ratio <= RATIO_TARGET,
            f"key {worst!r}: {cpu[name][worst]:.2f} ms vs {base[worst]:.2f} ms = x{ratio:.2f} "
            f"(target <= x{RATIO_TARGET:g})",
        )
    print(f"\nlong moves: the first reveal, {args.long} fresh games each, median wall ms")
    for name in LONG:
        size = BOARDS[name]
        engine_ms(*size)  # untimed: the first big allocations of the process cost more
        moves, engine_times = [], []
        for _ in range(args.long):  # interleaved, so that both meet the same machine
            engine_times.append(engine_ms(*size))
            moves.append(asyncio.run(long_move(*size)))
        engine = statistics.median(engine_times)
        answer = statistics.median(m.answer for m in moves)
        # Only the games whose move still ran when the key came have a figure for it.
        timed_keys = [m.key_while_working for m in moves if not math.isnan(m.key_while_working)]
        during = statistics.median(timed_keys) if timed_keys else math.nan
        result = statistics.median(m.result for m in moves)
        key_said = (
            f"a key while it works answered after {during:.1f} ms "
            f"({len(timed_keys)} of {len(moves)} games)"
            if timed_keys
            else "no key could be sent while it worked (the move was over within 50 ms)"
        )
        print(
            f"{name}: Working… shown after {answer:.1f} ms; {key_said}; result on screen "
            f"after {result:.0f} ms (the engine alone: {engine:.0f} ms)"
        )
        checks.report(
            f"{name} long move answered",
            answer <= ANSWER_TARGET_MS,
            f"{answer:.1f} ms to Working… (target <= {ANSWER_TARGET_MS:g} ms)",
        )
        if timed_keys:
            checks.report(
                f"{name} key while a long move works",
                during <= ANSWER_TARGET_MS,
                f"{during:.1f} ms (target <= {ANSWER_TARGET_MS:g} ms)",
            )
        limit = max(RESULT_SLACK * engine, engine + RESULT_EXTRA_MS)
        checks.report(
            f"{name} long move's result on screen",
            result <= limit,
            f"{result:.0f} ms vs the engine's {engine:.0f} ms (target <= {RESULT_SLACK:g} x "
            f"engine or engine + {RESULT_EXTRA_MS:g} ms, whichever is more: {limit:.0f} ms)",
        )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
