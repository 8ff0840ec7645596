"""The solver: exact analysis of a view, hints, a bot, game reviews, and no-guess boards.

Its parts load when first used (`mines.solver.hint`, say, imports only what a hint needs):
a command that parses its options, or the terminal game showing its first screen, does not
wait for them. The `noguess` placement rule is found by the core through its entry point
(`mines.rules`), and registered here as well as soon as any of the solver is used, so game
IDs such as `16x30n99:noguess#5` work wherever a placer is chosen by rule name.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mines.solver.analysis import Analysis, analyze
    from mines.solver.bot import Bot
    from mines.solver.game_review import MoveReview, Review, Verdict, review
    from mines.solver.hint import Hint, Search, find_undecided, hint
    from mines.solver.noguess import NoGuessPlacer

_HOMES = {
    "Analysis": "analysis",
    "analyze": "analysis",
    "Bot": "bot",
    "MoveReview": "game_review",
    "Review": "game_review",
    "Verdict": "game_review",
    "review": "game_review",
    "Hint": "hint",
    "Search": "hint",
    "find_undecided": "hint",
    "hint": "hint",
    "NoGuessPlacer": "noguess",
}
"""Where each name the package exports lives."""


def __getattr__(name: str) -> Any:
    """A name of the package, its module imported on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _register_noguess()
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # the next use is a plain look-up
    return value


class _Package(types.ModuleType):
    """The package, keeping `mines.solver.hint` the function (as the eager package had it)
    when its module `mines.solver.hint` loads: Python then sets the package's attribute of
    that name to the module, which would hide the function from `from mines.solver import
    hint`."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _HOMES.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def _register_noguess() -> None:
    from mines.placement import PlacementRule, register_rule
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
