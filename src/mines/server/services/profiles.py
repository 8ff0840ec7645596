"""A player's public profile: statistics and history counted from the account's stored games."""

from __future__ import annotations

from typing import Any

from mines.placement import PlacementRule
from mines.presets import PRESETS, preset_of
from mines.scoring import efficiency, three_bv_per_second
from mines.server.db.storage import AccountGame, AccountRow, ImportedBoard
from mines.server.services.leaderboard import unranked_reason

HISTORY = 20
"""Games listed in a profile's history, newest first."""


BEST_KEYS = ("best", "best_no_guess", "best_daily", "best_daily_no_guess")
"""The profile's best ranked times per preset, one key per board kind: all-time boards and
daily boards, each classic and no-guess."""


def profile(account: AccountRow, games: list[AccountGame], today: str) -> dict[str, Any]:
    """The profile of `account` from its finished games, oldest first: games, wins, win rate,
    streaks, best ranked times per preset and board kind (`BEST_KEYS`), 3BV/s and efficiency
    of its wins, and the latest games with their replays; games on a daily board of `today`
    or later are counted but not listed (their replays would show the day's board)."""
    wins = [game for game in games if game.status == "WON"]
    best: dict[str, dict[str, float]] = {key: {} for key in BEST_KEYS}
    for game in wins:
        if why(game) is None and game.preset is not None:
            kind = best[best_key(game)]
            kind[game.preset] = min(kind.get(game.preset, game.elapsed), game.elapsed)
    paces = [p for g in wins if (p := three_bv_per_second(g.three_bv, g.elapsed)) is not None]
    efficiencies = [e for g in wins if (e := efficiency(g.three_bv, g.clicks)) is not None]
    return {
        "name": account.name,
        "created_at": account.created_at,
        "games": len(games),
        "wins": len(wins),
        "win_rate": round(len(wins) / len(games), 4) if games else None,
        "streak": streaks(games),
        **best,
        "three_bv_per_second": {
            "best": round(max(paces), 3) if paces else None,
            "average": round(sum(paces) / len(paces), 3) if paces else None,
        },
        "efficiency": round(sum(efficiencies) / len(efficiencies), 1) if efficiencies else None,
        "imported": None,
        "history": [
            entry(game)
            for game in reversed([g for g in games if g.daily is None or g.daily < today])
        ][:HISTORY],
    }


def imported_json(at: float, boards: list[ImportedBoard]) -> dict[str, Any]:
    """A browser's statistics as the profile shows them: apart, and marked unverified (the
    browser counted them itself; they never enter the figures above or a leaderboard)."""
    order = list(PRESETS)
    return {
        "imported_at": at,
        "verified": False,
        "boards": [
            {
                "preset": board.preset,
                "no_guess": board.no_guess,
                "games": board.games,
                "wins": board.wins,
                "best_streak": board.best_streak,
                "best_time": board.best_time,
                "best_three_bv_per_second": board.best_three_bv_per_second,
            }
            for board in sorted(boards, key=lambda b: (order.index(b.preset), b.no_guess))
        ],
    }


def best_key(game: AccountGame) -> str:
    """The profile's key for the best times of this game's board kind (`BEST_KEYS`)."""
    daily = "_daily" if game.daily is not None else ""
    no_guess = "_no_guess" if game.rule == PlacementRule.NOGUESS else ""
    return f"best{daily}{no_guess}"


def why(game: AccountGame) -> str | None:
    """Why the game did not rank, or None (the reason its summary gives)."""
    board = preset_of(game.rows, game.cols, game.mines)
    pace = (game.three_bv, game.elapsed)
    daily_first = None if game.daily is None else game.daily_first
    return unranked_reason(
        board, game.rule, game.preset, True, game.assisted, game.status, pace, daily_first
    )


def streaks(games: list[AccountGame]) -> dict[str, int]:
    """The wins in a row up to the latest game (`current`) and the longest run (`best`)."""
    current = best = 0
    for game in games:
        current = current + 1 if game.status == "WON" else 0
        best = max(best, current)
    return {"current": current, "best": best}


def entry(game: AccountGame) -> dict[str, Any]:
    return {
        "id": game.id,
        "finished_at": game.finished_at,
        "preset": preset_of(game.rows, game.cols, game.mines),
        "rows": game.rows,
        "cols": game.cols,
        "mines": game.mines,
        "no_guess": game.rule == PlacementRule.NOGUESS,
        "daily": game.daily,
        "status": game.status,
        "elapsed": round(game.elapsed, 3),
        "three_bv": game.three_bv,
        "ranked": why(game) is None,
        "replay": f"/#replay={game.id}",
    }
