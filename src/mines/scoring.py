"""The end-of-game figures (clicks, useful clicks, 3BV, 3BV/s, efficiency): one home, one unit.

Every front end reports them through here: the server's summary and review, the profiles, the
terminal's statistics and review. Efficiency is 3BV per click in percent, as speed players
count it (a perfect game is 100; a game won with flags or wasted clicks is under it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RATE_DECIMALS = 3
"""3BV/s as the API sends it: to the millisecond's precision of the time."""
EFFICIENCY_DECIMALS = 1
"""Efficiency as the API sends it, in percent."""


def three_bv_per_second(three_bv: int, elapsed: float) -> float | None:
    """The board's 3BV over the seconds played; None when no time passed (a one-click game)."""
    return three_bv / elapsed if elapsed > 0 else None


def efficiency(three_bv: int, clicks: int) -> float | None:
    """3BV per click, in percent; None for a game of no clicks."""
    return 100 * three_bv / clicks if clicks else None


@dataclass(frozen=True, slots=True)
class Score:
    """One finished game's figures. Clicks are every move asked for while the game was on:
    the useful ones changed the board, the wasted ones did not (a reveal of an open cell)."""

    three_bv: int
    """The board's 3BV: the fewest left clicks that clear it."""
    elapsed: float
    won: bool
    useful_clicks: int
    wasted_clicks: int = 0

    @property
    def clicks(self) -> int:
        return self.useful_clicks + self.wasted_clicks

    @property
    def three_bv_per_second(self) -> float | None:
        """For a win only: a game cut short says nothing of its pace."""
        return three_bv_per_second(self.three_bv, self.elapsed) if self.won else None

    @property
    def efficiency(self) -> float | None:
        """For a win only, in percent."""
        return efficiency(self.three_bv, self.clicks) if self.won else None

    def to_dict(self) -> dict[str, Any]:
        """The figures as the API sends them, rounded (`RATE_DECIMALS`, `EFFICIENCY_DECIMALS`)."""
        rate, percent = self.three_bv_per_second, self.efficiency
        return {
            "three_bv": self.three_bv,
            "clicks": self.clicks,
            "useful_clicks": self.useful_clicks,
            "wasted_clicks": self.wasted_clicks,
            "three_bv_per_second": None if rate is None else round(rate, RATE_DECIMALS),
            "efficiency": None if percent is None else round(percent, EFFICIENCY_DECIMALS),
        }


def no_flags(won: bool, flags_used: bool) -> bool:
    """Whether a game is a no-flag (NF) win: won without a single flag. A flag placed and
    taken off again counts as a flag, as minesweeper.online counts any use of one
    (`mines.game.Game.flags_used`)."""
    return won and not flags_used
