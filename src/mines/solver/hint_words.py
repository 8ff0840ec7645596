"""How a hint is told: sentences from the facts `hint` found, and the facts it tells them from."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mines.solver.analysis import mines_phrase
from mines.solver.rules import DeductionRule

Coord = tuple[int, int]

STEPS_SPELLED_OUT = 3
"""Chains of deductions up to this long are told step by step; longer ones by their numbers."""
NUMBERS_LISTED = 8
"""A long chain names this many of its numbers, the nearest to the hinted cell."""


@dataclass(frozen=True, slots=True)
class Number:
    """A revealed number a deduction stands on."""

    cell: Coord
    value: int

    def __str__(self) -> str:
        return f"the {self.value} at {self.cell}"


@dataclass(frozen=True, slots=True)
class Step:
    """Cells settled together by one use of a rule, and what the rule stood on."""

    rule: DeductionRule
    cells: tuple[Coord, ...]
    mine: bool
    """Whether the cells are mines (else they are safe)."""
    numbers: tuple[Number, ...]
    """The rule's numbers: one for `SINGLE`, two for `PAIR` (the one needing more first)."""
    known_mines: tuple[Coord, ...] = ()
    """Mines settled earlier around the numbers (`SINGLE`: "already has its mines at ...")."""
    needs: tuple[int, ...] = ()
    """For `PAIR`: the mines each number still needs, those settled earlier left out."""
    mines: int = 0
    """For `COUNT`: the board's mine total."""


def explain(steps: list[Step]) -> str:
    """A deduction, its steps in order and the hinted cell alone in the last: each step in a
    sentence, or past `STEPS_SPELLED_OUT` steps the numbers it rests on, nearest first."""
    last = steps[-1]
    if len(steps) <= STEPS_SPELLED_OUT or last.rule is DeductionRule.COUNT:
        return " ".join(sentence(step) for step in steps)
    (target,) = last.cells
    numbers = {number for step in steps for number in step.numbers}
    nearest = sorted(numbers, key=lambda n: (_distance(n.cell, target), n.cell))
    listed = [str(n) for n in nearest[:NUMBERS_LISTED]]
    if len(nearest) > NUMBERS_LISTED:
        listed.append(f"{len(nearest) - NUMBERS_LISTED} more further off")
    return (
        f"{target} is {verdict(last.mine)}: this follows from several numbers together, "
        f"{listing(listed)}, in {len(steps)} steps."
    )


def verdict(mine: bool) -> str:
    return "a mine" if mine else "safe"


def sentence(step: Step) -> str:
    """One step: which numbers settle these cells (all by one use of a rule), and how."""
    where = listing([str(cell) for cell in step.cells])
    plural = "are mines" if step.mine else "are safe"
    settled = plural if len(step.cells) > 1 else f"is {verdict(step.mine)}"
    if step.rule is DeductionRule.SINGLE:
        (number,) = step.numbers
        if step.mine:
            return capital(
                f"{number} has no other room for its {its_mines(number.value)}, "
                f"so {where} {settled}."
            )
        if not step.known_mines:
            return capital(f"{number} has no mine around it, so {where} {settled}.")
        mines = [str(cell) for cell in step.known_mines]
        return capital(
            f"{number} already has its {noun(len(mines), 'mine')} at {listing(mines)}, "
            f"so {where} {settled}."
        )
    if step.rule is DeductionRule.PAIR:
        return pair_sentence(step, where, settled)
    return capital(
        f"every arrangement of {mines_phrase(step.mines)} that fits all the numbers says "
        f"{where} {settled}."
    )


def pair_sentence(step: Step, where: str, settled: str) -> str:
    """Two overlapping numbers: the first needs k more mines than the second and has k cells
    of its own, so those are mines and the second has none elsewhere."""
    first, second = step.numbers
    need_first, need_second = step.needs
    more = need_first - need_second
    own = f"{counted(more, 'cell')} that {second} does not touch"
    if step.mine:
        return capital(
            f"{first} needs {counted(more, 'mine')} more than {second}, and has just {own}, "
            f"so {where} {settled}."
        )
    if more == 0:
        return capital(
            f"every undecided cell around {first} also touches {second}, and both need "
            f"{counted(need_first, 'more mine')}, so {second} has no mine elsewhere: "
            f"{where} {settled}."
        )
    those = "that cell is a mine" if more == 1 else "those are mines"
    return capital(
        f"{first} needs {counted(more, 'mine')} more than {second}, and has just {own}, "
        f"so {those} and {second} has none elsewhere: {where} {settled}."
    )


# --- before the first click, and guesses -----------------------------------------------------


def first_click_reason(rule: str, cell: Coord, *, opening: bool) -> str:
    """Every cell is safe before the first click: the rule promises an opening or the cell."""
    if opening:
        promise = f"first click and its neighbours free of mines, so {cell} opens an area"
    else:
        promise = f"first click free of a mine, so {cell} is safe, though it may show a number"
    return (
        f"Before the first click every cell is safe: this game's rule ({rule}) keeps the {promise}."
    )


def no_promise_reason(rule: str, corner: Coord, chance: Fraction) -> str:
    return (
        f"This game's rule ({rule}) promises nothing for the first click: every cell has the "
        f"same chance of a mine, {exact_chance(chance)}. The corner {corner} is the best "
        "start, because a corner has the fewest neighbours and so most often opens an area."
    )


def guess_reason(cell: Coord, chance: Fraction, mines: int) -> str:
    return (
        f"No cell is certainly safe. {cell} has the lowest chance of a mine, "
        f"{exact_chance(chance)}, counted over every arrangement of {mines_phrase(mines)} "
        "that fits the numbers."
    )


def window_guess_reason(cell: Coord, chance: Fraction, density: Fraction) -> str:
    return (
        f"No cell near here is certainly safe. {cell} has the lowest chance of a mine "
        f"nearby, about {percent(chance)}, estimated from the numbers around it with the "
        f"rest of the board at the average density of its closed cells ({percent(density)})."
    )


def blind_guess_reason(cell: Coord, density: Fraction, *, lower: bool) -> str:
    than = ", lower than any cell beside the numbers near it" if lower else ""
    return (
        f"No cell near here is certainly safe. {cell}, away from the numbers, has about the "
        f"average chance of a mine of the closed cells, {percent(density)}{than}."
    )


def search_reason(cell: Coord | None, radius: int, *, beside_numbers: bool, whole: bool) -> str:
    """What a search for the nearest cell still to decide found, in a sentence."""
    if cell is None:
        where = "on the whole board" if whole else f"within {radius:,} cells"
        return f"no closed cell is still to decide {where}."
    if beside_numbers:
        return "the nearest closed cell beside the numbers that is not plainly a mine."
    return "the nearest closed cell still to decide; no number is beside it."


# --- words -------------------------------------------------------------------------------------


def exact_chance(chance: Fraction) -> str:
    return f"{chance} (about {float(chance):.1%})"


def percent(share: Fraction) -> str:
    return f"{float(share) * 100:.3g}%"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def counted(n: int, word: str) -> str:
    """ "1 mine", "2 mines"."""
    return f"{n} {noun(n, word)}"


def noun(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"


def its_mines(n: int) -> str:
    return "mine" if n == 1 else f"{n} mines"


def listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _distance(a: Coord, b: Coord) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
