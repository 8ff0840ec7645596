"""What ranks as a best time: one predicate (`unranked_reason`) for the server's leaderboards
and profiles and the terminal's local statistics, which call it with the choices they make."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from mines.placement import PlacementRule
from mines.presets import preset_of
from mines.scoring import efficiency, three_bv_per_second

RANKED_RULES = (PlacementRule.OPENING, PlacementRule.NOGUESS)
"""Classic games (first click opens an area) and no-guess games rank; `safe`/`any` do not."""

HUMAN_PACE = {"beginner": 50.0, "intermediate": 25.0, "expert": 20.0}
"""The fastest 3BV/s a win may have and rank, per preset: about twice the fastest human play
on record (docs/server.md, "Ranked means signed in and human", gives the sources). A win
past it is stored and replayable, but never ranks (`"unranked": "too_fast"`)."""


SKILL_MIN_3BV = {"beginner": 10, "intermediate": 30, "expert": 100}
"""The least 3BV a win needs, per preset, to rank on a skill board (3BV/s, efficiency): the
world ranking's minimums, so that a trivial board (a Beginner cleared by two clicks) does not
top a board of skill. Best times have no minimum."""

Period = Literal["day", "week", "month", "year", "all"]
PERIODS: tuple[Period, ...] = ("day", "week", "month", "year", "all")
"""The boards by period, in UTC (weeks are ISO weeks, from Monday)."""
Measure = Literal["time", "three_bv_per_second", "efficiency"]
MEASURES: tuple[Measure, ...] = ("time", "three_bv_per_second", "efficiency")
"""What a board ranks by: the time (lower first), or the skill measures of `mines.scoring`
(3BV/s and efficiency in percent, higher first)."""


def period_key(period: Period, when: float) -> str:
    """The board of `period` a win at wall time `when` counts on: `2026-12-07` (day),
    `2026-W50` (ISO week), `2026-12` (month), `2026` (year) or `all`; each names its period
    alone, so one column of keys holds every period."""
    if period == "all":
        return "all"
    moment = datetime.fromtimestamp(when, UTC)
    if period == "day":
        return moment.date().isoformat()
    if period == "week":
        year, week, _ = moment.isocalendar()
        return f"{year}-W{week:02d}"
    if period == "month":
        return f"{moment.year}-{moment.month:02d}"
    return str(moment.year)


def rank_value(
    measure: Measure, preset: str, time: float, three_bv: int, clicks: int
) -> float | None:
    """A ranked win's value on a board of `measure`, lower ranking first (the skill measures
    negated), or None when the win does not go on that board: under the preset's
    `SKILL_MIN_3BV` on a skill board, or with no pace or efficiency to count."""
    if measure == "time":
        return time
    if three_bv < SKILL_MIN_3BV.get(preset, 0):
        return None
    value = (
        three_bv_per_second(three_bv, time)
        if measure == "three_bv_per_second"
        else efficiency(three_bv, clicks)
    )
    return None if value is None else -value


def ranked_preset(rows: int, cols: int, mines: int, rule: str, seed_chosen: bool) -> str | None:
    """The preset a game ranks under, or None when it does not rank.

    A seed chosen by the player does not rank: the board could be known in advance.
    """
    if seed_chosen or rule not in RANKED_RULES:
        return None
    return preset_of(rows, cols, mines)


def too_fast(preset: str | None, three_bv: int, elapsed: float) -> bool:
    """Whether a win came faster than people play: in no time at all (a board won by its first
    click has elapsed 0), or on a preset over `HUMAN_PACE` (other boards have no such pace)."""
    if elapsed <= 0:
        return True
    pace = HUMAN_PACE.get(preset or "")
    return pace is not None and three_bv / elapsed > pace


def unranked_reason(
    board_preset: str | None,
    rule: str,
    ranked_preset: str | None,
    signed_in: bool,
    assisted: bool,
    status: str,
    pace: tuple[int, float],
    daily_first: bool | None = None,
) -> str | None:
    """Why a finished game gives no best time, or None when it ranks: "custom" (not a ranked
    board or rule), "seeded" (the player chose the seed), "anonymous" (nobody was signed in),
    "assisted" (hints or analysis), "lost", "too_fast" (`pace`, its 3BV and elapsed seconds,
    beyond `HUMAN_PACE`), "practice" (on a daily board, `daily_first` false: not the account's
    first finished game there; None off daily boards)."""
    if ranked_preset is None:
        return "custom" if board_preset is None or rule not in RANKED_RULES else "seeded"
    if not signed_in:
        return "anonymous"
    if assisted:
        return "assisted"
    if status != "WON":
        return "lost"
    if too_fast(ranked_preset, *pace):
        return "too_fast"
    if daily_first is False:
        return "practice"
    return None
