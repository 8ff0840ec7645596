"""`NoGuessPlacer`: boards that the solver clears from the first click by deduction alone."""

from __future__ import annotations

import random
import secrets

import numpy as np

from mines.errors import InvalidBoardError
from mines.placement import PlacementRule, Positions, neighbourhood
from mines.solver.analysis import Counting, Position, Solved, solve
from mines.solver.counting import Counter
from mines.solver.rules import UNKNOWN
from mines.solver.topology import Neighbours, neighbours

PERTURBATIONS_PER_LAYOUT = 400
"""Mine moves tried on one layout before starting again from a fresh random one."""
LAYOUTS = 50
"""Fresh random layouts tried before giving up on a board too dense to shape."""


class Board:
    """A layout being shaped, and the cells a deduction-only player has opened on it so far."""

    def __init__(self, rows: int, cols: int, mines: set[int], first: int):
        self.rows, self.cols = rows, cols
        self.nbrs: Neighbours = neighbours(rows, cols)
        self.mines = mines
        self.first = first
        self.counts = [sum(n in mines for n in around) for around in self.nbrs]
        self.values = [UNKNOWN] * (rows * cols)
        self.opened = 0
        self.open(first)

    def open(self, cell: int) -> None:
        """Reveal a safe cell; a zero floods to its numbered border, as in a game."""
        values, counts, nbrs = self.values, self.counts, self.nbrs
        if values[cell] != UNKNOWN:
            return
        values[cell] = counts[cell]
        self.opened += 1
        stack = [cell] if counts[cell] == 0 else []
        while stack:
            for n in nbrs[stack.pop()]:
                if values[n] == UNKNOWN:
                    values[n] = counts[n]
                    self.opened += 1
                    if counts[n] == 0:
                        stack.append(n)

    def move_mine(self, source: int, target: int) -> None:
        """Move a mine; revealed numbers around both cells change as a player would see."""
        self.mines.remove(source)
        self.mines.add(target)
        for cell, step in ((source, -1), (target, 1)):
            for n in self.nbrs[cell]:
                self.counts[n] += step
                if self.values[n] != UNKNOWN:
                    self.values[n] = self.counts[n]

    def deduce_all(self, counter: Counter) -> Solved | None:
        """Open every cell deduction proves safe; None when the board is cleared, else the
        analysis of the position where deduction is stuck."""
        safe_total = self.rows * self.cols - len(self.mines)
        while self.opened < safe_total:
            position = Position(self.rows, self.cols, tuple(self.values), len(self.mines))
            solved = solve(position, counter, count=Counting.IF_STUCK)
            safe = solved.safe_cells()
            if not safe:
                return solved
            for cell in safe:
                self.open(cell)
        return None


def clears_without_guessing(
    rows: int, cols: int, mines: set[int], first_click: tuple[int, int]
) -> bool:
    """Whether deduction alone, from the first click, opens every safe cell of a layout."""
    board = Board(rows, cols, set(mines), first_click[0] * cols + first_click[1])
    return board.deduce_all(Counter()) is None


class NoGuessPlacer:
    """Places mines so that the first click opens an area and no guess is ever needed.

    It starts from a uniform random layout and plays it by deduction. Where deduction is
    stuck, it moves the mines of one stuck number to cells no number can see yet (as Simon
    Tatham's generator perturbs the stuck frontier), which makes that number's cells safe,
    and carries on. A layout is returned only after a fresh run from the first click
    clears it; the same seed always gives the same layout.
    """

    def __init__(self, seed: int | None = None):
        self._seed: int = secrets.randbits(48) if seed is None else seed

    @property
    def rule(self) -> str:
        return PlacementRule.NOGUESS.value

    @property
    def seed(self) -> int:
        return self._seed

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> Positions:
        zone = {r * cols + c for r, c in neighbourhood(rows, cols, *first_click)}
        if mines > rows * cols - len(zone):
            raise InvalidBoardError(
                f"a no-guess {rows}x{cols} board keeps the first click and its neighbours free, "
                f"so it holds at most {rows * cols - len(zone)} mines; got {mines}"
            )
        rng = random.Random(self._seed)
        counter = Counter()
        free = [cell for cell in range(rows * cols) if cell not in zone]
        first = first_click[0] * cols + first_click[1]
        for _ in range(LAYOUTS):
            layout = set(rng.sample(free, mines))
            found = _shape(Board(rows, cols, layout, first), rng, counter)
            if found is not None:
                flat = np.array(sorted(found), dtype=np.int64)
                return np.stack(np.divmod(flat, cols), axis=1).astype(np.int64)
        raise InvalidBoardError(
            f"could not make a no-guess {rows}x{cols} board with {mines} mines from seed "
            f"{self._seed}: it is too dense to solve without guessing; use fewer mines"
        )

    def __repr__(self) -> str:
        return f"NoGuessPlacer(seed={self._seed!r})"


def _shape(board: Board, rng: random.Random, counter: Counter) -> set[int] | None:
    """Perturb a layout until a fresh deduction run clears it; None when it will not settle."""
    fresh = True
    for _ in range(PERTURBATIONS_PER_LAYOUT):
        stuck = board.deduce_all(counter)
        if stuck is None:
            if fresh:
                return board.mines
            # Earlier deductions used numbers that moves have since changed: check from scratch.
            board = Board(board.rows, board.cols, board.mines, board.first)
            fresh = True
            continue
        if not _perturb(board, stuck, rng):
            return None
        fresh = False
    return None


def _perturb(board: Board, stuck: Solved, rng: random.Random) -> bool:
    """Empty the undecided cells of one stuck number, moving their mines out of sight.

    Mines go preferably to cells that no revealed number touches, so no number the player
    has seen changes but this one's neighbourhood; False when there is nowhere to go.
    """
    values, mines = board.values, board.mines
    keys = sorted(stuck.keys)
    if keys:
        cells, _ = keys[rng.randrange(len(keys))]
    else:
        # The numbers are all settled, but a wall of known mines hides the rest: open a gap.
        walls = sorted(cell for cell in stuck.local if stuck.known[cell])
        cells = (walls[rng.randrange(len(walls))],)
    movers = [cell for cell in cells if cell in mines]
    frontier = {cell for key_cells, _ in keys for cell in key_cells}
    hidden = [c for c, v in enumerate(values) if v == UNKNOWN and c not in mines]
    unseen = [c for c in hidden if c not in frontier and c not in stuck.local]
    targets = unseen if len(unseen) >= len(movers) else [c for c in hidden if c not in cells]
    if len(targets) < len(movers):
        return False
    for source, target in zip(movers, rng.sample(targets, len(movers)), strict=True):
        board.move_mine(source, target)
    return True
