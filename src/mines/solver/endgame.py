"""Exhaustive search of small endgames: the guess that maximises the chance to win outright."""

from __future__ import annotations

from dataclasses import dataclass

from mines.solver import native as compiled
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


MAX_CELLS = 24
"""Endgames of at most this many undecided cells are searched ..."""
MAX_LAYOUTS = 1000
"""... when at most this many layouts of the mines remain possible ..."""
BUDGET = 60_000
"""... and given up past this many distinct positions searched ..."""
LISTING_STEPS = 600_000
"""... or when listing the layouts takes more steps than this."""


def solve_endgame(
    solved: Solved,
    *,
    max_cells: int = MAX_CELLS,
    max_layouts: int = MAX_LAYOUTS,
    budget: int = BUDGET,
    listing_steps: int = LISTING_STEPS,
    native: bool = False,
) -> EndgameMove | None:
    """Search every line of play when few cells are undecided; None when it is too big.

    Floods are ignored, which can only understate the chance to win. `native` searches
    compiled when the library is available (`mines.solver.native`): the same move.
    """
    undecided = solved.undecided()
    counts = solved.counts
    # The exact count already says how many layouts there are: no need to list them first.
    if not 1 < len(undecided) <= max_cells or (counts and counts.total > max_layouts):
        return None
    if native:
        position = solved.position
        done, found = compiled.endgame(
            position.rows,
            position.cols,
            position.values,
            solved.known,
            position.mines,
            undecided,
            max_layouts,
            budget,
            listing_steps,
        )
        if done:
            return EndgameMove(*found) if found is not None else None
    layouts = _layouts(solved, undecided, max_layouts, listing_steps)
    if layouts is None or len(layouts) < 2:
        return None
    position, known = solved.position, solved.known
    nbrs = neighbours(position.rows, position.cols)
    index = {cell: i for i, cell in enumerate(undecided)}
    masks = [sum(1 << index[n] for n in nbrs[c] if n in index) for c in undecided]
    base = [sum(1 for n in nbrs[c] if known.get(n)) for c in undecided]
    search = _Search(layouts, masks, base, budget)
    try:
        value, best = search.best_guess((1 << len(layouts)) - 1)
    except _OverBudgetError:
        return None
    return EndgameMove(undecided[best], value)


Part = int
"""Still-possible layouts, as a bit set over the search's list of layouts."""


class _Search:
    """Win chances of sets of still-possible layouts.

    Opening a cell that is safe in every layout and shows different numbers in some
    splits the set for free; otherwise every risky cell is tried, the layouts where it
    is safe are split by the number it shows, and each part is searched in turn.
    Sets of layouts are bit sets, and for every cell the layouts where it is a mine and
    those where it shows each number are worked out once, so splitting a set is a few
    bitwise ands.
    """

    def __init__(self, layouts: list[int], masks: list[int], base: list[int], budget: int):
        self.cells = range(len(masks))
        self.mine_in: list[int] = []
        self.showing: list[list[int]] = []
        for i, mask in enumerate(masks):
            mine = 0
            by_number: dict[int, int] = {}
            for k, layout in enumerate(layouts):
                bit = 1 << k
                if layout >> i & 1:
                    mine |= bit
                number = base[i] + (layout & mask).bit_count()
                by_number[number] = by_number.get(number, 0) | bit
            self.mine_in.append(mine)
            self.showing.append(list(by_number.values()))
        self.budget = budget
        self.memo: dict[Part, float] = {}

    def split(self, part: Part, cells: list[int]) -> list[Part]:
        """`part` grouped by the numbers `cells` show, lowest first layout first."""
        parts = [part]
        for i in cells:
            parts = [piece & shown for piece in parts for shown in self.showing[i] if piece & shown]
        return sorted(parts, key=lambda piece: piece & -piece)

    def parts_value(self, parts: list[Part], out_of: int) -> float:
        return sum(part.bit_count() * self.win(part) for part in parts) / out_of

    def varies(self, cell: int, part: Part) -> bool:
        """Whether `cell` shows different numbers in different layouts of `part`."""
        return not any(part & shown == part for shown in self.showing[cell])

    def win(self, part: Part) -> float:
        if part & (part - 1) == 0:
            return 1.0
        found = self.memo.get(part)
        if found is not None:
            return found
        if len(self.memo) >= self.budget:
            raise _OverBudgetError
        mine_in = self.mine_in
        free = [i for i in self.cells if not part & mine_in[i] and self.varies(i, part)]
        if free:
            result = self.parts_value(self.split(part, free), part.bit_count())
        else:
            result = self.best_guess(part)[0]
        self.memo[part] = result
        return result

    def best_guess(self, part: Part) -> tuple[float, int]:
        """(chance to win, cell index) of the best risky cell; safer cells win ties.

        Cells are tried safest first, and the search stops at the first cell whose chance
        to survive is below the best chance to win found so far: no later cell can beat it.
        """
        size = part.bit_count()
        risky: list[tuple[int, int, Part]] = []
        for i, mine in enumerate(self.mine_in):
            survivors = part & ~mine
            if survivors and survivors != part:
                risky.append((survivors.bit_count(), -i, survivors))
        risky.sort(key=lambda guess: guess[:2], reverse=True)
        best: tuple[float, int, int] = (-1.0, 0, -1)
        for safe, negated, survivors in risky:
            if safe < best[0] * size:
                break
            value = self.parts_value(self.split(survivors, [-negated]), size)
            best = max(best, (value, safe, negated))
        return best[0], -best[2]


def _layouts(solved: Solved, undecided: list[int], limit: int, steps: int) -> list[int] | None:
    """Every layout of the remaining mines on the undecided cells, as bit masks, or None
    when there are more than `limit` or listing them takes more than `steps` steps (a
    few layouts can hide among many dead ends when many cells are undecided)."""
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
    taken = [0]

    def place(i: int, left: int, layout: int) -> None:
        taken[0] += 1
        if taken[0] > steps:
            raise _OverBudgetError
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
