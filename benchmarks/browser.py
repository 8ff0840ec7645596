"""The browser client: first paint, bytes, move-to-repaint time, memory over 1,000 moves.

Run with `./dev bench browser` (needs Debian's chromium). It starts `mines serve` on a free
loopback port and drives the real client in headless chromium. Targets: the first board
painted within 300 ms of navigation; p95 move -> repaint within 30 ms on Expert and on a
100 x 100 window of a 1000 x 1000 board; memory steady over 1,000 moves. Also measured, with
no target: the bytes of a first load (empty cache) and of a reload, and the bytes each move
costs (its HTTP answer and the WebSocket frames it causes). Baselines measured in the same
run: the same navigation to a page with no script (what loopback and the browser cost by
themselves), and the bare HTTP round trip of a move, which every repaint waits for.

`MINES_BENCH_SRC=/path/to/other/src ./dev bench browser` serves another checkout's code (its
`src` folder first on the server's path): the same benchmark, before and after a change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    expect,
    sync_playwright,
)

from benchmarks.checks import Checks
from benchmarks.load import RAISED_RATES
from tests.server.browsing import CHROMIUM, CHROMIUM_ARGS, custom_game
from tests.server.processes import server_process

FIRST_PAINT_MS = 300.0
REPAINT_P95_MS = 30.0
MEMORY_GROWTH_BYTES = 2 * 1024 * 1024
"""Heap growth allowed from move 100 to the last move, after a garbage collection."""

PAINTED = """
(() => {
  // Marks the first frame painted after the board's first cell exists.
  const seen = new MutationObserver(() => {
    if (!document.querySelector('#board .cell')) return;
    seen.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('board-painted')));
  });
  seen.observe(document, { childList: true, subtree: true });
})();
"""

ONE_MOVE = """
async ([row, col]) => {
  // A right-button press on the cell, then the time until the frame after its repaint.
  const cell = document.getElementById(`cell-${row}-${col}`);
  const before = cell.dataset.symbol;
  const start = performance.now();
  const repainted = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (cell.dataset.symbol === before) return;
      watch.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
    });
    watch.observe(cell, { attributes: true, attributeFilter: ['data-symbol'] });
  });
  const options = { bubbles: true, button: 2, buttons: 2, pointerType: 'mouse', isPrimary: true };
  cell.dispatchEvent(new PointerEvent('pointerdown', options));
  cell.dispatchEvent(new PointerEvent('pointerup', { ...options, buttons: 0 }));
  return await repainted;
}
"""


class Traffic:
    """Bytes a page receives over the network, counted by the browser itself (DevTools'
    Network domain): each answer's headers and body as sent (compressed or not; nothing for one
    served from the cache) and each WebSocket frame's text."""

    def __init__(self, page: Page):
        self.http = 0
        self.requests = 0
        self.frames = 0
        self.session = page.context.new_cdp_session(page)
        self.session.on("Network.loadingFinished", self._finished)
        self.session.on("Network.webSocketFrameReceived", self._frame)
        self.session.send("Network.enable")

    def _finished(self, event: dict[str, Any]) -> None:
        if event["encodedDataLength"] > 0:
            self.http += int(event["encodedDataLength"])
            self.requests += 1

    def _frame(self, event: dict[str, Any]) -> None:
        self.frames += len(event["response"]["payloadData"].encode())

    def counts(self) -> tuple[int, int, int]:
        return self.http, self.requests, self.frames

    @property
    def total(self) -> int:
        return self.http + self.frames


@dataclass(frozen=True)
class Load:
    http: int
    requests: int
    frames: int

    @property
    def total(self) -> int:
        return self.http + self.frames


def load_bytes(context: BrowserContext, url: str) -> tuple[Load, Load]:
    """What a first visit (empty cache) and then a second visit receive until the game is shown."""
    loads = []
    page = context.new_page()
    traffic = Traffic(page)
    for _ in range(2):
        before = traffic.counts()
        page.goto(url)
        # Not wait_for_function: the page's CSP (no eval) holds in this context, as for a visitor.
        expect(page.locator("#status")).to_have_text("Playing", timeout=60_000)
        page.wait_for_load_state("networkidle")
        loads.append(
            Load(*(now - then for now, then in zip(traffic.counts(), before, strict=True)))
        )
    page.close()
    return loads[0], loads[1]


