"""Leaderboard entries: best times per preset, no-guess apart; which games rank is
`mines.ranking`'s (its names stay importable from here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from mines.ranking import HUMAN_PACE, RANKED_RULES, ranked_preset, too_fast, unranked_reason
from mines.scoring import Score

__all__ = [
    "HUMAN_PACE",
    "RANKED_RULES",
    "entries",
    "ranked_preset",
    "too_fast",
    "unranked_reason",
]


class Win(Protocol):
    """A win on a board: a daily board's `Result` or a period board's `Best`."""

    @property
    def game_id(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def time(self) -> float: ...
    @property
    def three_bv(self) -> int: ...
    @property
    def clicks(self) -> int: ...
    @property
    def finished_at(self) -> float: ...


def entries(wins: Sequence[Win]) -> list[dict[str, Any]]:
    """A board's entries in order, with the win's figures in `mines.scoring`'s one unit."""
    found = []
    for rank, win in enumerate(wins, start=1):
        score = Score(win.three_bv, win.time, True, win.clicks).to_dict()
        found.append(
            {
                "rank": rank,
                "player": win.player,
                "time": round(win.time, 3),
                "three_bv": win.three_bv,
                "three_bv_per_second": score["three_bv_per_second"],
                "efficiency": score["efficiency"],
                "game_id": win.game_id,
                "finished_at": win.finished_at,
            }
        )
    return found
