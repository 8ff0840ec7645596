"""Long-term risk: how often a cell's mine would sit in a 50/50 that no later move could settle.

Two hidden neighbours in a row or a column, one a mine and one safe, are a true 50/50 once
every cell that sees only one of them is a mine: no number can ever tell them apart. The
same holds for a 2x2 block with one diagonal mined, once its four diagonal corners are
mines. When a guess would lose mostly in such arrangements, it costs little: left alone,
those arrangements end in a coin flip anyway. The bot credits a guess for them, as the
strongest published solvers do.
"""

from __future__ import annotations

from dataclasses import dataclass

from mines.errors import InvalidBoardError
from mines.solver.analysis import Solved
from mines.solver.counting import Counter
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


def trapped_weight(solved: Solved, cell: int, counter: Counter, *, max_open_walls: int = 3) -> int:
    """Arrangements (out of `solved.counts.total`) with a mine on `cell` inside a 50/50 that no
    later move could settle: the most likely trap of each family, summed, as an estimate.

    Traps whose walls include a revealed or certainly safe cell are impossible; those with
    more than `max_open_walls` undecided walls are too unlikely to be worth counting.
    """
    position, known = solved.position, solved.known
    rows, cols, values = position.rows, position.cols, position.values
    row, col = divmod(cell, cols)
    frontier = {c for cells, _ in solved.keys for c in cells}
    # Counting works on every cell the local rules left open, including those it decided.
    open_cells = values.count(UNKNOWN) - len(solved.local)

    def undecided_at(offset: Offset) -> int | None:
        r, c = row + offset[0], col + offset[1]
        if 0 <= r < rows and 0 <= c < cols:
            at = r * cols + c
            if values[at] == UNKNOWN and at not in known:
                return at
        return None

    best: dict[str, int] = {}
    for trap in TRAPS:
        mines = [cell, *(undecided_at(o) for o in trap.mines)]
        safe = [undecided_at(o) for o in trap.safe]
        if None in mines or None in safe:
            continue
        open_walls: list[int] = []
        possible = True
        for r, c in ((row + dr, col + dc) for dr, dc in trap.walls):
            if not (0 <= r < rows and 0 <= c < cols):
                continue  # the board's edge is as good as a mine
            at = r * cols + c
            if values[at] != UNKNOWN or known.get(at) is False:
                possible = False
                break
            if at not in known:
                open_walls.append(at)
        if not possible or len(open_walls) > max_open_walls:
            continue
        fixed = {at: 1 for at in mines + open_walls if at is not None}
        fixed.update((at, 0) for at in safe if at is not None)
        keys = [*solved.keys, *(((at,), mine) for at, mine in fixed.items())]
        off = open_cells - len(frontier | fixed.keys())
        try:
            weight = counter.count(keys, off, solved.free_mines).total
        except InvalidBoardError:
            continue  # no arrangement has this trap
        best[trap.family] = max(best.get(trap.family, 0), weight)
    return sum(best.values())
