"""Brute force for the solver tests: every layout of the mines that fits a text position."""

from __future__ import annotations

import itertools

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
