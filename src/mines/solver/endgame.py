"""Exhaustive search of small endgames: the guess that maximises the chance to win outright."""

from __future__ import annotations

from dataclasses import dataclass

from mines.solver.analysis import Solved
from mines.solver.rules import UNKNOWN
from mines.solver.topology import neighbours


class _OverBudgetError(Exception):
    """The search grew past its budget; the caller falls back to heuristics."""


@dataclass(frozen=True, slots=True)
class EndgameMove:
    """The best guess in a small endgame and its exact chance to win the game from there."""

    cell: int
    win_probability: float


def solve_endgame(
    solved: Solved, *, max_cells: int = 16, max_layouts: int = 400, budget: int = 20_000
) -> EndgameMove | None:
    """Search every line of play when few cells are undecided; None when it is too big.

    Floods are ignored, which can only understate the chance to win.
    """
    undecided = solved.undecided()
    if not 1 < len(undecided) <= max_cells:
        return None
    layouts = _layouts(solved, undecided, max_layouts)
    if layouts is None or len(layouts) < 2:
        return None
    position, known = solved.position, solved.known
    nbrs = neighbours(position.rows, position.cols)
    index = {cell: i for i, cell in enumerate(undecided)}
    masks = [sum(1 << index[n] for n in nbrs[c] if n in index) for c in undecided]
    base = [sum(1 for n in nbrs[c] if known.get(n)) for c in undecided]
    search = _Search(masks, base, budget)
    try:
        value, best = search.best_guess(layouts)
    except _OverBudgetError:
        return None
    return EndgameMove(undecided[best], value)


class _Search:
    """Win chances of sets of still-possible layouts, each layout a bit mask of mines.

    Opening a cell that is safe in every layout and shows different numbers in some
    splits the set for free; otherwise every risky cell is tried, the layouts where it
    is safe are split by the number it shows, and each part is searched in turn.
    """

    def __init__(self, masks: list[int], base: list[int], budget: int):
        self.masks = masks
        self.base = base
        self.budget = budget
        self.memo: dict[frozenset[int], float] = {}

    def shown(self, i: int, layout: int) -> int:
        return self.base[i] + (layout & self.masks[i]).bit_count()

    def split(self, layouts: list[int], chooser: list[int]) -> list[list[int]]:
        parts: dict[tuple[int, ...], list[int]] = {}
        for layout in layouts:
            parts.setdefault(tuple(self.shown(i, layout) for i in chooser), []).append(layout)
        return list(parts.values())

    def parts_value(self, parts: list[list[int]], out_of: int) -> float:
        return sum(len(part) * self.win(part) for part in parts) / out_of

    def win(self, layouts: list[int]) -> float:
        if len(layouts) == 1:
            return 1.0
        key = frozenset(layouts)
        found = self.memo.get(key)
        if found is not None:
            return found
        if len(self.memo) >= self.budget:
            raise _OverBudgetError
        ever_mine = 0
        for layout in layouts:
            ever_mine |= layout
        free = [
            i
            for i in range(len(self.masks))
            if not ever_mine >> i & 1 and len({self.shown(i, lay) for lay in layouts}) > 1
        ]
        if free:
            result = self.parts_value(self.split(layouts, free), len(layouts))
        else:
            result = self.best_guess(layouts)[0]
        self.memo[key] = result
        return result

    def best_guess(self, layouts: list[int]) -> tuple[float, int]:
        """(chance to win, cell index) of the best risky cell; safer cells win ties."""
        ever_mine, always_mine = 0, -1
        for layout in layouts:
            ever_mine |= layout
            always_mine &= layout
        best: tuple[float, int, int] = (-1.0, 0, -1)
        for i in range(len(self.masks)):
            bit = 1 << i
            if always_mine & bit or not ever_mine & bit:
                continue
            survivors = [layout for layout in layouts if not layout & bit]
            value = self.parts_value(self.split(survivors, [i]), len(layouts))
            best = max(best, (value, len(survivors), -i))
        return best[0], -best[2]


def _layouts(solved: Solved, undecided: list[int], limit: int) -> list[int] | None:
    """Every layout of the remaining mines on the undecided cells, as bit masks, or None
    when there are more than `limit`."""
    position, known = solved.position, solved.known
    nbrs = neighbours(position.rows, position.cols)
    index = {cell: i for i, cell in enumerate(undecided)}
    need: list[int] = []
    free: list[int] = []
    touching: list[list[int]] = [[] for _ in undecided]
    for cell, value in enumerate(position.values):
        if value == UNKNOWN:
            continue
        around = [index[n] for n in nbrs[cell] if n in index]
        if around:
            for i in around:
                touching[i].append(len(need))
            need.append(value - sum(1 for n in nbrs[cell] if known.get(n)))
            free.append(len(around))
    mines = position.mines - sum(known.values())
    found: list[int] = []
    count = len(undecided)

    def place(i: int, left: int, layout: int) -> None:
        if left < 0 or left > count - i:
            return
        if i == count:
            found.append(layout)
            if len(found) > limit:
                raise _OverBudgetError
            return
        cons = touching[i]
        for c in cons:
            free[c] -= 1
        if all(need[c] <= free[c] for c in cons):
            place(i + 1, left, layout)
        if all(need[c] > 0 for c in cons):
            for c in cons:
                need[c] -= 1
            place(i + 1, left - 1, layout | 1 << i)
            for c in cons:
                need[c] += 1
        for c in cons:
            free[c] += 1

    try:
        place(0, mines, 0)
    except _OverBudgetError:
        return None
    return found
