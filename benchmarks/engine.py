"""Engine benchmark: the dense engine against an object-per-cell baseline, in one run.

Run with `./dev bench engine [--repeats N]`. Times are CPU seconds (a process waiting for a
core on a busy machine is not charged for it), each the best of N runs (7 by default).
The targets are ratios against the baseline measured in the same run, plus 50 ms for a
new 1000x1000 game and its first reveal.
"""

from __future__ import annotations

import argparse
import gc
import random
import tracemalloc
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from benchmarks.checks import Checks, best_of, cpu_seconds
from mines import FixedPlacer, Game, grid


class BaselineCell:
    """One square of the seed design: its own object with four fields."""

    def __init__(self, row: int, col: int):
        self.row = row
        self.col = col
        self.is_mine = False
        self.revealed = False
        self.flagged = False
        self.adjacent = 0


class BaselineBoard:
    """The seed design's Board: a list of lists of cells, counts once, deque BFS."""

    def __init__(self, rows: int, cols: int, mines: int, first: tuple[int, int], seed: int):
        self.rows, self.cols = rows, cols
        self.cells = [[BaselineCell(r, c) for c in range(cols)] for r in range(rows)]
        keep = {(first[0] + dr, first[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        free = [i for i in range(rows * cols) if divmod(i, cols) not in keep]
        for index in random.Random(seed).sample(free, mines):
            self.cells[index // cols][index % cols].is_mine = True
        for row in self.cells:
            for cell in row:
                cell.adjacent = sum(n.is_mine for n in self.neighbours(cell.row, cell.col))
        self.opened = 0

    def neighbours(self, row: int, col: int) -> list[BaselineCell]:
        return [
            self.cells[r][c]
            for r in range(max(row - 1, 0), min(row + 2, self.rows))
            for c in range(max(col - 1, 0), min(col + 2, self.cols))
            if (r, c) != (row, col)
        ]

    def reveal(self, row: int, col: int) -> int:
        start = self.cells[row][col]
        start.revealed = True
        queue = deque([start])
        opened = 1
        while queue:
            cell = queue.popleft()
            if cell.adjacent:
                continue
            for n in self.neighbours(cell.row, cell.col):
                if not n.revealed and not n.flagged and not n.is_mine:
                    n.revealed = True
                    opened += 1
                    queue.append(n)
        self.opened += opened
        return opened


def first_reveal_case(mines: int, repeats: int) -> tuple[float, float, int]:
    size, centre = 1000, (500, 500)

    def ours() -> Game:
        game = Game(size, size, mines, seed=1)
        game.reveal(*centre)
        return game

    opened = ours().view().to_strings()
    revealed = sum(size - line.count("H") for line in opened)
    engine_time = best_of(repeats, ours)
    # One baseline run: it takes seconds, so a disturbance is a small share of it.
    baseline_time = cpu_seconds(lambda: BaselineBoard(size, size, mines, centre, 1).reveal(*centre))
    return engine_time, baseline_time, revealed


@contextmanager
def unlimited_scalar_flood() -> Iterator[None]:
    """Turn off the hand-over to labelling, to see what scipy buys."""
    budget = grid.FLOOD_BUDGET
    grid.FLOOD_BUDGET = 10**12
    try:
        yield
    finally:
        grid.FLOOD_BUDGET = budget


def lattice_game(size: int) -> Game:
    """Mines on every third row and column: every safe cell is a number, so a reveal opens one."""
    mines = [(r, c) for r in range(0, size, 3) for c in range(0, size, 3)]
    return Game(size, size, len(mines), placer=FixedPlacer(mines))


def numbered_reveal_us(size: int, moves: int) -> float:
    """CPU microseconds per reveal of a numbered cell, on random cells of a lattice game."""
    game = lattice_game(size)
    rng = random.Random(size)
    # Drawn one by one: a list of every cell would make each garbage collection in the
    # timed loop walk a million tuples on the big board only.
    targets: dict[tuple[int, int], None] = {}
    while len(targets) <= moves:
        row, col = rng.randrange(size), rng.randrange(size)
        if row % 3 or col % 3:
            targets[row, col] = None
    first, *rest = targets
    game.reveal(*first)

    def play() -> None:
        for cell in rest:
            game.reveal(*cell)

    return cpu_seconds(play) / moves * 1e6


def retained_bytes(build: Callable[[], object]) -> tuple[int, object]:
    gc.collect()
    tracemalloc.start()
    kept = build()
    gc.collect()
    size, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return size, kept


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeats", type=int, default=7, help="runs of each case; the best counts (default 7)"
    )
    args = parser.parse_args()
    checks = Checks()
    report = checks.report

    labelled = {}
    for mines, absolute in ((10_000, 0.050), (150_000, None)):
        ours, base, opened = first_reveal_case(mines, args.repeats)
        labelled[mines] = ours
        ratio = base / ours
        report(
            f"1000x1000 / {mines:,} mines, new game + first reveal",
            ratio >= 50 and (absolute is None or ours <= absolute),
            f"{ours * 1000:.1f} ms (best of {args.repeats}) vs baseline {base * 1000:.0f} ms "
            f"= {ratio:.0f}x "
            f"({opened:,} cells open; target >= 50x"
            + (f" and <= {absolute * 1000:.0f} ms)" if absolute else ")"),
        )

    with unlimited_scalar_flood():
        scalar, _, _ = first_reveal_case(10_000, 2)
    report(
        "scipy.ndimage labelling earns its place",
        scalar > labelled[10_000],
        f"the same first reveal with only the scalar flood takes {scalar * 1000:.0f} ms, "
        f"{scalar / labelled[10_000]:.0f}x the labelled flood",
    )

    # Interleaved, so that a busy spell of the machine falls on both sizes alike.
    pairs = [
        (numbered_reveal_us(100, 2000), numbered_reveal_us(1000, 2000)) for _ in range(args.repeats)
    ]
    small, large = min(p[0] for p in pairs), min(p[1] for p in pairs)
    report(
        "single numbered-cell reveal, 100x100 vs 1000x1000",
        large <= small * 1.5,
        f"{small:.1f} us vs {large:.1f} us per move, best of {args.repeats} runs of 2000 "
        f"(ratio {large / small:.2f}; target about 1, at most 1.5)",
    )

    def build_ours() -> Game:
        game = Game(1000, 1000, 10_000, seed=1)
        game.reveal(500, 500)
        return game

    def build_baseline() -> BaselineBoard:
        board = BaselineBoard(1000, 1000, 10_000, (500, 500), 1)
        board.reveal(500, 500)
        return board

    ours_bytes, _ = retained_bytes(build_ours)
    base_bytes, _ = retained_bytes(build_baseline)
    per_cell, base_per_cell = ours_bytes / 1e6, base_bytes / 1e6
    report(
        "memory of a 1000x1000 game",
        per_cell <= 4,
        f"{per_cell:.2f} bytes/cell vs baseline {base_per_cell:.0f} bytes/cell (target <= 4)",
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
