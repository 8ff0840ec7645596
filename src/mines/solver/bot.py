"""`Bot`: plays a game through its public API only, by deduction first and careful guesses after."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from heapq import merge
from itertools import islice
from operator import itemgetter
from typing import Protocol

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.placement import FixedPlacer, MinePlacer
from mines.solver import native as compiled
from mines.solver.analysis import Counting, Position, Solved, solve
from mines.solver.counting import ConstraintKey, Counter, Counts, NoArrangementError
from mines.solver.endgame import BUDGET, LISTING_STEPS, MAX_CELLS, MAX_LAYOUTS, solve_endgame
from mines.solver.fifty import enabling_weight, trap_table, trap_weights
from mines.solver.rules import UNKNOWN
from mines.solver.topology import neighbours
from mines.status import GameStatus
from mines.view import BoardView

LOW_MINE_DENSITY = 0.18
"""Boards with fewer mines per cell than this (Beginner, Intermediate) are opened at (2, 2)."""


def opening_click(rows: int, cols: int, mines: int) -> tuple[int, int]:
    """Where the bot opens a new board when not told: (3, 3) on dense boards such as Expert,
    as the published records do, and (2, 2) on sparser ones, clipped to the board.

    Measured on paired seeds with an opening first click: (2, 2) won 97.16% of 30,000
    Beginner games against 96.72% at (3, 3), and 89.11% of 15,000 Intermediate games
    against 88.71% (level on 20,000 fresh Intermediate seeds); on Expert the two were level.
    """
    at = 2 if mines < LOW_MINE_DENSITY * rows * cols else 3
    return min(at, rows - 1), min(at, cols - 1)


class Playable(Protocol):
    """All the bot may use of a game: it looks at views and reveals cells, nothing else."""

    def view(self) -> BoardView: ...

    def reveal(self, row: int, col: int) -> GameStatus: ...


@dataclass(frozen=True, slots=True)
class Guess:
    """A guess the bot weighed: its chance of a mine and its score, the chance to survive
    it and the next move (or, in a searched endgame, the chance to win the game)."""

    cell: int
    mine_probability: float
    score: float


class Bot:
    """Opens every certainly safe cell; when there is none, guesses by safety and progress.

    A guess is scored by the chance of surviving it and then the next move: for each
    number the cell could show, the position is recounted exactly, and that number counts
    by the safety of the safest living cell it leaves (one that can show two numbers or
    more), fully when that cell is certainly safe.
    A guess that would lose mostly inside a 50/50 no later move could settle is credited
    for it (see `mines.solver.fifty`): those arrangements end in a coin flip anyway; a cell
    that is a mine only inside such a 50/50 is guessed first.
    Small endgames are searched exhaustively for the guess most likely to win instead.
    The seed only breaks exact ties, so a seed and a board always give the same game.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        first_click: tuple[int, int] | None = None,
        tolerance: float = 0.04,
        candidates: int = 8,
        off_candidates: int = 2,
        near_candidates: int = 2,
        endgame_cells: int = MAX_CELLS,
        endgame_layouts: int = MAX_LAYOUTS,
        endgame_positions: int = BUDGET,
        fifty_fifty_credit: float = 0.9,
        living_checks: int = 6,
        native: bool = True,
    ):
        self.seed = seed
        self.first_click = first_click
        self.tolerance = tolerance
        """Guesses this much riskier than the safest cell are still weighed."""
        self.candidates = candidates
        """At most this many cells next to the numbers are weighed with the lookahead..."""
        self.off_candidates = off_candidates
        """... and this many of the equally likely cells away from them, fewest hidden
        neighbours first (they open areas most often) ..."""
        self.near_candidates = near_candidates
        """... and this many of those that touch an undecided cell next to the numbers."""
        self.endgame_cells = endgame_cells
        """Search endgames of at most this many undecided cells exhaustively (0: never)."""
        self.endgame_layouts = endgame_layouts
        """... when at most this many layouts of the mines remain possible ..."""
        self.endgame_positions = endgame_positions
        """... giving up (for the heuristics) past this many distinct positions searched."""
        self.fifty_fifty_credit = fifty_fifty_credit
        """How much of a guess's loss inside a 50/50 no later move could settle is forgiven:
        those arrangements end in a coin flip anyway (0: none)."""
        self.living_checks = living_checks
        """The lookahead looks for the safest living next cell among at most this many."""
        self.native = native
        """Count with the compiled path when it is available (`mines.solver.native`; the
        same moves either way, `MINES_NATIVE=0` turns it off everywhere)."""
        self._rng = random.Random(seed)
        self._counter = Counter(native=native)
        self.guesses = 0
        """Moves so far whose cell was not certainly safe (the first click aside)."""

    def play(self, game: Playable) -> GameStatus:
        """Play until the game is won or lost; returns the final status."""
        while True:
            view = game.view()
            if view.status.is_over:
                return view.status
            for row, col in self.moves(view):
                status = game.reveal(row, col)
                if status.is_over:
                    return status

    def play_placed(self, rows: int, cols: int, mines: int, placer: MinePlacer) -> GameStatus:
        """Play a new game whose mines `placer` puts, as `play` plays
        `Game(rows, cols, mines, placer=placer)`, with the same moves; compiled end to end
        when the library is available, which spares long runs the Python game around it.

        The compiled game still decides from what a player sees (it only opens cells on
        the layout); a position it leaves to the Python path is played on from there by
        `play` on a `Game` that replays its moves.
        """
        click = self._opening(rows, cols, mines)
        layout = placer.place(rows, cols, mines, click).reshape(-1, 2)
        flat = [int(r) * cols + int(c) for r, c in layout.tolist()]
        played = None
        if self.native:
            played = compiled.play(
                rows,
                cols,
                flat,
                click[0] * cols + click[1],
                (self.tolerance, self.fifty_fifty_credit),
                (
                    self.candidates,
                    self.off_candidates,
                    self.near_candidates,
                    self.endgame_cells,
                    self.endgame_layouts,
                    self.endgame_positions,
                    self.living_checks,
                    LISTING_STEPS,
                ),
                trap_table(),
                self._rng.getstate()[1],
            )
        if played is not None:
            self._rng.setstate((3, played.state, None))
            self.guesses += played.guesses
            if played.over:
                return GameStatus.WON if played.won else GameStatus.LOST
        game = Game(rows, cols, mines, placer=FixedPlacer(layout))
        for cell in played.moves if played is not None else ():
            game.reveal(*divmod(cell, cols))
        return self.play(game)

    def moves(self, view: BoardView) -> list[tuple[int, int]]:
        """The cells to open next: every certainly safe cell, or else one guess."""
        position = Position.from_view(view)
        cols = position.cols
        if all(value == UNKNOWN for value in position.values):
            return [self._opening(position.rows, cols, position.mines)]
        solved = solve(position, self._counter, count=Counting.IF_STUCK, native=self.native)
        safe = solved.safe_cells()
        if safe:
            return [divmod(cell, cols) for cell in sorted(safe)]
        self.guesses += 1
        return [divmod(self.guess(solved).cell, cols)]

    def _opening(self, rows: int, cols: int, mines: int) -> tuple[int, int]:
        """Where this bot opens a new board."""
        if self.first_click is None:
            return opening_click(rows, cols, mines)
        row, col = self.first_click
        return min(row, rows - 1), min(col, cols - 1)

    def guess(self, solved: Solved) -> Guess:
        """The undecided cell with the best two-move survival score."""
        counts = solved.counts
        assert counts is not None
        if self.endgame_cells:
            found = solve_endgame(
                solved,
                max_cells=self.endgame_cells,
                max_layouts=self.endgame_layouts,
                budget=self.endgame_positions,
                native=self.native,
            )
            if found is not None:
                weight = solved.mine_weight(found.cell)
                return Guess(found.cell, weight / counts.total, found.win_probability)
        undecided = solved.undecided()
        if not undecided:
            raise InvalidBoardError("every unrevealed cell is certainly a mine: nothing to open")
        chance = {cell: solved.mine_weight(cell) / counts.total for cell in undecided}
        best = min(chance.values())
        shortlist = [c for c in undecided if chance[c] <= best + self.tolerance]
        shortlist = self._representatives(solved, shortlist, chance)
        factors, pseudo = self._fifty_fifty_factors(solved, shortlist, chance)
        looks = self._lookaheads(solved, list(factors))
        scored = [Guess(c, chance[c], looks[c][0] * factors[c]) for c in factors]
        # A dead cell (it can show only one number) teaches nothing but its own safety:
        # guess one only when every shortlisted cell is dead. A living cell whose every
        # mine arrangement sits in a 50/50 must be guessed some day and may help now:
        # such a pseudo 50/50 goes first.
        living = [g for g in scored if looks[g.cell][1] > 1]
        scored = [g for g in living if g.cell in pseudo] or living or scored
        top = max(g.score for g in scored)
        ties = [g for g in scored if g.score >= top - 1e-12]
        return ties[self._rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def _representatives(
        self, solved: Solved, shortlist: list[int], chance: dict[int, float]
    ) -> list[int]:
        """The few cells worth the lookahead: the safest next to the numbers, and among the
        equally likely cells away from them, a few of each useful kind."""
        position = solved.position
        nbrs = neighbours(position.rows, position.cols)
        values = position.values

        def rank(cell: int) -> tuple[float, int, float]:
            hidden = sum(1 for n in nbrs[cell] if values[n] == UNKNOWN)
            return (round(chance[cell], 9), hidden, self._rng.random())

        assert solved.counts is not None
        frontier = solved.counts.cell_weight
        inside = sorted((c for c in shortlist if c in frontier), key=rank)[: self.candidates]
        outside = sorted((c for c in shortlist if c not in frontier), key=rank)
        near = [c for c in outside if any(n in frontier for n in nbrs[c])]
        picked = dict.fromkeys(outside[: self.off_candidates] + near[: self.near_candidates])
        return inside + list(picked)

    def _fifty_fifty_factors(
        self, solved: Solved, shortlist: list[int], chance: dict[int, float]
    ) -> tuple[dict[int, float], set[int]]:
        """The cells to score, each with the factor its 50/50 credit multiplies its score by
        (the shortlist, and the cells next to the numbers that the credit makes as safe as
        the safest cell), and the pseudo 50/50s among them: the cells that are a mine only
        inside a 50/50."""
        counts = solved.counts
        assert counts is not None
        if not self.fifty_fifty_credit:
            return dict.fromkeys(shortlist, 1.0), set()
        safest = 1 - min(chance.values())
        cells = list(dict.fromkeys(shortlist + [c for c in counts.cell_weight if c in chance]))
        credits = self._credits(solved, cells)
        factors: dict[int, float] = {}
        pseudo: set[int] = set()
        for cell in cells:
            factor, is_pseudo = credits[cell]
            if is_pseudo:
                pseudo.add(cell)
            if cell in shortlist or cell in pseudo or (1 - chance[cell]) * factor > safest:
                factors[cell] = factor
        return factors, pseudo

    def _credits(self, solved: Solved, cells: list[int]) -> dict[int, tuple[float, bool]]:
        """For each cell, the factor its 50/50 credit multiplies its score by, and whether it
        is a mine only inside a 50/50; compiled in one call when the library is available."""
        counts = solved.counts
        assert counts is not None
        if self.native:
            position = solved.position
            found = compiled.fifty(
                position.rows,
                position.cols,
                solved.keys,
                position.values,
                solved.known,
                counts.off_cells,
                solved.free_mines,
                trap_table(),
                self.fifty_fifty_credit,
                cells,
            )
            if found is not None:
                return found
        credits: dict[int, tuple[float, bool]] = {}
        for cell in cells:
            mine = solved.mine_weight(cell)
            safe = counts.total - mine
            traps = trap_weights(solved, cell, self._counter)
            credited = sum(traps.values()) + enabling_weight(solved, cell, self._counter)
            factor = 1 + self.fifty_fifty_credit * min(credited, mine, safe) / safe
            credits[cell] = factor, max(traps.values()) == mine
        return credits

    def _lookaheads(self, solved: Solved, cells: list[int]) -> dict[int, tuple[float, int]]:
        """`lookahead` of each cell, compiled in one call when the library is available."""
        if self.native:
            position, local = solved.position, solved.local
            hidden = [c for c, v in enumerate(position.values) if v == UNKNOWN and c not in local]
            found = compiled.lookahead(
                position.rows,
                position.cols,
                solved.keys,
                hidden,
                solved.free_mines,
                self.living_checks,
                cells,
            )
            if found is not None:
                return found
        return {c: self.lookahead(solved, c) for c in cells}

    def lookahead(self, solved: Solved, cell: int) -> tuple[float, int]:
        """The chance to survive opening `cell` and then the following move, counted exactly,
        and how many numbers `cell` could show (one when it is dead).

        The following move is the safest cell that could still teach something: a dead cell
        is guessed last (see `guess`), so a number that leaves only dead cells certainly
        safe has made no progress.
        """
        counts = solved.counts
        assert counts is not None
        values, local = solved.position.values, solved.local
        hidden = [c for c, value in enumerate(values) if value == UNKNOWN and c not in local]
        others = [c for c in hidden if c != cell]
        score = 0.0
        shown = 0
        for keys, after in self._outcomes(solved, solved.keys, counts, hidden, cell):
            next_safety = 1 - self._safest_living(solved, keys, others, after) / after.total
            score += after.total / counts.total * next_safety
            shown += 1
        return score, shown

    def _outcomes(
        self,
        solved: Solved,
        keys: Iterable[ConstraintKey],
        counts: Counts,
        hidden: Iterable[int],
        cell: int,
    ) -> Iterator[tuple[list[ConstraintKey], Counts]]:
        """For each number `cell` could show if opened in the position where `keys` constrain
        the `hidden` cells (the unrevealed cells outside `solved.local`) and `counts` counts
        them: the constraints and counts after it."""
        position = solved.position
        nbrs = neighbours(position.rows, position.cols)
        unopened = set(hidden) - {cell}
        around = tuple(n for n in nbrs[cell] if n in unopened)
        rest: list[ConstraintKey] = []
        for cells, value in keys:
            if cell in cells:
                cells = tuple(c for c in cells if c != cell)
            if cells:
                rest.append((cells, value))
        frontier = {c for cells, _ in rest for c in cells} | set(around)
        off = len(unopened) - len(frontier)
        # Neighbours certainly safe or certainly mines leave only the numbers between.
        weights = [counts.mine_weight(n) for n in around]
        fewest = weights.count(counts.total)
        for extra in range(fewest, len(around) - weights.count(0) + 1):
            after_keys = [*rest, (around, extra)] if around else rest
            try:
                after = self._counter.count(after_keys, off, solved.free_mines)
            except NoArrangementError:
                continue  # the cell cannot show this number
            yield after_keys, after

    def _safest_living(
        self, solved: Solved, keys: list[ConstraintKey], hidden: list[int], counts: Counts
    ) -> int:
        """The mine weight of the safest cell among `hidden` that can show two numbers or
        more (checking at most `living_checks` cells, safest first, and taking the next one
        unchecked), or of the safest cell when every one checked is dead and none is left."""
        if not hidden:
            return 0
        weights = counts.cell_weight
        off = ((c, counts.off_weight) for c in hidden if c not in weights)
        by_safety = merge(sorted(weights.items(), key=itemgetter(1)), off, key=itemgetter(1))
        ranked = list(islice(by_safety, self.living_checks + 1))
        unopened = set(hidden)
        for cell, weight in ranked[: self.living_checks]:
            if self._is_living(solved, keys, unopened, counts, cell):
                return weight
        return ranked[self.living_checks][1] if len(ranked) > self.living_checks else ranked[0][1]

    def _is_living(
        self,
        solved: Solved,
        keys: list[ConstraintKey],
        hidden: set[int],
        counts: Counts,
        cell: int,
    ) -> bool:
        """Whether `cell` could show two numbers or more, once opened in that position."""
        if _living_by_off_swap(solved, hidden, counts, cell):
            return True
        possible = self._outcomes(solved, keys, counts, hidden, cell)
        return next(possible, None) is not None and next(possible, None) is not None


def _living_by_off_swap(solved: Solved, hidden: set[int], counts: Counts, cell: int) -> bool:
    """Whether moving one mine among the cells away from the numbers can change what `cell`
    would show: a test for life that needs no recount (False means "not shown this way").

    Those cells are interchangeable: when an arrangement with `cell` safe leaves them
    (`cell` aside) at least one mine and one empty cell, and some of them touch `cell` while
    others do not, a mine can sit on either side, and `cell` shows two numbers. For a cell
    away from the numbers or a certainly safe one, its safety changes no count, so one such
    arrangement among all will do; for any other cell every arrangement must qualify.
    """
    weight = counts.cell_weight.get(cell)
    if weight == counts.total:
        return False
    position = solved.position
    beside = sum(
        1
        for n in neighbours(position.rows, position.cols)[cell]
        if n in hidden and n not in counts.cell_weight
    )
    spaces = counts.off_cells - (weight is None)
    qualify = any if not weight else all
    return 0 < beside < spaces and qualify(0 < mines < spaces for mines in counts.off_mines)
