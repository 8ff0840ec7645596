"""Leaderboard entries: best times per preset, no-guess apart; which games rank is
`mines.ranking`'s (its names stay importable from here)."""

from __future__ import annotations

from typing import Any

from mines.ranking import HUMAN_PACE, RANKED_RULES, ranked_preset, too_fast, unranked_reason
from mines.server.db.storage import Result

__all__ = [
    "HUMAN_PACE",
    "RANKED_RULES",
    "entries",
    "ranked_preset",
    "too_fast",
    "unranked_reason",
]


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
