"""`/api/leaderboard` and `/api/daily`: the boards per preset, classic and no-guess apart, by
period (UTC day, ISO week, month, year, all time) and measure (time, 3BV/s, efficiency), no-flag
wins apart, or a day's daily board; and the daily boards."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any, Literal

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from mines.ranking import Measure
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
    board: Literal["day", "week", "month", "year", "all", "daily"] = "all",
    measure: Measure = "time",
    no_flags: bool = False,
    day: str | None = None,
) -> dict[str, Any]:
    """The board of this UTC day, ISO week, month, year or all time (`board`), ranked by
    `measure` (each account's best there; the skill measures take wins of at least the
    preset's minimum 3BV), with `no_flags` of no-flag wins only; or with `board=daily` a
    day's daily board by time (`day`, YYYY-MM-DD in UTC, today by default): each account's
    first finished attempt there."""
    # `limit` is read here, strictly: FastAPI's int would take "1_0" or " 3".
    text = request.query_params.get("limit")
    limit = LIMIT_DEFAULT if text is None else query_int("limit", text, 1, LIMIT_MAX)
    found = {"preset": preset, "no_guess": no_guess, "no_flags": no_flags, "board": board}
    if board == "daily":
        if measure != "time":
            raise InvalidRequestError(
                "a daily board ranks by time only: leave out query.measure, or ask for a "
                "board by period (board=day, week, month, year or all)"
            )
        daily = day_of(day) or utc_day(games.wall())
        ask = partial(games.daily_board, preset, no_guess, limit, daily, no_flags=no_flags)
        entries = await run_in_threadpool(ask)
        return {**found, "period": daily, "measure": measure, "day": daily, "entries": entries}
    ask_board = partial(
        games.leaderboard, preset, no_guess, limit, period=board, measure=measure, no_flags=no_flags
    )
    period, entries = await run_in_threadpool(ask_board)
    return {**found, "period": period, "measure": measure, "day": None, "entries": entries}


@router.get(
    "/daily", response_model=DailyOut, responses=error_responses(422), summary="Daily boards"
)
async def daily_boards(games: Games, day: str | None = None) -> dict[str, Any]:
    """A day's daily boards (today's by default, UTC): one per preset, classic and no-guess,
    the same for everyone; their seeds once the day is over. `POST /api/games {"daily":
    "expert"}` starts today's."""
    found: dict[str, Any] = await run_in_threadpool(games.daily, day_of(day))
    return found
