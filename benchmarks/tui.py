"""Terminal app benchmark: keypress-to-repaint on big boards against 100x100, in one run.

Run with `./dev bench tui [--repeat N] [--rounds R]`. A key event goes to Textual's headless
driver and the clock stops when the screen update it causes has been rendered to terminal
text (the headless driver only skips the final write); the clock is the process's CPU
time, so that waiting for a core on a busy machine is not counted. Each round measures
every board in turn (the median of N presses of each key, 30 by default); a board's figure
for a key is its best round of R (3 by default). The baseline, 100x100 at the same density
as 1000x1000, is larger than the screen and each scroll is undone (untimed) before the
next, so its keys scroll and repaint as much as on the big boards: what is left is the
board's size. The target: a 1000x1000 board, and a sparse 10^6 x 10^6 one, repaint each
key within twice the time 100x100 takes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from textual import events
from textual._compositor import CompositorUpdate

from benchmarks.checks import Checks
from mines import Game
from mines.tui.app import MinesApp
from mines.tui.clock import PausableClock
from mines.tui.themes import THEMES

SCREEN = (120, 40)
KEYS = ["l", "h", "f", "space", "pagedown"]
"""Cursor right and left, flag and unflag, reveal (or chord), and a scroll by a screen."""
UNDO = {"pagedown": "pageup"}
"""Pressed, untimed, after each timed press of the key: every scroll starts from the same
place, so a board a few screens high scrolls on every press as a huge one does."""


class Repaints:
    """Wraps the app's display hook to note when each screen update is rendered."""

    def __init__(self, app: MinesApp) -> None:
        self.done = asyncio.Event()
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
                self.done.set()

        app._display = display  # type: ignore[method-assign]


async def press_times(rows: int, cols: int, mines: int, repeat: int) -> dict[str, float]:
    """Median CPU milliseconds from each key to its repaint, after a first reveal."""
    clock = PausableClock(lambda: 0.0)  # a still clock: no timer ticks during the measure
    game = Game(rows, cols, mines, seed=2024, clock=clock)
    app = MinesApp(game, make_game=lambda r, c, m: game, clock=clock, theme=THEMES["classic"])
    medians: dict[str, float] = {}
    async with app.run_test(size=SCREEN) as pilot:
        app.board.move_cursor(rows // 2, cols // 2)
        await pilot.press("space")
        await pilot.pause()
        repaints = Repaints(app)
        driver = app._driver
        assert driver is not None
        for key in KEYS:
            samples = []
            for _ in range(repeat):
                await pilot.pause()
                repaints.done.clear()
                start = time.process_time()
                driver.send_message(events.Key(key, key if len(key) == 1 else " "))
                await asyncio.wait_for(repaints.done.wait(), timeout=10)
                samples.append((time.process_time() - start) * 1000)
                if back := UNDO.get(key):
                    await pilot.pause()
                    repaints.done.clear()
                    driver.send_message(events.Key(back, " "))
                    await asyncio.wait_for(repaints.done.wait(), timeout=10)
            medians[key] = statistics.median(samples)
    return medians


RATIO_TARGET = 2.0
"""How much slower than on 100x100 a keypress may repaint on a big board: "about the same"."""


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=30, help="presses of each key per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best counts")
    args = parser.parse_args()
    boards = {
        "100x100": (100, 100, 1500),
        "1000x1000": (1000, 1000, 150_000),
        "10^6 x 10^6 sparse": (1_000_000, 1_000_000, 1000),
    }
    rounds = [
        {name: asyncio.run(press_times(*size, args.repeat)) for name, size in boards.items()}
        for _ in range(args.rounds)
    ]
    results = {
        name: {key: min(one[name][key] for one in rounds) for key in KEYS} for name in boards
    }
    base = results["100x100"]
    print(
        f"keypress-to-repaint in CPU ms, best of {args.rounds} rounds of the median of "
        f"{args.repeat} presses, screen {SCREEN[0]}x{SCREEN[1]}"
    )
    print(f"{'board':<20}" + "".join(f"{key:>18}" for key in KEYS))
    for name, medians in results.items():
        row = "".join(f"{medians[k]:>9.2f} (x{medians[k] / base[k]:.2f})" for k in KEYS)
        print(f"{name:<20}{row}")
    checks = Checks()
    for name, medians in results.items():
        if name == "100x100":
            continue
        worst = max(KEYS, key=lambda k: medians[k] / base[k])
        ratio = medians[worst] / base[worst]
        checks.report(
            f"{name} keypress-to-repaint against 100x100",
            ratio <= RATIO_TARGET,
            f"slowest key {worst!r}: {medians[worst]:.2f} ms vs {base[worst]:.2f} ms = "
            f"x{ratio:.2f} (target <= x{RATIO_TARGET:g})",
        )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
