"""Local deductions from the numbers: the single-number rule and the overlapping-pair rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from mines.errors import InvalidBoardError
from mines.solver.topology import Neighbours

UNKNOWN = -1
"""A cell whose content the player does not know: hidden or flagged (flags may be wrong)."""


class DeductionRule(StrEnum):
    """The rule that made a cell certain, simplest first."""

    SINGLE = "single"
    """One number: all its mines are found, or it needs a mine in every undecided cell."""
    PAIR = "pair"
    """Two overlapping numbers: the difference forces the cells only one of them sees."""
    COUNT = "count"
    """Every arrangement of the mines that fits all the numbers agrees."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cell is certain: the rule that decided it and the number cells it used."""

    rule: DeductionRule
    sources: tuple[int, ...]


COUNTING = Reason(DeductionRule.COUNT, ())

Settle = Callable[[int, bool, Reason], None]


class Constraint:
    """A revealed number and the unknown cells around it that still hold `value` mines."""

    __slots__ = ("cells", "source", "value")

    def __init__(self, source: int, cells: set[int], value: int):
        self.source = source
        self.cells = cells
        self.value = value


def constraints_of(values: Sequence[int], cols: int, nbrs: Neighbours) -> list[Constraint]:
    """One constraint per revealed number that touches an unknown cell."""
    found = []
    for cell, value in enumerate(values):
        if value > UNKNOWN:
            around = {n for n in nbrs[cell] if values[n] == UNKNOWN}
            if around:
                found.append(Constraint(cell, around, value))
            elif value:
                raise InvalidBoardError(_impossible(cell, value, 0, cols))
    return found


def _impossible(cell: int, value: int, room: int, cols: int) -> str:
    where = f"no arrangement of mines fits the numbers: the number at {divmod(cell, cols)}"
    if value < 0:
        return f"{where} would have more mines around it than it shows"
    return f"{where} needs {value} more mine(s) but can see {room} undecided cell(s)"


@dataclass(slots=True)
class Deductions:
    """What the local rules decided, and the constraints that remain undecided."""

    known: dict[int, bool]
    """Cell -> True when certainly a mine, False when certainly safe."""
    reasons: dict[int, Reason]
    constraints: list[Constraint]
    """The constraints reduced by the known cells, each with at least one unknown cell."""


def deduce(values: Sequence[int], cols: int, nbrs: Neighbours, *, pairs: bool = True) -> Deductions:
    """Apply the single rule to a fixpoint, then the pair rule, until neither finds anything.

    Raises `InvalidBoardError` when the numbers contradict each other.
    """
    return deduce_from(constraints_of(values, cols, nbrs), cols, pairs=pairs)


def deduce_from(constraints: list[Constraint], cols: int, *, pairs: bool = True) -> Deductions:
    """`deduce` on constraints already built (the no-guess generator builds its own)."""
    by_cell: dict[int, list[Constraint]] = {}
    for constraint in constraints:
        for cell in constraint.cells:
            by_cell.setdefault(cell, []).append(constraint)
    known: dict[int, bool] = {}
    reasons: dict[int, Reason] = {}
    work = list(constraints)

    def settle(cell: int, mine: bool, reason: Reason) -> None:
        known[cell] = mine
        reasons[cell] = reason
        for constraint in by_cell[cell]:
            constraint.cells.discard(cell)
            if mine:
                constraint.value -= 1
            work.append(constraint)

    while True:
        while work:
            constraint = work.pop()
            room, value = len(constraint.cells), constraint.value
            if value < 0 or value > room:
                raise InvalidBoardError(_impossible(constraint.source, value, room, cols))
            if room and (value == 0 or value == room):
                reason = Reason(DeductionRule.SINGLE, (constraint.source,))
                for cell in list(constraint.cells):
                    settle(cell, value > 0, reason)
        if not (pairs and _pair_rule(constraints, by_cell, settle)):
            break
    live = [c for c in constraints if c.cells]
    return Deductions(known, reasons, live)


def _pair_rule(
    constraints: list[Constraint],
    by_cell: dict[int, list[Constraint]],
    settle: Settle,
) -> bool:
    """Find two overlapping numbers whose difference forces the cells only one of them sees.

    If A needs as many more mines than B as A has cells outside B, those cells are all
    mines and B's cells outside A are all safe. Settles the first such pair found.
    """
    for a in constraints:
        if not a.cells:
            continue
        others = {id(b): b for cell in a.cells for b in by_cell[cell] if b is not a}
        for b in others.values():
            only_a = a.cells - b.cells
            only_b = b.cells - a.cells
            if a.value - b.value == len(only_a) and (only_a or only_b):
                reason = Reason(DeductionRule.PAIR, (a.source, b.source))
                for cell in only_a:
                    settle(cell, True, reason)
                for cell in only_b:
                    settle(cell, False, reason)
                return True
    return False
