"""A player's public profile: statistics and history counted from the account's stored games."""

from __future__ import annotations

from typing import Any

from mines.placement import PlacementRule
from mines.presets import preset_of
from mines.server.leaderboard import unranked_reason
from mines.server.storage import AccountRow, PlayedGame

HISTORY = 20
"""Games listed in a profile's history, newest first."""


def profile(account: AccountRow, games: list[PlayedGame], today: str) -> dict[str, Any]:
    """The profile of `account` from its finished games, oldest first: games, wins, win rate,
    streaks, best ranked times per preset (classic and no-guess apart), 3BV/s and efficiency
    of its wins, and the latest games with their replays; games on a daily board of `today`
    or later are counted but not listed (their replays would show the day's board)."""
    wins = [game for game in games if game.status == "WON"]
    best: dict[str, dict[str, float]] = {"classic": {}, "no_guess": {}}
    for game in wins:
        if why(game) is None and game.preset is not None:
            kind = best["no_guess" if game.rule == PlacementRule.NOGUESS else "classic"]
            kind[game.preset] = min(kind.get(game.preset, game.elapsed), game.elapsed)
    paces = [game.three_bv / game.elapsed for game in wins if game.elapsed > 0]
    efficiencies = [100 * game.three_bv / game.clicks for game in wins if game.clicks]
    return {
        "name": account.name,
        "created_at": account.created_at,
        "games": len(games),
        "wins": len(wins),
        "win_rate": round(len(wins) / len(games), 4) if games else None,
        "streak": streaks(games),
        "best": best["classic"],
        "best_no_guess": best["no_guess"],
        "three_bv_per_second": {
            "best": round(max(paces), 3) if paces else None,
            "average": round(sum(paces) / len(paces), 3) if paces else None,
        },
        "efficiency": round(sum(efficiencies) / len(efficiencies), 1) if efficiencies else None,
        "history": [
            entry(game)
            for game in reversed([g for g in games if g.daily is None or g.daily < today])
        ][:HISTORY],
    }


def why(game: PlayedGame) -> str | None:
    """Why the game did not rank, or None (the reason its summary gives)."""
    board = preset_of(game.rows, game.cols, game.mines)
    pace = (game.three_bv, game.elapsed)
    return unranked_reason(board, game.rule, game.preset, True, game.assisted, game.status, pace)


def streaks(games: list[PlayedGame]) -> dict[str, int]:
    """The wins in a row up to the latest game (`current`) and the longest run (`best`)."""
    current = best = 0
    for game in games:
        current = current + 1 if game.status == "WON" else 0
        best = max(best, current)
    return {"current": current, "best": best}


def entry(game: PlayedGame) -> dict[str, Any]:
    return {
        "id": game.id,
        "finished_at": game.finished_at,
        "preset": preset_of(game.rows, game.cols, game.mines),
        "rows": game.rows,
        "cols": game.cols,
        "mines": game.mines,
        "no_guess": game.rule == PlacementRule.NOGUESS,
        "status": game.status,
        "elapsed": round(game.elapsed, 3),
        "three_bv": game.three_bv,
        "ranked": why(game) is None,
        "replay": f"/#replay={game.id}",
    }
