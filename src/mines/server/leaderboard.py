"""Leaderboard entries: best times per preset, no-guess apart; which games rank is
`mines.ranking`'s (its names stay importable from here)."""

from __future__ import annotations

import unicodedata
from typing import Any

from mines.ranking import HUMAN_PACE, RANKED_RULES, ranked_preset, too_fast, unranked_reason
from mines.server.storage import Result

__all__ = [
    "HUMAN_PACE",
    "RANKED_RULES",
    "entries",
    "normalize_player",
    "ranked_preset",
    "too_fast",
    "unranked_reason",
]

PLAYER_PATTERN = r"^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_ .'\-]{0,23}$"
"""Player names: 1 to 24 letters or digits of any script (with their combining marks), spaces,
dots, apostrophes, dashes or underscores, starting with a letter, digit or underscore. Written so
that Rust's regex (pydantic's) and ECMAScript's with flag u read it alike: the browser checks
names with this very pattern, from /api/meta."""

ANONYMOUS = "anonymous"

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
