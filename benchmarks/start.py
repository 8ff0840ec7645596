"""Terminal game start: CPU to the first screen of `mines play`, against Textual's own.

Run with `./dev bench start [--runs N]`. Each run is a fresh process in a pseudo-terminal (so
`mines play` opens the app, not line mode), in a temporary data folder, timed by the CPU
time the process has used (`time.process_time`: the interpreter's start, every import,
building and drawing the screen) when its first screen has been drawn; the process then
quits. Waiting for a core is not counted, so the figure holds on a busy machine.

The baseline, measured in turn with it in the same run: the same for a bare Textual app
(a line of text and a footer), what any Textual program pays to start. Figures: the best
of N runs of each (5 by default). Target: `mines play` at most twice Textual's own start,
so the first screen does not wait for the solver and scipy (they load when first needed:
a first reveal, a hint, a review, a no-guess board).
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.checks import Checks

RATIO_TARGET = 2.0
PATIENCE = 300.0
"""Seconds a run may take before it is called hung (a guard, not a speed target)."""

HOOK = """
import os, time
from textual.app import App

_ready = App._ready

async def _first_screen(self):
    await _ready(self)
    self.call_after_refresh(_report, self)

def _report(app):
    with open(os.environ["MINES_BENCH_REPORT"], "w") as file:
        file.write(repr(time.process_time()))
    app.exit()

App._ready = _first_screen
"""
"""Writes the process's CPU time once the first screen is drawn, and quits. Imported first,
it makes `textual.app` load before the program's own imports, which load it anyway."""
PROGRAMS = {
    "mines play": "from mines.cli.main import main\nmain(['play', '--seed', '1'])\n",
    "Textual": (
        "from textual.app import App\n"
        "from textual.widgets import Footer, Static\n"
        "class Bare(App):\n"
        "    def compose(self):\n"
        "        yield Static('Textual')\n"
        "        yield Footer()\n"
        "Bare().run()\n"
    ),
}


def first_screen_cpu(program: str, folder: Path) -> float:
    """CPU seconds of a fresh process running `program` until its first screen is drawn."""
    report = folder / "report"
    report.unlink(missing_ok=True)
    primary, secondary = pty.openpty()
    env = {
        **os.environ,
        "MINES_BENCH_REPORT": str(report),
        "MINES_DATA_DIR": str(folder / "data"),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "30",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", HOOK + program],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        start_new_session=True,
    )
    os.close(secondary)
    deadline = time.monotonic() + PATIENCE
    try:
        while child.poll() is None:
            readable, _, _ = select.select([primary], [], [], 0.1)
            try:  # drain the terminal, or the app blocks writing its screen
                if readable:
                    os.read(primary, 65536)
            except OSError:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"no first screen within {PATIENCE:.0f} s")
        child.wait(timeout=PATIENCE)
    finally:
        os.close(primary)
        if child.poll() is None:
            child.kill()
            child.wait()
    if not report.exists():
        raise RuntimeError(f"the program ended (status {child.returncode}) before a screen")
    return float(report.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of each; the best counts")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")
    times: dict[str, list[float]] = {name: [] for name in PROGRAMS}
    with tempfile.TemporaryDirectory(prefix="mines-bench-start-") as folder:
        for _ in range(args.runs):
            for name, program in PROGRAMS.items():  # in turn: both see the same machine
                times[name].append(first_screen_cpu(program, Path(folder)))
    best = {name: min(runs) for name, runs in times.items()}
    for name, runs in times.items():
        listed = ", ".join(f"{t:.3f}" for t in runs)
        print(f"{name:<12} best {best[name]:.3f} s CPU to the first screen (runs: {listed})")
    ratio = best["mines play"] / best["Textual"]
    checks = Checks()
    checks.report(
        "mines play start",
        ratio <= RATIO_TARGET,
        f"{ratio:.2f}x Textual's own start (target <= {RATIO_TARGET:.0f}x)",
    )
    return checks.exit_code


if __name__ == "__main__":
    sys.exit(main())
