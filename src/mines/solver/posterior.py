"""Exact draws of mine layouts from what a view shows: uniform over every layout that fits it."""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from mines.solver.analysis import Solved
from mines.solver.counting import (
    NoArrangementError,
    choose,
    convolve,
    search_groups,
    split_components,
)
from mines.solver.rules import UNKNOWN


@dataclass(frozen=True, slots=True)
class _Part:
    """One independent component of the frontier: its groups and, per number of mines in it,
    its solutions (mines per group) with the running total of their arrangements."""

    groups: tuple[tuple[int, ...], ...]
    weights: dict[int, int]
    solutions: dict[int, list[tuple[int, ...]]]
    running: dict[int, list[int]]


def _part(constraints: frozenset[tuple[tuple[int, ...], int]]) -> _Part:
    solutions: dict[int, list[tuple[int, ...]]] = {}
    arrangements: dict[int, list[int]] = {}

    def leaf(assigned: list[int], mines: int, weight: int) -> None:
        solutions.setdefault(mines, []).append(tuple(assigned))
        arrangements.setdefault(mines, []).append(weight)

    groups = search_groups(constraints, leaf)
    running = {m: list(accumulate(ws)) for m, ws in arrangements.items()}
    return _Part(groups, {m: r[-1] for m, r in running.items()}, solutions, running)


class LayoutSampler:
    """Draws layouts of the mines uniformly from those that fit a position's numbers and its
    mine total, each with exactly its share of the count (no rejection, no approximation).

    The cells the local rules decided are as they say; the number of mines in each
    independent component of the frontier is drawn in turn from its exact conditional
    weight (that component's arrangements times those of the components after it and
    of the cells away from the numbers); then one of the component's solutions with that
    many mines is drawn in proportion to its arrangements, and the mines of each group
    spread uniformly over its cells; the rest go uniformly on the cells away from the
    numbers. Integers all the way, and `random.Random.randrange` draws them exactly.
    """

    def __init__(self, solved: Solved):
        position = solved.position
        known = solved.known
        self.fixed = tuple(sorted(c for c in solved.local if known[c]))
        """The mines the local rules placed."""
        self.parts = [_part(part) for part in split_components(solved.keys)]
        frontier = {cell for part in self.parts for group in part.groups for cell in group}
        self.off = tuple(
            c
            for c, value in enumerate(position.values)
            if value == UNKNOWN and c not in solved.local and c not in frontier
        )
        """The undecided cells away from the numbers."""
        self.mines = solved.free_mines
        # after[i][t]: arrangements of the components after the i-th with t mines in them.
        after: list[dict[int, int]] = [{0: 1}]
        for part in reversed(self.parts):
            after.append(convolve(after[-1], part.weights))
        after.reverse()
        self._after = after
        self._choices: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        if not self._rest(0, 0):
            raise NoArrangementError(
                f"no arrangement of {self.mines} undecided mine(s) fits the numbers "
                f"and the {len(self.off)} cell(s) away from them"
            )

    def _rest(self, index: int, used: int) -> int:
        """Arrangements of the components from the `index`-th on and the cells away from
        the numbers, when `used` mines are already on the components before it."""
        return sum(
            w * choose(len(self.off), self.mines - used - t) for t, w in self._after[index].items()
        )

    def _mines_in(self, index: int, used: int) -> tuple[list[int], list[int]]:
        """The numbers of mines the `index`-th component can hold, with the running total
        of their exact weights, when `used` mines are on the components before it."""
        found = self._choices.get((index, used))
        if found is None:
            counts: list[int] = []
            weights: list[int] = []
            for m, w in sorted(self.parts[index].weights.items()):
                rest = w * self._rest(index + 1, used + m)
                if rest:
                    counts.append(m)
                    weights.append(rest)
            found = self._choices[(index, used)] = (counts, list(accumulate(weights)))
        return found

    def draw(self, rng: random.Random) -> list[int]:
        """One layout: the flat cells of its mines, sorted."""
        mines = list(self.fixed)
        used = 0
        for index, part in enumerate(self.parts):
            counts, running = self._mines_in(index, used)
            m = counts[bisect_right(running, rng.randrange(running[-1]))]
            used += m
            totals = part.running[m]
            solution = part.solutions[m][bisect_right(totals, rng.randrange(totals[-1]))]
            for group, k in zip(part.groups, solution, strict=True):
                if k:
                    mines.extend(rng.sample(group, k))
        mines.extend(rng.sample(self.off, self.mines - used))
        return sorted(mines)
