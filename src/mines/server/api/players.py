"""`/api/players/{name}`: a player's public profile, statistics and latest games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from mines.server.api.deps import Accounts, error_responses
from mines.server.api.schemas import ImportedOut, PresetName

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
    ranked: bool
    replay: str
    """The browser client's address that plays the game back."""


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
