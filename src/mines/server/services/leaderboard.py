"""Which games rank, and their leaderboard entries: best times per preset, no-guess apart."""

from __future__ import annotations

import unicodedata
from typing import Any

from mines.placement import PlacementRule
from mines.presets import preset_of
from mines.server.db.storage import ANONYMOUS as ANONYMOUS
from mines.server.db.storage import Result

RANKED_RULES = (PlacementRule.OPENING, PlacementRule.NOGUESS)
"""Classic games (first click opens an area) and no-guess games rank; `safe`/`any` do not."""

PLAYER_PATTERN = r"^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_ .'\-]{0,23}$"
"""Player names: 1 to 24 letters or digits of any script (with their combining marks), spaces,
dots, apostrophes, dashes or underscores, starting with a letter, digit or underscore. Written so
that Rust's regex (pydantic's) and ECMAScript's with flag u read it alike: the browser checks
names with this very pattern, from /api/meta."""


HUMAN_PACE = {"beginner": 50.0, "intermediate": 25.0, "expert": 20.0}
"""The fastest 3BV/s a win may have and rank, per preset: about twice the fastest human play
on record (docs/server.md, "Ranked means signed in and human", gives the sources). A win
past it is stored and replayable, but never ranks (`"unranked": "too_fast"`)."""
COMBINING_RUN = 2
"""More combining marks than this on one letter (decomposed) is "stacked" (Zalgo text) and refused;
two allow Vietnamese letters such as ệ."""


def normalize_player(name: str) -> str:
    """A player name as it is stored and ranked: NFKC, surrounding spaces stripped.

    Raises ValueError, saying which character is wrong, for control and zero-width
    (format) characters and stacked combining marks: they make two names look alike or
    draw over their neighbours.
    """
    text = unicodedata.normalize("NFKC", name).strip()
    run = 0
    # Marks are counted decomposed: NFKC folds one accent into its letter, not a stack of them.
    for index, char in enumerate(unicodedata.normalize("NFD", text)):
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            what = "zero-width or format" if category == "Cf" else "control or unassigned"
            raise ValueError(
                f"a player name may not hold {what} characters (U+{ord(char):04X} at {index})"
            )
        run = run + 1 if category in ("Mn", "Me") else 0
        if run > COMBINING_RUN:
            raise ValueError(
                f"a player name may not stack more than {COMBINING_RUN} combining marks on "
                f"one letter (at {index})"
            )
    return text


def ranked_preset(rows: int, cols: int, mines: int, rule: str, seed_chosen: bool) -> str | None:
    """The preset a game ranks under, or None when it does not rank.

    A seed chosen by the player does not rank: the board could be known in advance.
    """
    if seed_chosen or rule not in RANKED_RULES:
        return None
    return preset_of(rows, cols, mines)


def too_fast(preset: str, three_bv: int, elapsed: float) -> bool:
    """Whether a win on this preset came faster than people play: over `HUMAN_PACE`, or in no
    time at all (a board won by its first click has elapsed 0)."""
    return elapsed <= 0 or three_bv / elapsed > HUMAN_PACE[preset]


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
    """Why a finished game is not on the leaderboard, or None when it ranks: "custom" (not
    a ranked board or rule), "seeded" (the player chose the seed), "anonymous" (nobody was
    signed in), "assisted" (hints or analysis), "lost", "too_fast" (`pace`, its 3BV and
    elapsed seconds, beyond `HUMAN_PACE`), "practice" (on a daily board, `daily_first` false:
    not the account's first finished game there; None off daily boards)."""
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


def entries(results: list[Result]) -> list[dict[str, Any]]:
    return [
        {
            "rank": rank,
            "player": result.player,
            "time": round(result.time, 3),
            "game_id": result.game_id,
            "finished_at": result.finished_at,
        }
        for rank, result in enumerate(results, start=1)
    ]
