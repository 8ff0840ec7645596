"""Helpers for the solver tests: random text positions, the layouts that fit one, its solve."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from mines import BoardView
from mines.solver.analysis import Position, Solved, solve
from mines.solver.counting import Counter
from mines.solver.topology import neighbours


def layouts(lines: list[str], mines: int) -> tuple[list[int], list[frozenset[int]]]:
    """The unrevealed flat cells, and every set of `mines` of them that every number fits."""
    rows, cols = len(lines), len(lines[0])
    nbrs = neighbours(rows, cols)
    symbols = "".join(lines)
    unknown = [i for i, s in enumerate(symbols) if s in "HF"]
    numbers = [(i, int(s)) for i, s in enumerate(symbols) if s.isdigit()]
    return unknown, [
        frozenset(layout)
        for layout in itertools.combinations(unknown, mines)
        if all(sum(n in layout for n in nbrs[i]) == v for i, v in numbers)
    ]


def random_position(rng: random.Random, max_rows: int, max_cols: int) -> tuple[list[str], int]:
    """A random board with about 40% of its safe cells showing their numbers, and its mines."""
    rows, cols = rng.randint(2, max_rows), rng.randint(2, max_cols)
    cells = rows * cols
    mines = rng.randint(1, cells // 2)
    layout = set(rng.sample(range(cells), mines))
    nbrs = neighbours(rows, cols)
    symbols = [
        str(sum(n in layout for n in nbrs[c])) if c not in layout and rng.random() < 0.4 else "H"
        for c in range(cells)
    ]
    return ["".join(symbols[r * cols : (r + 1) * cols]) for r in range(rows)], mines


def solved_position(lines: list[str], mines: int) -> Solved:
    """What the solver makes of a text position with this many mines in all: rules, then counts."""
    return solve(Position.from_view(BoardView.from_strings(lines), mines), Counter())


def undecided_cells(
    seed: int, max_rows: int, max_cols: int, at_least: int, *, stuck: bool = False
) -> Iterator[tuple[list[str], int, Solved, int]]:
    """(lines, mines, solved, cell) for every undecided cell of random small positions, a
    whole position at a time, until at least `at_least` cells; `stuck` skips positions
    with a certainly safe cell."""
    rng = random.Random(seed)
    given = 0
    while given < at_least:
        lines, mines = random_position(rng, max_rows, max_cols)
        solved = solved_position(lines, mines)
        if stuck and solved.safe_cells():
            continue
        for cell in solved.undecided():
            yield lines, mines, solved, cell
            given += 1
