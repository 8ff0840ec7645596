"""A player's public profile: statistics and history counted from the account's stored games."""

from __future__ import annotations

import base64
import binascii
import json
import math
from typing import Any

from mines.placement import PlacementRule
from mines.presets import PRESETS, preset, preset_of
from mines.scoring import Score, efficiency, three_bv_per_second
from mines.server.common.errors import InvalidRequestError
from mines.server.db.storage import AccountGame, AccountRow, HistoryPage, ImportedBoard
from mines.server.services.leaderboard import unranked_reason

HISTORY = 20
"""Games listed in a profile's history, newest first."""


BEST_KEYS = (
    "best",
    "best_no_guess",
    "best_daily",
    "best_daily_no_guess",
    "best_no_flags",
    "best_no_flags_no_guess",
)
"""The profile's best ranked times per preset, one key per board kind: all-time boards and
daily boards, each classic and no-guess; and the no-flag wins' (daily boards apart)."""
PAGE_DEFAULT, PAGE_MAX = 20, 100
"""Games in a page of a player's history (`GET /api/players/{name}/games`)."""
HISTORY_BOARDS = (*PRESETS, "custom")
HISTORY_RESULTS = ("won", "lost", "no_flags")


def profile(account: AccountRow, games: list[AccountGame], today: str) -> dict[str, Any]:
    """The profile of `account` from its finished games, oldest first: games, wins, win rate,
    streaks, best ranked times per preset and board kind (`BEST_KEYS`), 3BV/s and efficiency
    of its wins, and the latest games with their replays; games on a daily board of `today`
    or later are counted but not listed (their replays would show the day's board)."""
    wins = [game for game in games if game.status == "WON"]
    best: dict[str, dict[str, float]] = {key: {} for key in BEST_KEYS}
    for game in wins:
        if why(game) is None and game.preset is not None:
            kinds = [best_key(game)]
            if game.no_flags and game.daily is None:
                kinds.append("best_no_flags" + kinds[0].removeprefix("best"))
            for kind in (best[key] for key in kinds):
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
    """A finished game as the profile and the history list it: its board, its result, its
    figures (`mines.scoring.Score`) and the addresses of its replay and review."""
    score = Score(game.three_bv, game.elapsed, game.status == "WON", game.clicks).to_dict()
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
        "no_flags": game.no_flags,
        "elapsed": round(game.elapsed, 3),
        "three_bv": game.three_bv,
        "clicks": game.clicks,
        "three_bv_per_second": score["three_bv_per_second"],
        "efficiency": score["efficiency"],
        "ranked": why(game) is None,
        "replay": f"/#replay={game.id}",
        "review": f"/review/{game.id}",
    }


def history_page(
    cursor: str | None, board: str | None, result: str | None, limit: int, today: str
) -> HistoryPage:
    """The page a history request asks for, checked: an opaque `cursor` (`next` of the page
    before), a `board` of `HISTORY_BOARDS`, a `result` of `HISTORY_RESULTS`."""
    if board is not None and board not in HISTORY_BOARDS:
        raise InvalidRequestError(
            f"query.board must be one of {', '.join(HISTORY_BOARDS)}, got {board[:24]!r}"
        )
    if result is not None and result not in HISTORY_RESULTS:
        raise InvalidRequestError(
            f"query.result must be one of {', '.join(HISTORY_RESULTS)}, got {result[:24]!r}"
        )
    size = None
    if board is not None and board != "custom":
        size = tuple(preset(board)[1:])
    return HistoryPage(
        limit=limit,
        hidden_day=today,
        before=None if cursor is None else cursor_of(cursor),
        size=size,  # type: ignore[arg-type]  # a preset's (rows, cols, mines)
        custom=board == "custom",
        result=result,
    )


def next_cursor(games: list[AccountGame], limit: int) -> str | None:
    """The cursor of the page after `games` (a full page), or None at the oldest game. It
    names the last game listed, (finished_at, id): the next page starts past it however many
    games were finished since, so no game is listed twice nor missed."""
    if len(games) < limit:
        return None
    last = games[-1]
    text = json.dumps([last.finished_at, last.id], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def cursor_of(text: str) -> tuple[float, str]:
    """The (finished_at, id) a cursor of `next_cursor` names; a clear refusal otherwise."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        finished_at, game_id = json.loads(raw)
        if (
            isinstance(finished_at, bool)
            or not isinstance(finished_at, int | float)
            or not math.isfinite(finished_at)
            or not isinstance(game_id, str)
        ):
            raise ValueError(text)
        return float(finished_at), game_id
    except (ValueError, TypeError, binascii.Error):
        raise InvalidRequestError(
            "query.cursor is not a cursor this server gave: pass the `next` of the page "
            "before, as it was, or leave it out for the newest games"
        ) from None
