"""`hint`: the next move a player could make, with the rule that justifies it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mines.game import Game
from mines.solver.analysis import Counting, Position, Solved, describe, mines_phrase, solve
from mines.solver.bot import Bot
from mines.solver.counting import Counter
from mines.solver.rules import DeductionRule
from mines.view import BoardView

_RULE_ORDER = {rule: order for order, rule in enumerate(DeductionRule)}
"""Simpler rules first: a hint is easiest to follow when it needs only one number."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A cell to open next: certainly safe, or else the least risky guess."""

    row: int
    col: int
    safe: bool
    """True when the cell is certainly safe."""
    mine_probability: Fraction
    reason: str
    """A sentence naming the rule that chose the cell."""


def hint(view_or_game: BoardView | Game) -> Hint:
    """The hint for a whole-board view, or for a game's current view."""
    view = view_or_game.view() if isinstance(view_or_game, Game) else view_or_game
    position = Position.from_view(view)
    solved = solve(position, Counter(), count=Counting.IF_STUCK)
    if not solved.safe_cells():
        solved = solve(position, Counter())
    safe = solved.safe_cells()
    if safe:
        cell = min(safe, key=lambda c: (_RULE_ORDER[solved.reasons[c].rule], c))
        row, col = divmod(cell, position.cols)
        reason = describe(solved.reasons[cell], cell, False, position)
        return Hint(row, col, True, Fraction(0), reason)
    return _guess_hint(solved)


def _guess_hint(solved: Solved) -> Hint:
    counts = solved.counts
    assert counts is not None
    # Among the least risky cells only, the bot's lookahead picks the one most likely to help
    # (the endgame search and the 50/50 credit are off: they may rightly prefer a riskier
    # cell, but a hint names the least risky one).
    guess = Bot(0, tolerance=0.0, endgame_cells=0, fifty_fifty_credit=0.0).guess(solved)
    row, col = divmod(guess.cell, solved.position.cols)
    chance = Fraction(solved.mine_weight(guess.cell), counts.total)
    reason = (
        f"no cell is certainly safe; ({row}, {col}) has the lowest chance of a mine, "
        f"{chance} (about {float(chance):.1%}), counted over every arrangement of "
        f"{mines_phrase(solved.position.mines)} that fits the numbers"
    )
    return Hint(row, col, False, chance, reason)
