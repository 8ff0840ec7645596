"""`/api/games`: create a game, read it, move in it and fetch its record once it is over."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from mines.moves import MoveKind
from mines.server.deps import WINDOW_PARAMETERS, hub, service, window
from mines.server.games import GameSpec
from mines.server.schemas import CreatedOut, ErrorOut, GameOut, MoveOut, MoveTarget, NewGame

router = APIRouter(prefix="/api/games", tags=["games"])
bearer = HTTPBearer(auto_error=False, description="the token returned when the game was created")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


@router.post(
    "",
    status_code=201,
    response_model=CreatedOut,
    responses=_errors(422),
    summary="New game",
    openapi_extra=WINDOW_PARAMETERS,
)
async def create_game(body: NewGame, request: Request) -> dict[str, Any]:
    spec = GameSpec(**body.model_dump())
    game_id, token, view = await run_in_threadpool(
        service(request).create, spec, window(request.query_params)
    )
    return {"id": game_id, "token": token, "view": view}


@router.get(
    "/{game_id}",
    response_model=GameOut,
    responses=_errors(404, 422),
    summary="Read",
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_game(game_id: str, request: Request) -> dict[str, Any]:
    view = await run_in_threadpool(service(request).view, game_id, window(request.query_params))
    return {"id": game_id, "view": view}


@router.get("/{game_id}/record", responses=_errors(404, 409), summary="Record of a finished game")
async def get_record(game_id: str, request: Request) -> dict[str, Any]:
    record: dict[str, Any] = await run_in_threadpool(service(request).record, game_id)
    return record


def _add_move_route(kind: MoveKind, verb: str, summary: str) -> None:
    async def move(
        game_id: str, cell: MoveTarget, request: Request, credentials: Credentials
    ) -> JSONResponse:
        token = None if credentials is None else credentials.credentials
        box = window(request.query_params)
        game_hub = hub(request)
        result = await run_in_threadpool(
            partial(service(request).move, watched=game_hub.watchers(game_id) > 0),
            game_id,
            token,
            kind,
            (cell.row, cell.col),
            box,
        )
        if result.broadcast is not None:
            game_hub.publish(game_id, result.broadcast)
        # Built here rather than validated against MoveOut: this is the hot path, and the
        # service builds exactly that shape (the Schemathesis test checks it).
        return JSONResponse(
            {
                "view": result.view,
                "changed": result.changed,
                "changed_complete": result.changed_complete,
            }
        )

    router.add_api_route(
        f"/{{game_id}}/{verb}",
        move,
        methods=["POST"],
        name=verb,
        summary=summary,
        response_model=MoveOut,
        responses=_errors(401, 403, 404, 409, 422),
        openapi_extra=WINDOW_PARAMETERS,
    )


_add_move_route(MoveKind.OPEN, "reveal", "Reveal a cell")
_add_move_route(MoveKind.FLAG, "flag", "Flag or unflag a cell")
_add_move_route(MoveKind.CHORD, "chord", "Chord a number")
