"""Which games rank, and their leaderboard entries: best times per preset, no-guess apart."""

from __future__ import annotations

from typing import Any

from mines.placement import PlacementRule
from mines.presets import preset_of
from mines.server.storage import Result

RANKED_RULES = (PlacementRule.OPENING, PlacementRule.NOGUESS)
"""Classic games (first click opens an area) and no-guess games rank; `safe`/`any` do not."""

PLAYER_PATTERN = r"^\w[\w .'\-]{0,23}$"
"""Player names: 1 to 24 letters, digits, spaces, dots, apostrophes, dashes or underscores."""

ANONYMOUS = "anonymous"


def ranked_preset(rows: int, cols: int, mines: int, rule: str, seed_chosen: bool) -> str | None:
    """The preset a game ranks under, or None when it does not rank.

    A seed chosen by the player does not rank: the board could be known in advance.
    """
    if seed_chosen or rule not in RANKED_RULES:
        return None
    return preset_of(rows, cols, mines)


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
