"""`/api/leaderboard` and `/api/daily`: best times per preset, classic and no-guess apart, all
time or on a day's daily board; and the daily boards."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from mines.server.api.deps import Games, error_responses, query_int
from mines.server.api.schemas import DailyOut, LeaderboardOut, PresetName
from mines.server.common.errors import InvalidRequestError
from mines.server.services.games import utc_day

router = APIRouter(prefix="/api", tags=["leaderboard"])


def day_of(text: str | None) -> str | None:
    """A `YYYY-MM-DD` query value, checked (None when not given)."""
    if text is None:
        return None
    try:
        if len(text) != len("YYYY-MM-DD"):
            raise ValueError(text)
        return date.fromisoformat(text).isoformat()
    except ValueError:
        shown = text if len(text) <= 12 else f"{text[:12]}…"
        raise InvalidRequestError(
            f"query.day must be a date as YYYY-MM-DD, got {shown!r}"
        ) from None


LIMIT_DEFAULT, LIMIT_MAX = 10, 100
LIMIT_PARAMETER: dict[str, Any] = {
    "parameters": [
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "description": f"how many entries (default {LIMIT_DEFAULT})",
            "schema": {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX},
        }
    ]
}


@router.get(
    "/leaderboard",
    response_model=LeaderboardOut,
    responses=error_responses(422),
    openapi_extra=LIMIT_PARAMETER,
)
async def best_times(
    request: Request,
    games: Games,
    preset: PresetName = "expert",
    no_guess: bool = False,
    board: Literal["all", "month", "daily"] = "all",
    day: str | None = None,
) -> dict[str, Any]:
    """All-time best times, this UTC month's with `board=month`, or with `board=daily` a
    day's daily board (`day`, YYYY-MM-DD in UTC, today by default): each account's first
    finished attempt there."""
    # `limit` is read here, strictly: FastAPI's int would take "1_0" or " 3".
    text = request.query_params.get("limit")
    limit = LIMIT_DEFAULT if text is None else query_int("limit", text, 1, LIMIT_MAX)
    daily = None
    if board == "daily":
        daily = day_of(day) or utc_day(games.wall())
    month = board == "month"
    entries = await run_in_threadpool(games.leaderboard, preset, no_guess, limit, daily, month)
    return {"preset": preset, "no_guess": no_guess, "day": daily, "entries": entries}


@router.get(
    "/daily", response_model=DailyOut, responses=error_responses(422), summary="Daily boards"
)
async def daily_boards(games: Games, day: str | None = None) -> dict[str, Any]:
    """A day's daily boards (today's by default, UTC): one per preset, classic and no-guess,
    the same for everyone; their seeds once the day is over. `POST /api/games {"daily":
    "expert"}` starts today's."""
    found: dict[str, Any] = await run_in_threadpool(games.daily, day_of(day))
    return found
