"""Long-term risk: how often a cell's mine would sit in a 50/50 that no later move could settle.

Two hidden neighbours in a row or a column, one a mine and one safe, are a true 50/50 once
every cell that sees only one of them is a mine: no number can ever tell them apart. The
same holds for a 2x2 block with one diagonal mined, once its four diagonal corners are
mines. When a guess would lose mostly in such arrangements, it costs little: left alone,
those arrangements end in a coin flip anyway. The same holds for a guess at the last open
wall of such a 50/50, whose mine would close it. The bot credits a guess for them, as the
strongest published solvers do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mines.solver.analysis import Solved
from mines.solver.counting import Counter, NoArrangementError
from mines.solver.rules import UNKNOWN

Offset = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Trap:
    """A 50/50 around a cell at (0, 0), which is a mine in it: `mines` are mines too, `safe`
    are safe, and `walls` (every cell that could tell the two sides apart) are mines."""

    family: str
    mines: tuple[Offset, ...]
    safe: tuple[Offset, ...]
    walls: tuple[Offset, ...]


def _pair(dr: int, dc: int) -> Trap:
    """The cell and its neighbour at (dr, dc) in a row or a column."""
    if dr == 0:
        near, far = min(0, dc) - 1, max(0, dc) + 1
        walls = tuple((i, side) for side in (near, far) for i in (-1, 0, 1))
        return Trap("row", (), ((dr, dc),), walls)
    near, far = min(0, dr) - 1, max(0, dr) + 1
    walls = tuple((side, i) for side in (near, far) for i in (-1, 0, 1))
    return Trap("column", (), ((dr, dc),), walls)


def _block(top: int, left: int) -> Trap:
    """The 2x2 block with its top left corner at (top, left), the cell at (0, 0) in it."""
    cells = [(top + r, left + c) for r in (0, 1) for c in (0, 1)]
    mine_diagonal = {(0, 0), (top + top + 1, left + left + 1)}
    mines = tuple(c for c in cells if c in mine_diagonal and c != (0, 0))
    safe = tuple(c for c in cells if c not in mine_diagonal)
    walls = tuple((top + r, left + c) for r in (-1, 2) for c in (-1, 2))
    return Trap("block", mines, safe, walls)


TRAPS: tuple[Trap, ...] = (
    *(_pair(dr, dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))),
    *(_block(top, left) for top in (0, -1) for left in (0, -1)),
)


def _seen_from_walls(trap: Trap) -> tuple[Trap, ...]:
    """The same 50/50 around each of its walls in turn: that wall is the cell at (0, 0), the
    trap's own cell a mine, and the other walls still walls."""
    seen = []
    for wall in trap.walls:

        def moved(offset: Offset, wall: Offset = wall) -> Offset:
            return offset[0] - wall[0], offset[1] - wall[1]

        seen.append(
            Trap(
                trap.family,
                tuple(map(moved, ((0, 0), *trap.mines))),
                tuple(map(moved, trap.safe)),
                tuple(moved(w) for w in trap.walls if w != wall),
            )
        )
    return tuple(seen)


ENABLED: tuple[Trap, ...] = tuple(
    seen for trap in (_pair(0, 1), _pair(1, 0), _block(0, 0)) for seen in _seen_from_walls(trap)
)
"""Every 50/50 a cell could complete as a wall, each with one of its two mine layouts."""
MAX_OPEN_WALLS = 3
"""Traps with more undecided walls than this are too unlikely to be worth counting."""


@cache
def trap_table() -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """`TRAPS` and `ENABLED` as the compiled path reads them (`mines.solver.native.fifty`):
    per trap (family number, or -1 for `ENABLED`'s, which are summed; its mines, safe
    cells and walls; the most open walls counted), their offsets in that order, and the
    number of families. The tables above stay their one definition."""
    families = list(dict.fromkeys(trap.family for trap in TRAPS))
    info: list[int] = []
    offsets: list[int] = []
    for trap, family, most in [
        *((t, families.index(t.family), MAX_OPEN_WALLS) for t in TRAPS),
        *((t, -1, 0) for t in ENABLED),
    ]:
        info += [family, len(trap.mines), len(trap.safe), len(trap.walls), most]
        offsets += [x for offset in (*trap.mines, *trap.safe, *trap.walls) for x in offset]
    return tuple(info), tuple(offsets), len(families)


def trap_weights(
    solved: Solved, cell: int, counter: Counter, *, max_open_walls: int = MAX_OPEN_WALLS
) -> dict[str, int]:
    """For each family of traps, the arrangements with a mine on `cell` inside its most
    likely trap of that family around `cell`.

    Traps whose walls include a revealed or certainly safe cell are impossible; those with
    more than `max_open_walls` undecided walls are too unlikely to be worth counting.
    """
    best: dict[str, int] = {}
    for trap in TRAPS:
        weight = _trap_weight(solved, cell, trap, counter, max_open_walls)
        best[trap.family] = max(best.get(trap.family, 0), weight)
    return best


def enabling_weight(solved: Solved, cell: int, counter: Counter) -> int:
    """Arrangements with a mine on `cell` that make it the last wall of a 50/50 next to it,
    one of the 50/50's two layouts each, summed: losing there costs half a game at most,
    since without the guess that 50/50 would end in a coin flip."""
    return sum(_trap_weight(solved, cell, trap, counter, 0) for trap in ENABLED)


def _trap_weight(
    solved: Solved, cell: int, trap: Trap, counter: Counter, max_open_walls: int
) -> int:
    """Arrangements with a mine on `cell` and `trap` around it, walls and all (0 when its
    walls include a revealed or certainly safe cell, or more than `max_open_walls` open ones)."""
    position, known = solved.position, solved.known
    rows, cols, values = position.rows, position.cols, position.values
    row, col = divmod(cell, cols)

    def undecided_at(offset: Offset) -> int | None:
        r, c = row + offset[0], col + offset[1]
        if 0 <= r < rows and 0 <= c < cols:
            at = r * cols + c
            if values[at] == UNKNOWN and at not in known:
                return at
        return None

    mines = [cell, *(undecided_at(o) for o in trap.mines)]
    safe = [undecided_at(o) for o in trap.safe]
    if None in mines or None in safe:
        return 0
    open_walls: list[int] = []
    for r, c in ((row + dr, col + dc) for dr, dc in trap.walls):
        if not (0 <= r < rows and 0 <= c < cols):
            continue  # the board's edge is as good as a mine
        at = r * cols + c
        if values[at] != UNKNOWN or known.get(at) is False:
            return 0
        if at not in known:
            open_walls.append(at)
    if len(open_walls) > max_open_walls:
        return 0
    fixed = {at: 1 for at in mines + open_walls if at is not None}
    fixed.update((at, 0) for at in safe if at is not None)
    keys = [*solved.keys, *(((at,), mine) for at, mine in fixed.items())]
    counts = solved.counts
    assert counts is not None
    # The fixed cells away from the numbers join the frontier, leaving fewer off it.
    off = counts.off_cells - len(fixed.keys() - counts.cell_weight.keys())
    try:
        return counter.count(keys, off, solved.free_mines).total
    except NoArrangementError:
        return 0  # no arrangement has this trap
