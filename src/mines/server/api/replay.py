"""`/api/games/{id}/replay` and `/summary`: a finished game's frames and result, by the core."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from mines.server.api.deps import (
    WINDOW_PARAMETERS,
    GameReaders,
    Games,
    Token,
    error_responses,
    window,
)
from mines.server.services.finished import Read
from mines.server.services.present import Window

router = APIRouter(prefix="/api/games", tags=["replay"])

FINISHED_GAME_ERRORS = error_responses(403, 404, 409, 422)


@router.get(
    "/{game_id}/replay",
    summary="Replay frames of a finished game",
    responses=FINISHED_GAME_ERRORS,
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_replay(
    game_id: str, request: Request, token: Token, games: Games, readers: GameReaders
) -> Response:
    """The window before any move, then per move the cells it changed there (from the core's
    `replay_steps`), so a client plays a game back without knowing the rules."""
    await readers.check(game_id, token)
    asked = window(request.query_params)
    body = await run_in_threadpool(games.read_finished, Read.REPLAY, game_id, asked)
    return Response(body, media_type="application/json")


@router.get(
    "/{game_id}/summary",
    summary="Result of a finished game",
    responses=FINISHED_GAME_ERRORS,
)
async def get_summary(game_id: str, token: Token, games: Games, readers: GameReaders) -> Response:
    """Status, time, 3BV and the board's preset, for a client's personal statistics."""
    await readers.check(game_id, token)
    body = await run_in_threadpool(games.read_finished, Read.SUMMARY, game_id, Window())
    return Response(body, media_type="application/json")
