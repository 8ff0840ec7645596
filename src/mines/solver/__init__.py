"""The solver: exact analysis of a view, hints, a bot, game reviews, and no-guess boards.

Importing it registers the `noguess` placement rule, so game IDs such as
`16x30n99:noguess#5` work wherever a placer is chosen by rule name.
"""

from mines.placement import PlacementRule, register_rule
from mines.solver.analysis import Analysis, analyze
from mines.solver.bot import Bot
from mines.solver.game_review import MoveReview, Review, Verdict, review
from mines.solver.hint import Hint, Search, find_undecided, hint
from mines.solver.noguess import NoGuessPlacer

register_rule(PlacementRule.NOGUESS, NoGuessPlacer)

__all__ = [
    "Analysis",
    "Bot",
    "Hint",
    "MoveReview",
    "NoGuessPlacer",
    "Review",
    "Search",
    "Verdict",
    "analyze",
    "find_undecided",
    "hint",
    "review",
]
