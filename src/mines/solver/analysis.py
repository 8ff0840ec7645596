"""`analyze`: what the player's view proves about every hidden cell, and its exact probability."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Literal

import numpy as np

from mines.errors import InvalidBoardError
from mines.solver import native as compiled
from mines.solver.counting import ConstraintKey, Counter, Counts
from mines.solver.rules import COUNTING, UNKNOWN, DeductionRule, Reason, deduce
from mines.solver.topology import neighbours
from mines.status import GameStatus
from mines.symbols import Cell
from mines.view import BoardView

_UNKNOWN_SYMBOLS = {ord(Cell.HIDDEN.value), ord(Cell.FLAG.value)}
_CODES = {ord(str(n)): n for n in range(9)} | dict.fromkeys(_UNKNOWN_SYMBOLS, UNKNOWN)
_NOT_A_CODE = 99
_TABLE = np.full(256, _NOT_A_CODE, dtype=np.int8)
"""`_CODES` as a table over every byte, so a whole view converts in one step."""
for _byte, _code in _CODES.items():
    _TABLE[_byte] = _code


@dataclass(frozen=True, slots=True)
class Position:
    """A board as the solver sees it: a number or `UNKNOWN` per flat cell, and the mine total."""

    rows: int
    cols: int
    values: tuple[int, ...]
    mines: int

    @classmethod
    def from_view(cls, view: BoardView, mines: int | None = None) -> Position:
        """Read a whole-board view; flags count as unknown cells, since a player may be wrong."""
        if (view.height, view.width) != (view.rows, view.cols):
            raise InvalidBoardError(
                f"the solver needs the whole {view.rows}x{view.cols} board, got a "
                f"{view.height}x{view.width} window: ask for game.view() without a window"
            )
        if view.status is not GameStatus.IN_PROGRESS:
            raise InvalidBoardError(f"the game is over ({view.status.value}): nothing to solve")
        data = view.array.tobytes()
        codes = _TABLE[np.frombuffer(data, dtype=np.uint8)]
        if (codes == _NOT_A_CODE).any():
            bad = sorted({chr(b) for b in data if b not in _CODES})
            raise InvalidBoardError(
                f"cannot analyse symbols {bad}: only H, F and 0-8 appear in a game in progress"
            )
        values = tuple(codes.tolist())
        flags = data.count(ord(Cell.FLAG.value))
        total = view.mines_left + flags if mines is None else mines
        unknown = values.count(UNKNOWN)
        if not 0 <= total <= unknown:
            raise InvalidBoardError(
                f"the mine total must be from 0 to the {unknown} unrevealed cells, got {total}"
            )
        return cls(view.rows, view.cols, values, total)


@dataclass(slots=True)
class Solved:
    """The solver's working result: certain cells with their reasons, then arrangement counts."""

    position: Position
    known: dict[int, bool]
    reasons: dict[int, Reason]
    """Why each certain cell is certain (only counting's cells when the compiled local rules
    ran: they keep no reasons)."""
    keys: frozenset[ConstraintKey]
    """The constraints left undecided by the local rules, which counting works on."""
    local: frozenset[int]
    """The cells the local rules decided (they appear in no key)."""
    free_mines: int
    """The mines not placed by the local rules: spread over the keys' cells and off them."""
    counts: Counts | None
    """None when only the local rules ran (they found a safe cell, so counting could wait)."""

    def safe_cells(self) -> list[int]:
        return [cell for cell, mine in self.known.items() if not mine]

    def undecided(self) -> list[int]:
        known = self.known
        return [c for c, v in enumerate(self.position.values) if v == UNKNOWN and c not in known]

    def mine_weight(self, cell: int) -> int:
        """Arrangements with a mine on an undecided cell, out of `counts.total`."""
        assert self.counts is not None
        return self.counts.mine_weight(cell)


class Counting(StrEnum):
    """When `solve` counts arrangements after the local rules."""

    ALWAYS = "always"
    """Always: every probability is exact (what `analyze` needs)."""
    IF_STUCK = "if-stuck"
    """Only when the local rules found no safe cell (a bot or hint can open those first)."""


