"""`/api/leaderboard`: the best times of won games per preset, classic and no-guess apart."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from mines.server.deps import service
from mines.server.schemas import ErrorOut, LeaderboardOut, PresetName

router = APIRouter(prefix="/api/leaderboard", tags=["leaderboard"])


@router.get("", response_model=LeaderboardOut, responses={422: {"model": ErrorOut}})
async def best_times(
    request: Request,
    preset: PresetName = "expert",
    no_guess: bool = False,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> dict[str, Any]:
    entries = await run_in_threadpool(service(request).leaderboard, preset, no_guess, limit)
    return {"preset": preset, "no_guess": no_guess, "entries": entries}
