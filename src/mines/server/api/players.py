"""`/api/players/{name}`: a player's public profile, statistics and latest games, and every
game they finished, a page at a time (`/games`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from mines.server.api.deps import Accounts, error_responses, query_int
from mines.server.api.schemas import ImportedOut, PresetName
from mines.server.services.profiles import HISTORY_BOARDS, HISTORY_RESULTS, PAGE_DEFAULT, PAGE_MAX

router = APIRouter(prefix="/api/players", tags=["accounts"])


class Streak(BaseModel):
    current: int
    """Wins in a row up to the latest game."""
    best: int


class Pace(BaseModel):
    best: float | None
    average: float | None


class HistoryEntry(BaseModel):
    id: str
    finished_at: float
    preset: PresetName | None
    rows: int
    cols: int
    mines: int
    no_guess: bool
    daily: str | None
    """The day of the daily board it was played on (`YYYY-MM-DD`), or null."""
    status: str
    elapsed: float
    three_bv: int
    clicks: int
    """Every move asked for while it was on."""
    three_bv_per_second: float | None
    """For a win."""
    efficiency: float | None
    """For a win: 3BV per click, in percent."""
    no_flags: bool
    """Won without a single flag (one placed and taken off counts as a flag)."""
    ranked: bool
    replay: str
    """The browser client's address that plays the game back."""
    review: str
    """The browser client's address of its review."""


class ProfileOut(BaseModel):
    name: str
    created_at: float
    games: int
    """Finished games."""
    wins: int
    win_rate: float | None
    streak: Streak
    best: dict[PresetName, float]
    """Best ranked time per preset, classic boards (daily boards apart)."""
    best_no_guess: dict[PresetName, float]
    best_daily: dict[PresetName, float]
    """Best ranked time per preset on daily boards, classic: each day's first attempt."""
    best_daily_no_guess: dict[PresetName, float]
    best_no_flags: dict[PresetName, float]
    """Best ranked time per preset of the no-flag wins, classic boards (daily boards apart)."""
    best_no_flags_no_guess: dict[PresetName, float]
    three_bv_per_second: Pace
    """Of the wins."""
    efficiency: float | None
    """Average 3BV per click of the wins, in percent."""
    imported: ImportedOut | None
    """A browser's own statistics the account took (`POST /api/me/imported-stats`), apart:
    not verified, never in the figures above."""
    history: list[HistoryEntry]
    """The latest finished games, newest first."""


@router.get(
    "/{name}",
    response_model=ProfileOut,
    responses=error_responses(404),
    summary="A player's profile",
)
async def player(name: str, accounts: Accounts) -> dict[str, Any]:
    found: dict[str, Any] = await run_in_threadpool(accounts.public_profile, name)
    return found


class HistoryOut(BaseModel):
    games: list[HistoryEntry]
    """Newest first."""
    next: str | None
    """The cursor of the next page (`?cursor=`), or null after the oldest game."""


HISTORY_PARAMETERS: dict[str, Any] = {
    "parameters": [
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "description": f"games in a page (default {PAGE_DEFAULT})",
            "schema": {"type": "integer", "minimum": 1, "maximum": PAGE_MAX},
        },
        {
            "name": "board",
            "in": "query",
            "required": False,
            "description": "only the games on this board",
            "schema": {"type": "string", "enum": list(HISTORY_BOARDS)},
        },
        {
            "name": "result",
            "in": "query",
            "required": False,
            "description": "only the games won, lost, or won without a flag",
            "schema": {"type": "string", "enum": list(HISTORY_RESULTS)},
        },
    ]
}


@router.get(
    "/{name}/games",
    response_model=HistoryOut,
    responses=error_responses(404, 422),
    summary="Every game a player finished",
    openapi_extra=HISTORY_PARAMETERS,
)
async def history(
    name: str, request: Request, accounts: Accounts, cursor: str | None = None
) -> dict[str, Any]:
    """Newest first, a page at a time: `next` is the cursor of the page after this one. It
    names the last game listed, so games finished meanwhile never shift a page (none is
    listed twice, none missed). A daily game of today is left out until the day is over."""
    # Read here, strictly (as the leaderboard's limit); board and result by the service,
    # which says what it allows.
    query = request.query_params
    text = query.get("limit")
    limit = PAGE_DEFAULT if text is None else query_int("limit", text, 1, PAGE_MAX)
    ask = partial(accounts.history, name, cursor, query.get("board"), query.get("result"), limit)
    found: dict[str, Any] = await run_in_threadpool(ask)
    return found