def first_paint(page: Page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("performance.getEntriesByName('board-painted').length > 0")
    painted: float = page.evaluate("performance.getEntriesByName('board-painted')[0].startTime")
    return painted


def blank_paint(page: Page, url: str) -> float:
    page.goto(f"{url}/static/img/favicon.svg")
    painted: float = page.evaluate(
        "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame("
        "() => r(performance.now()))))"
    )
    return painted


def heap(page: Page) -> tuple[int, int]:
    """JS heap bytes after a full collection, and DOM nodes."""
    session = page.context.new_cdp_session(page)
    session.send("HeapProfiler.collectGarbage")
    used = int(session.send("Runtime.getHeapUsage")["usedSize"])
    nodes = int(session.send("Memory.getDOMCounters")["nodes"])
    session.detach()
    return used, nodes


def start_board(page: Page, url: str, rows: int, cols: int, mines: int) -> None:
    page.goto(url)
    page.wait_for_selector("#board .cell")
    custom_game(page, rows, cols, mines)
    page.wait_for_selector(f"#cell-{min(rows, 100) - 1}-{min(cols, 100) - 1}")


def move_times(page: Page, moves: int, height: int, width: int) -> dict[str, Any]:
    """Flag and unflag cells of the shown window, `moves` times; each is a stored move."""
    times = []
    memory = []
    for i in range(moves):
        row, col = (i * 7) % height, (i * 13 + i // height) % width
        times.append(page.evaluate(ONE_MOVE, [row, col]))
        if i + 1 in (100, moves // 2, moves):
            memory.append((i + 1, *heap(page)))
    page.wait_for_timeout(500)  # the last move's frames arrive
    ordered = sorted(times)
    return {
        "p50": statistics.median(times),
        "p95": ordered[int(0.95 * (len(ordered) - 1))],
        "max": ordered[-1],
        "memory": memory,
    }


def http_round_trip(url: str, moves: int) -> float:
    """Median ms of the bare HTTP move the client waits for (flag toggles on Expert)."""
    with httpx.Client() as client:
        game = client.post(f"{url}/api/games", json={"preset": "expert"}).json()
        headers = {"Authorization": f"Bearer {game['token']}"}
        times = []
        for i in range(moves):
            start = time.perf_counter()
            client.post(
                f"{url}/api/games/{game['id']}/flag",
                json={"row": i % 16, "col": (i * 7) % 30},
                headers=headers,
            )
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)


LIGHTHOUSE = Path(__file__).resolve().parents[1] / "node_modules" / ".bin" / "lighthouse"
LIGHTHOUSE_SCORE = 95
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices")


def lighthouse(checks: Checks, url: str, form_factor: str, folder: Path) -> None:
    """Lighthouse's scores for the game page, with Debian's chromium (no download, no network
    beyond loopback); mobile is Lighthouse's default emulated phone and slow network."""
    if not LIGHTHOUSE.exists():
        checks.report(f"lighthouse, {form_factor}", False, "not installed: run npm ci")
        return
    report = folder / f"lighthouse-{form_factor}.json"
    command = [
        str(LIGHTHOUSE),
        f"{url}/",
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(LIGHTHOUSE_CATEGORIES)}",
        "--chrome-flags=--headless --no-sandbox --disable-gpu",
    ]
    if form_factor == "desktop":
        command.append("--preset=desktop")
    subprocess.run(
        command, env={**os.environ, "CHROME_PATH": str(CHROMIUM)}, check=False, timeout=300
    )
    if not report.exists():
        checks.report(f"lighthouse, {form_factor}", False, "Lighthouse wrote no report")
        return
    result = json.loads(report.read_text())
    scores = {
        name: round(100 * (result["categories"][name]["score"] or 0))
        for name in LIGHTHOUSE_CATEGORIES
    }
    failing = [
        f"{audit['id']} ({audit['score']})"
        for audit in result["audits"].values()
        if audit.get("score") is not None
        and audit["score"] < 0.9
        and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
    ]
    checks.report(
        f"lighthouse, {form_factor}",
        all(score >= LIGHTHOUSE_SCORE for score in scores.values()),
        ", ".join(f"{name} {score}" for name, score in scores.items())
        + f" (target {LIGHTHOUSE_SCORE} each)"
        + (f"; below 0.9: {', '.join(failing)}" if failing else ""),
    )
    metrics = result["audits"]
    print(
        "      "
        + ", ".join(
            f"{name} {metrics[name]['displayValue']}"
            for name in (
                "first-contentful-paint",
                "largest-contentful-paint",
                "total-blocking-time",
                "cumulative-layout-shift",
            )
            if name in metrics
        ),
        flush=True,
    )


BOARDS = (("expert", (16, 30, 99)), ("1000x1000", (1000, 1000, 100_000)))


def report_loads(first: Load, again: Load) -> None:
    print(
        f"      first load (empty cache): {first.total:,} bytes ({first.requests} requests, "
        f"{first.http:,} HTTP, {first.frames:,} WebSocket); a second visit: {again.total:,} bytes "
        f"({again.requests} requests, {again.http:,} HTTP, {again.frames:,} WebSocket)",
        flush=True,
    )


def report_move_bytes(name: str, result: dict[str, Any]) -> None:
    print(
        f"      bytes per move, {name}: {result['http_bytes']:,.0f} HTTP (answer and headers), "
        f"{result['frame_bytes']:,.0f} WebSocket",
        flush=True,
    )


def count_bytes(browser: Browser, url: str, moves: int) -> None:
    """The bytes alone: a first load and a reload, and `moves` flag moves on each board."""
    fresh = browser.new_context(viewport={"width": 1280, "height": 900})
    report_loads(*load_bytes(fresh, url))
    fresh.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    for name, size in BOARDS:
        board = context.new_page()
        traffic = Traffic(board)  # before the page opens its WebSocket
        start_board(board, url, *size)
        traffic.http = traffic.frames = 0
        for i in range(moves):
            board.evaluate(ONE_MOVE, [(i * 7) % min(size[0], 100), (i * 13) % min(size[1], 100)])
        board.wait_for_timeout(500)  # the last move's frames arrive
        report_move_bytes(
            name, {"http_bytes": traffic.http / moves, "frame_bytes": traffic.frames / moves}
        )
        board.close()
    context.close()


def server_env() -> dict[str, str] | None:
    """The server's environment: another checkout's code first when MINES_BENCH_SRC names it."""
    other = os.environ.get("MINES_BENCH_SRC")
    if not other:
        return None
    print(f"      serving the code in {other}", flush=True)
    return {**os.environ, "PYTHONPATH": other}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000, help="moves per board (default 1000)")
    parser.add_argument("--loads", type=int, default=10, help="page loads timed (default 10)")
    parser.add_argument(
        "--lighthouse",
        action="store_true",
        help="only run Lighthouse (npm ci installs it) on the game page, desktop and mobile",
    )
    parser.add_argument(
        "--bytes",
        action="store_true",
        help="only count bytes (a first load, a reload, each move): no timing, so exact on a "
        "busy machine too",
    )
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print("needs Debian's chromium at /usr/bin/chromium")
        return 2
    checks = Checks()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        # Every page load starts a game from loopback: the per-address rates are raised.
        with server_process(database, extra=RAISED_RATES, env=server_env()) as server:
            if args.lighthouse:
                for form_factor in ("desktop", "mobile"):
                    lighthouse(checks, server.url, form_factor, Path(folder))
                return checks.exit_code
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            if args.bytes:
                try:
                    count_bytes(browser, server.url, args.moves)
                finally:
                    browser.close()
                return 0
            try:
                # The harness's own waits evaluate JavaScript text, which the server's CSP
                # (rightly) forbids to pages; bypassing it affects only the harness.
                context = browser.new_context(
                    viewport={"width": 1280, "height": 900}, bypass_csp=True
                )
                context.add_init_script(PAINTED)
                page = context.new_page()
                first_paint(page, server.url)  # warm: the server's first game, caches
                paints = sorted(first_paint(page, server.url) for _ in range(args.loads))
                blanks = sorted(blank_paint(page, server.url) for _ in range(args.loads))
                median = statistics.median(paints)
                checks.report(
                    "first board painted",
                    median <= FIRST_PAINT_MS,
                    f"median {median:.0f} ms, worst {paints[-1]:.0f} ms after navigation "
                    f"({args.loads} loads; a blank page: median {statistics.median(blanks):.0f}"
                    f" ms; target {FIRST_PAINT_MS:.0f} ms)",
                )
                fresh = browser.new_context(viewport={"width": 1280, "height": 900})
                report_loads(*load_bytes(fresh, server.url))
                fresh.close()
                trip = http_round_trip(server.url, 200)
                print(f"      bare HTTP move round trip: median {trip:.1f} ms", flush=True)
                for name, size in BOARDS:
                    board = context.new_page()
                    traffic = Traffic(board)  # before the page opens its WebSocket
                    start_board(board, server.url, *size)
                    traffic.http = traffic.frames = 0
                    result = move_times(board, args.moves, min(size[0], 100), min(size[1], 100))
                    result["http_bytes"] = traffic.http / args.moves
                    result["frame_bytes"] = traffic.frames / args.moves
                    checks.report(
                        f"move -> repaint, {name}",
                        result["p95"] <= REPAINT_P95_MS,
                        f"p50 {result['p50']:.1f} ms, p95 {result['p95']:.1f} ms, max "
                        f"{result['max']:.1f} ms over {args.moves} moves "
                        f"(target p95 {REPAINT_P95_MS:.0f} ms)",
                    )
                    report_move_bytes(name, result)
                    (_, first_heap, first_nodes), *_, (last, last_heap, last_nodes) = result[
                        "memory"
                    ]
                    checks.report(
                        f"memory steady, {name}",
                        last_heap - first_heap <= MEMORY_GROWTH_BYTES
                        and last_nodes <= first_nodes * 1.01,
                        f"JS heap {first_heap / 2**20:.2f} MiB at move 100, "
                        f"{last_heap / 2**20:.2f} MiB at move {last}; DOM nodes "
                        f"{first_nodes} -> {last_nodes}",
                    )
                    board.close()
            finally:
                browser.close()
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