def solve(
    position: Position,
    counter: Counter,
    *,
    count: Counting | Literal["always", "if-stuck"] = Counting.ALWAYS,
    native: bool = False,
) -> Solved:
    """Local rules first, then exact counting, always or only when they found no safe cell.

    `count` is a `Counting`, or its value as a string. `native` runs the local rules
    compiled when the library is available (`mines.solver.native`): the same cells and
    constraints, but no reasons (the bot needs none).
    """
    values, cols = position.values, position.cols
    fast = compiled.deduce(position.rows, cols, values) if native else None
    if fast is not None:
        known, keys = fast
        reasons: dict[int, Reason] = {}
    else:
        found = deduce(values, cols, neighbours(position.rows, cols))
        known, reasons = found.known, found.reasons
        keys = frozenset((tuple(sorted(c.cells)), c.value) for c in found.constraints)
    local = frozenset(known)
    mines_left = position.mines - sum(known.values())
    if Counting(count) is Counting.IF_STUCK and not all(known.values()):
        return Solved(position, known, reasons, keys, local, mines_left, None)
    frontier = {cell for cells, _ in keys for cell in cells}
    unknown = values.count(UNKNOWN) - len(known)
    counts = counter.count(keys, unknown - len(frontier), mines_left)
    if counts.off_cells and counts.off_weight in (0, counts.total):
        for cell, value in enumerate(values):
            if value == UNKNOWN and cell not in known and cell not in frontier:
                known[cell] = counts.off_weight > 0
                reasons[cell] = COUNTING
    for cell, weight in counts.cell_weight.items():
        if weight in (0, counts.total):
            known[cell] = weight > 0
            reasons[cell] = COUNTING
    return Solved(position, known, reasons, keys, local, mines_left, counts)


Coord = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every unrevealed cell of a position: certainly safe, certainly a mine, or how likely a mine.

    Flags are treated as unknown cells, because a player's flag may be wrong; they still
    tell the mine total when it is not given (mines left on the counter plus flags).
    """

    rows: int
    cols: int
    mines: int
    """The total number of mines among the unrevealed cells that the analysis assumed."""
    safe: frozenset[Coord]
    certain_mines: frozenset[Coord]
    probabilities: Mapping[Coord, Fraction]
    """The exact chance of a mine for every unrevealed cell (0 and 1 for the certain ones)."""
    reasons: Mapping[Coord, str]
    """For every certain cell, the rule that decided it, in words."""
    arrangements: int
    """How many arrangements of the mines fit everything visible."""

    def probability(self, row: int, col: int) -> Fraction:
        try:
            return self.probabilities[(row, col)]
        except KeyError:
            raise InvalidBoardError(f"({row}, {col}) is revealed or off the board") from None


def analyze(view: BoardView, *, mines: int | None = None) -> Analysis:
    """Analyse a whole-board view; `mines` overrides the total read from the view."""
    position = Position.from_view(view, mines)
    solved = solve(position, Counter())
    return analysis_of(solved)


def analysis_of(solved: Solved) -> Analysis:
    position, counts = solved.position, solved.counts
    assert counts is not None
    cols = position.cols
    probabilities: dict[Coord, Fraction] = {}
    for cell, value in enumerate(position.values):
        if value == UNKNOWN:
            mine = solved.known.get(cell)
            if mine is None:
                p = Fraction(solved.mine_weight(cell), counts.total)
            else:
                p = Fraction(int(mine))
            probabilities[divmod(cell, cols)] = p
    reasons = {
        divmod(cell, cols): describe(reason, cell, solved.known[cell], position)
        for cell, reason in solved.reasons.items()
    }
    known = solved.known
    return Analysis(
        position.rows,
        cols,
        position.mines,
        frozenset(divmod(c, cols) for c, mine in known.items() if not mine),
        frozenset(divmod(c, cols) for c, mine in known.items() if mine),
        probabilities,
        reasons,
        counts.total,
    )


def mines_phrase(count: int) -> str:
    """ "the 1 mine", "the 10 mines": for sentences about the mine total."""
    return f"the {count} mine" + ("" if count == 1 else "s")


def describe(reason: Reason, cell: int, mine: bool, position: Position) -> str:
    """One sentence naming the rule that decided a cell."""
    cols, values = position.cols, position.values
    where = divmod(cell, cols)
    verdict = "a mine" if mine else "safe"

    def number(source: int) -> str:
        return f"the {values[source]} at {divmod(source, cols)}"

    if reason.rule is DeductionRule.SINGLE:
        (source,) = reason.sources
        if mine:
            return (
                f"{number(source)} needs a mine in every undecided cell around it, "
                f"so {where} is a mine"
            )
        return f"{number(source)} already has all its mines around it, so {where} is safe"
    if reason.rule is DeductionRule.PAIR:
        a, b = reason.sources
        return (
            f"{number(a)} and {number(b)} share cells: {number(a)} needs as many more mines "
            f"as it has cells of its own, so {where} is {verdict}"
        )
    return (
        f"every arrangement of {mines_phrase(position.mines)} that fits all the numbers "
        f"makes {where} {verdict}"
    )
