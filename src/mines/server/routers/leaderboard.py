"""`/api/leaderboard`: the best times of won games per preset, classic and no-guess apart."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from mines.server.deps import error_responses, query_int, service
from mines.server.schemas import LeaderboardOut, PresetName

router = APIRouter(prefix="/api/leaderboard", tags=["leaderboard"])

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
    "",
    response_model=LeaderboardOut,
    responses=error_responses(422),
    openapi_extra=LIMIT_PARAMETER,
)
async def best_times(
    request: Request, preset: PresetName = "expert", no_guess: bool = False
) -> dict[str, Any]:
    # `limit` is read here, strictly: FastAPI's int would take "1_0" or " 3".
    text = request.query_params.get("limit")
    limit = LIMIT_DEFAULT if text is None else query_int("limit", text, 1, LIMIT_MAX)
    entries = await run_in_threadpool(service(request).leaderboard, preset, no_guess, limit)
    return {"preset": preset, "no_guess": no_guess, "entries": entries}
