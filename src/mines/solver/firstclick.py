"""What a game's placement rule promises its first reveal: the cells it keeps free of mines."""

from __future__ import annotations

from mines.grid import block_around
from mines.placement import FirstClick, PlacementRule, RandomPlacer

Coord = tuple[int, int]


def kept_free(rule: str, rows: int, cols: int, mines: int, cell: Coord) -> list[Coord]:
    """The cells `rule` keeps free of mines for a first reveal at `cell`.

    `opening` keeps the 3x3 block around it (only the cell when the mines would not fit
    around the block), `safe` the cell alone, as `RandomPlacer` deals them; `noguess` always
    the block (it refuses a board too dense for that). `any`, `fixed` and rules this package
    does not ship promise nothing: an empty list.
    """
    if rule == PlacementRule.NOGUESS:
        return block_around(rows, cols, *cell)
    if rule in set(FirstClick):
        return RandomPlacer(0, rule).excluded_cells(rows, cols, mines, cell)
    return []
