"""`NoGuessPlacer`: boards that the solver clears from the first click by deduction alone."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

import numpy as np

from mines.dense import DenseEngine
from mines.engine import CellState
from mines.errors import InvalidBoardError, NoGuessTooLargeError
from mines.grid import Flat, block_around, dilate, neighbours
from mines.placement import CoordArray, PlacementRule, skip_excluded
from mines.solver.counting import ConstraintKey, Counter
from mines.solver.rules import Constraint, deduce_from

PERTURBATIONS_PER_LAYOUT = 400
"""Mine moves tried on one layout before starting again from a fresh random one."""
LAYOUTS = 50
"""Fresh random layouts tried before giving up on a board too dense to shape."""
CELL_LIMIT = 4_000_000
"""The largest no-guess board, in cells: time and memory grow with the board (a 1000x1000
board at 1% mines takes seconds and under 100 MiB); past this a request is refused up front."""


@dataclass(frozen=True, slots=True)
class Stuck:
    """Where deduction is stuck: what the local rules left undecided, and what is known."""

    keys: frozenset[ConstraintKey]
    """The constraints the local rules left undecided, as (sorted cells, mines)."""
    local: frozenset[int]
    """The cells the local rules decided."""
    known: dict[int, bool]
    """Every decided cell (by the local rules or by counting): True for a mine."""


class Playthrough:
    """A layout being shaped, played on the dense engine by a player who only deduces.

    Cells are flat indices (`row * cols + col`). Moving a mine changes the numbers around
    it in the engine, so revealed numbers change as a player would see them.
    """

    def __init__(self, rows: int, cols: int, mines: Flat, first: int):
        self.rows, self.cols = rows, cols
        self.first = first
        self.mine_count = int(mines.size)
        self.engine = DenseEngine(rows, cols)
        self.engine.place(np.stack(np.divmod(mines, cols), axis=1).astype(np.int64))
        self.open(first)

    def mines(self) -> Flat:
        """The layout as it stands, as sorted flat cells."""
        return np.flatnonzero(self.engine.mine_mask()).astype(np.int64)

    def open(self, cell: int) -> None:
        row, col = divmod(cell, self.cols)
        if self.engine.state(row, col) is CellState.HIDDEN:
            self.engine.open(row, col)

    def move_mine(self, source: int, target: int) -> None:
        self.engine.move_mine(divmod(source, self.cols), divmod(target, self.cols))

    def constraints(self) -> list[Constraint]:
        """One constraint per revealed cell next to a hidden one, in cell order.

        Found with whole-array operations; only the frontier is listed cell by cell.
        """
        revealed = self.engine.revealed_mask()
        hidden = ~revealed
        frontier = np.flatnonzero(revealed & dilate(hidden)).astype(np.int64)
        around, on_board = neighbours(frontier, self.rows, self.cols)
        flat_hidden = hidden.reshape(-1)
        unknown = on_board & flat_hidden[np.where(on_board, around, 0)]
        values = self.engine.counts().reshape(-1)[frontier]
        # Each constraint's cells in neighbour order (as the solver's own constraints list
        # them), cut from one flat list: sets filled in the same order iterate the same.
        cells = around[unknown].tolist()
        ends = np.cumsum(np.count_nonzero(unknown, axis=1)).tolist()
        starts = [0, *ends[:-1]]
        return [
            Constraint(source, set(cells[start:end]), value)
            for source, start, end, value in zip(
                frontier.tolist(), starts, ends, values.tolist(), strict=True
            )
        ]

    def step(self, counter: Counter) -> tuple[list[int], Stuck | None]:
        """The cells deduction proves safe now; when there are none, where it is stuck.

        The local rules first; exact counting only when they find no safe cell.
        """
        found = deduce_from(self.constraints(), self.cols)
        known = found.known
        if not all(known.values()):
            return [cell for cell, mine in known.items() if not mine], None
        keys = frozenset((tuple(sorted(c.cells)), c.value) for c in found.constraints)
        local = frozenset(known)
        mines_left = self.mine_count - sum(known.values())
        frontier = {cell for cells, _ in keys for cell in cells}
        unknown = self.rows * self.cols - self.engine.opened - len(known)
        counts = counter.count(keys, unknown - len(frontier), mines_left)
        if counts.off_cells and counts.off_weight in (0, counts.total):
            off = ~self.engine.revealed_mask().reshape(-1)
            off[list(known) + list(frontier)] = False
            mine = counts.off_weight > 0
            known.update(dict.fromkeys(np.flatnonzero(off).tolist(), mine))
        for cell, weight in counts.cell_weight.items():
            if weight in (0, counts.total):
                known[cell] = weight > 0
        safe = [cell for cell, mine in known.items() if not mine]
        return safe, None if safe else Stuck(keys, local, known)

    def deduce_all(self, counter: Counter) -> Stuck | None:
        """Open every cell deduction proves safe; None when the board is cleared, else where
        deduction is stuck."""
        safe_total = self.rows * self.cols - self.mine_count
        while self.engine.opened < safe_total:
            safe, stuck = self.step(counter)
            if not safe:
                return stuck
            for cell in safe:
                self.open(cell)
        return None


def clears_without_guessing(
    rows: int, cols: int, mines: set[int], first_click: tuple[int, int]
) -> bool:
    """Whether deduction alone, from the first click, opens every safe cell of a layout."""
    layout = np.array(sorted(mines), dtype=np.int64)
    board = Playthrough(rows, cols, layout, first_click[0] * cols + first_click[1])
    return board.deduce_all(Counter()) is None


class NoGuessPlacer:
    """Places mines so that the first click opens an area and no guess is ever needed.

    It starts from a uniform random layout and plays it on the engine by deduction. Where
    deduction is stuck, it moves the mines of one stuck number to cells no number can see
    yet (as Simon Tatham's generator perturbs the stuck frontier), which makes that number's
    cells safe, and carries on. A layout is returned only after a fresh run from the first
    click clears it; the same seed always gives the same layout.
    """

    def __init__(self, seed: int | None = None):
        self._seed: int = secrets.randbits(48) if seed is None else seed

    @property
    def rule(self) -> str:
        return PlacementRule.NOGUESS.value

    @property
    def seed(self) -> int:
        return self._seed

    def validate(self, rows: int, cols: int, mines: int) -> None:
        """Refuse, before any work, a board this placer cannot make (`Game` asks when made)."""
        if rows * cols > CELL_LIMIT:
            raise NoGuessTooLargeError(
                f"a no-guess board has at most {CELL_LIMIT:,} cells (for example 2000x2000); "
                f"{rows}x{cols} has {rows * cols:,}: ask for a smaller board, or for this one "
                "without the no-guess rule"
            )

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        self.validate(rows, cols, mines)
        zone = sorted(r * cols + c for r, c in block_around(rows, cols, *first_click))
        free = rows * cols - len(zone)
        if mines > free:
            raise InvalidBoardError(
                f"a no-guess {rows}x{cols} board keeps the first click and its neighbours free, "
                f"so it holds at most {free} mines; got {mines}"
            )
        rng = random.Random(self._seed)
        counter = Counter()
        first = first_click[0] * cols + first_click[1]
        excluded = np.array(zone, dtype=np.int64)
        for _ in range(LAYOUTS):
            # Drawing indices into the free cells draws as sampling the list of them would.
            picks = np.array(rng.sample(range(free), mines), dtype=np.int64)
            layout = np.sort(skip_excluded(picks, excluded))
            found = _shape(Playthrough(rows, cols, layout, first), rng, counter)
            if found is not None:
                return np.stack(np.divmod(found, cols), axis=1).astype(np.int64)
        raise InvalidBoardError(
            f"could not make a no-guess {rows}x{cols} board with {mines} mines from seed "
            f"{self._seed}: it is too dense to solve without guessing; use fewer mines"
        )

    def __repr__(self) -> str:
        return f"NoGuessPlacer(seed={self._seed!r})"


def _shape(board: Playthrough, rng: random.Random, counter: Counter) -> Flat | None:
    """Perturb a layout until a fresh deduction run clears it; None when it will not settle."""
    fresh = True
    for _ in range(PERTURBATIONS_PER_LAYOUT):
        stuck = board.deduce_all(counter)
        if stuck is None:
            if fresh:
                return board.mines()
            # Earlier deductions used numbers that moves have since changed: check from scratch.
            board = Playthrough(board.rows, board.cols, board.mines(), board.first)
            fresh = True
            continue
        if not _perturb(board, stuck, rng):
            return None
        fresh = False
    return None


def _perturb(board: Playthrough, stuck: Stuck, rng: random.Random) -> bool:
    """Empty the undecided cells of one stuck number, moving their mines out of sight.

    Mines go preferably to cells that no revealed number touches, so no number the player
    has seen changes but this one's neighbourhood; False when there is nowhere to go.
    """
    keys = sorted(stuck.keys)
    if keys:
        cells, _ = keys[rng.randrange(len(keys))]
    else:
        # The numbers are all settled, but a wall of known mines hides the rest: open a gap.
        walls = sorted(cell for cell in stuck.local if stuck.known[cell])
        cells = (walls[rng.randrange(len(walls))],)
    mine = board.engine.mine_mask().reshape(-1)
    movers = [cell for cell in cells if mine[cell]]
    frontier = [cell for key_cells, _ in keys for cell in key_cells]
    hidden = ~board.engine.revealed_mask().reshape(-1) & ~mine
    unseen = hidden.copy()
    unseen[frontier + list(stuck.local)] = False
    targets = np.flatnonzero(unseen)
    if targets.size < len(movers):
        hidden[list(cells)] = False
        targets = np.flatnonzero(hidden)
    if targets.size < len(movers):
        return False
    # Drawing indices into the targets draws as sampling the list of them would.
    picks = rng.sample(range(int(targets.size)), len(movers))
    for source, target in zip(movers, targets[picks].tolist(), strict=True):
        board.move_mine(source, target)
    return True
