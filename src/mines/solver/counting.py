"""Exact counts of mine arrangements: independent frontier components, groups, off-frontier cells.

Every count is an exact integer (the number of arrangements of individual mines), so the
probabilities built from them are exact fractions with no floating-point drift.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from mines.errors import InvalidBoardError, MinesError
from mines.solver import native as compiled

ConstraintKey = tuple[tuple[int, ...], int]
"""A constraint as (sorted unknown cells, mines among them)."""


class NoArrangementError(InvalidBoardError):
    """No arrangement of the mines fits these numbers: the solver's own signal, for its callers.

    Search code that tries what a cell could show catches exactly this, so an
    `InvalidBoardError` from anywhere else (a bug) is never read as an impossible number.
    It stays an `InvalidBoardError` for callers of `analyze`, to whom it means a view that
    contradicts itself.
    """


class BudgetExceededError(MinesError):
    """Counting needed more search steps than its `Budget` allows: the position is too
    tangled to count exactly within the work its caller agreed to do."""


class Budget:
    """A cap on the steps of the counting searches it is handed to, spent as they run.

    A step is a solution found or a dead end; the work between two steps is bounded by the
    depth of the search, so a budget bounds the time a count can take.
    """

    __slots__ = ("left", "steps")

    def __init__(self, steps: int):
        self.steps = steps
        self.left = steps

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise BudgetExceededError(
                f"counting needed more than {self.steps:,} search steps to count exactly"
            )


@lru_cache(maxsize=4096)
def choose(n: int, k: int) -> int:
    """C(n, k), and 0 when k is out of 0..n (no arrangement), as counting needs."""
    return comb(n, k) if 0 <= k <= n else 0


@dataclass(frozen=True, slots=True)
class Component:
    """The arrangements of one independent part of the frontier, by number of mines.

    Cells touching exactly the same numbers form a group; `weights[m]` counts the
    arrangements with m mines in the component and `cell_weights[m][g]` those of them
    that have a mine on one given cell of group g.
    """

    groups: tuple[tuple[int, ...], ...]
    weights: dict[int, int]
    cell_weights: dict[int, list[int]]


@dataclass(frozen=True, slots=True)
class Counts:
    """Arrangement counts of a whole position, from which every probability follows.

    `total` arrangements fit everything visible; `cell_weight[c]` of them have a mine on
    frontier cell c, and `off_weight` have a mine on any one given off-frontier cell;
    `off_mines` lists, in increasing order, how many mines the `off_cells` cells away from
    the numbers can hold together in at least one of them.
    """

    total: int
    cell_weight: dict[int, int]
    off_weight: int
    off_cells: int
    off_mines: tuple[int, ...]

    def mine_weight(self, cell: int) -> int:
        """Arrangements with a mine on `cell`, one of the cells counted (on or off the frontier)."""
        return self.cell_weight.get(cell, self.off_weight)


class Counter:
    """Counts components, remembering each one, so a position that changes a little is cheap."""

    def __init__(
        self, cache_size: int = 2048, budget: Budget | None = None, *, native: bool = False
    ):
        self._cache: dict[frozenset[ConstraintKey], Component] = {}
        self._cache_size = cache_size
        self.budget = budget
        """When given, every search this counter runs spends from it (a cached component
        costs nothing), and a count past it raises `BudgetExceededError`."""
        self.native = native and budget is None
        """Whether whole counts run compiled when the library is available
        (`mines.solver.native`): the same exact integers, in the same order."""

    def component(self, constraints: frozenset[ConstraintKey]) -> Component:
        found = self._cache.get(constraints)
        if found is None:
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            found = self._cache[constraints] = _count_component(constraints, self.budget)
        return found

    def count(
        self, constraints: Iterable[ConstraintKey], off_cells: int, mines_left: int
    ) -> Counts:
        """Count the arrangements of `mines_left` mines over the frontier and `off_cells` more."""
        if self.native:
            found = compiled.count(constraints, off_cells, mines_left)
            if found is not None:
                total, cell_weight, off_weight, off_mines = found
                if not total:
                    raise NoArrangementError(_no_arrangement(mines_left, off_cells))
                return Counts(total, cell_weight, off_weight, off_cells, off_mines)
        # Taken in board order (by their smallest cell), not in a set's order: the counts'
        # cells then come in an order the compiled path reproduces, and ties between equally
        # safe cells are broken the same way by both.
        parts = sorted(split_components(constraints), key=_smallest_cell)
        return combine([self.component(part) for part in parts], off_cells, mines_left)


def split_components(constraints: Iterable[ConstraintKey]) -> list[frozenset[ConstraintKey]]:
    """Split constraints into groups that share no cell, directly or through others."""
    parent: dict[int, int] = {}

    def find(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    unique = set(constraints)
    for cells, _ in unique:
        first = find(parent.setdefault(cells[0], cells[0]))
        for cell in cells[1:]:
            root = find(parent.setdefault(cell, cell))
            if root != first:
                parent[root] = first
    parts: dict[int, set[ConstraintKey]] = {}
    for key in unique:
        parts.setdefault(find(key[0][0]), set()).add(key)
    return [frozenset(part) for part in parts.values()]


def _smallest_cell(part: frozenset[ConstraintKey]) -> int:
    return min(min(cells) for cells, _ in part)


def _count_component(
    constraints: frozenset[ConstraintKey], budget: Budget | None = None
) -> Component:
    """Count arrangements per number of mines, and per group the mines they put on it."""
    weights: dict[int, int] = {}
    sums: dict[int, list[int]] = {}

    def leaf(assigned: list[int], mines: int, weight: int) -> None:
        weights[mines] = weights.get(mines, 0) + weight
        row = sums.get(mines)
        if row is None:
            row = sums[mines] = [0] * len(assigned)
        for g, k in enumerate(assigned):
            if k:
                row[g] += weight * k

    groups = search_groups(constraints, leaf, budget)
    sizes = [len(group) for group in groups]
    # A group's sum counts mines over all its cells; each cell of it carries an equal share.
    cell_weights = {m: [s // sizes[g] for g, s in enumerate(row)] for m, row in sums.items()}
    return Component(groups, weights, cell_weights)


Leaf = Callable[[list[int], int, int], None]
"""Called with (mines per group, mines in all, arrangements of individual mines) per solution."""


def search_groups(
    constraints: frozenset[ConstraintKey], leaf: Leaf, budget: Budget | None = None
) -> tuple[tuple[int, ...], ...]:
    """Every way to put mines on the groups of one component that fits its constraints, by
    backtracking that closes constraints as early as possible; `leaf` sees each of them.
    Returns the groups (cells touching exactly the same numbers), in `leaf`'s order.
    Each solution and each dead end spends a step of `budget`, when one is given."""
    signature: dict[int, list[int]] = {}
    keys = sorted(constraints)
    for index, (cells, _) in enumerate(keys):
        for cell in cells:
            signature.setdefault(cell, []).append(index)
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell, touching in signature.items():
        by_signature.setdefault(tuple(touching), []).append(cell)
    groups = [tuple(sorted(cells)) for cells in by_signature.values()]
    group_cons = [list(touching) for touching in by_signature]
    cons_groups: list[list[int]] = [[] for _ in keys]
    for g, touching in enumerate(group_cons):
        for c in touching:
            cons_groups[c].append(g)
    order = _search_order(group_cons, cons_groups)
    sizes = [len(group) for group in groups]
    need = [value for _, value in keys]
    free = [sum(sizes[g] for g in cons_groups[c]) for c in range(len(keys))]
    assigned = [0] * len(groups)
    steps = [(g, sizes[g], group_cons[g]) for g in order]
    depth = len(steps)

    def search(i: int, mines: int, weight: int) -> None:
        if i == depth:
            if budget is not None:
                budget.spend()
            leaf(assigned, mines, weight)
            return
        g, size, touching = steps[i]
        low, high = 0, size
        for c in touching:
            slack = need[c] - free[c] + size
            if slack > low:
                low = slack
            if need[c] < high:
                high = need[c]
        if low > high:
            if budget is not None:
                budget.spend()
            return
        for c in touching:
            free[c] -= size
        for k in range(low, high + 1):
            for c in touching:
                need[c] -= k
            assigned[g] = k
            search(i + 1, mines + k, weight * choose(size, k))
            for c in touching:
                need[c] += k
        assigned[g] = 0
        for c in touching:
            free[c] += size

    search(0, 0, 1)
    return tuple(groups)


def _search_order(group_cons: list[list[int]], cons_groups: list[list[int]]) -> list[int]:
    """Groups in breadth-first order through shared constraints, so constraints close early."""
    seen = [False] * len(group_cons)
    order: list[int] = []
    for start in range(len(group_cons)):
        if seen[start]:
            continue
        seen[start] = True
        queue = [start]
        while queue:
            g = queue.pop(0)
            order.append(g)
            for c in group_cons[g]:
                for other in cons_groups[c]:
                    if not seen[other]:
                        seen[other] = True
                        queue.append(other)
    return order


def convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """Arrangements by number of mines of two independent parts taken together."""
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


def combine(components: list[Component], off_cells: int, mines_left: int) -> Counts:
    """Weight each total of frontier mines by the ways to place the rest off the frontier."""
    everything: dict[int, int] = {0: 1}
    for component in components:
        everything = convolve(everything, component.weights)
    total = sum(w * choose(off_cells, mines_left - t) for t, w in everything.items())
    if total == 0:
        raise NoArrangementError(_no_arrangement(mines_left, off_cells))
    off_weight = sum(w * choose(off_cells - 1, mines_left - t - 1) for t, w in everything.items())
    cell_weight = {c: 0 for component in components for group in component.groups for c in group}
    for index, component in enumerate(components):
        others: dict[int, int] = {0: 1}
        for j, other in enumerate(components):
            if j != index:
                others = convolve(others, other.weights)
        for m, row in component.cell_weights.items():
            rest = sum(w * choose(off_cells, mines_left - m - t) for t, w in others.items())
            if not rest:
                continue
            for group, weight in zip(component.groups, row, strict=True):
                share = weight * rest
                for cell in group:
                    cell_weight[cell] += share
    off_mines = sorted(mines_left - t for t in everything if choose(off_cells, mines_left - t))
    return Counts(total, cell_weight, off_weight, off_cells, tuple(off_mines))


def _no_arrangement(mines_left: int, off_cells: int) -> str:
    return (
        f"no arrangement of {mines_left} undecided mine(s) fits the numbers "
        f"and the {off_cells} cell(s) away from them"
    )
