"""`/api/games`: create a game, read it, move in it and fetch its record once it is over."""

from __future__ import annotations

import asyncio
import threading
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from mines.moves import MoveKind
from mines.server.auth import MISSING_TOKEN, NotAuthenticatedError
from mines.server.deps import WINDOW_PARAMETERS, error_responses, hub, service, window
from mines.server.errors import InvalidRequestError, validation_answer
from mines.server.finished import Read
from mines.server.games import GameSpec
from mines.server.present import Window
from mines.server.schemas import CreatedOut, GameOut, MoveOut, MoveTarget, NewGame

router = APIRouter(prefix="/api/games", tags=["games"])
bearer = HTTPBearer(auto_error=False, description="the token returned when the game was created")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


CELL_BODY: dict[str, Any] = {
    "required": True,
    "content": {"application/json": {"schema": MoveTarget.model_json_schema()}},
}
"""The move body in the OpenAPI schema; the route reads it itself, after the token."""


@router.post(
    "",
    status_code=201,
    response_model=CreatedOut,
    responses=error_responses(422),
    summary="New game",
    openapi_extra=WINDOW_PARAMETERS,
)
async def create_game(body: NewGame, request: Request) -> dict[str, Any]:
    spec = GameSpec(**body.model_dump(mode="json"))  # plain strings, not enum members
    game_id, token, view = await run_in_threadpool(
        service(request).create, spec, window(request.query_params)
    )
    return {"id": game_id, "token": token, "view": view}


@router.get(
    "/{game_id}",
    response_model=GameOut,
    responses=error_responses(404, 422),
    summary="Read",
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_game(game_id: str, request: Request) -> dict[str, Any]:
    view = await run_in_threadpool(service(request).view, game_id, window(request.query_params))
    return {"id": game_id, "view": view}


@router.get(
    "/{game_id}/record", responses=error_responses(404, 409), summary="Record of a finished game"
)
async def get_record(game_id: str, request: Request) -> Response:
    games = service(request)
    body = await run_in_threadpool(games.read_finished, Read.RECORD, game_id, Window())
    return Response(body, media_type="application/json")


async def _note_disconnect(request: Request, gone: threading.Event) -> None:
    """Set `gone` if the client goes away before its answer (long work then stops)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
    gone.set()


def _add_move_route(kind: MoveKind, verb: str, summary: str) -> None:
    async def move(game_id: str, request: Request, credentials: Credentials) -> JSONResponse:
        token = None if credentials is None else credentials.credentials
        if not token:
            raise NotAuthenticatedError(MISSING_TOKEN)
        game_service = service(request)
        # The body is read only after the token: a stranger learns nothing from a 422.
        try:
            cell = MoveTarget.model_validate_json(await request.body())
            box = window(request.query_params)
        except (ValidationError, InvalidRequestError) as problem:
            await run_in_threadpool(game_service.check_access, game_id, token)
            if isinstance(problem, InvalidRequestError):
                raise
            return validation_answer(
                [{**item, "loc": ("body", *item["loc"])} for item in problem.errors()]
            )
        game_hub = hub(request)
        gone = threading.Event()
        watch = asyncio.create_task(_note_disconnect(request, gone))
        try:
            result = await run_in_threadpool(
                partial(
                    game_service.move,
                    watched=game_hub.watchers(game_id) > 0,
                    cancelled=gone.is_set,
                ),
                game_id,
                token,
                kind,
                (cell.row, cell.col),
                box,
            )
        finally:
            watch.cancel()
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
        responses=error_responses(401, 403, 404, 409, 422),
        openapi_extra={**WINDOW_PARAMETERS, "requestBody": CELL_BODY},
    )


_add_move_route(MoveKind.OPEN, "reveal", "Reveal a cell")
_add_move_route(MoveKind.FLAG, "flag", "Flag or unflag a cell")
_add_move_route(MoveKind.CHORD, "chord", "Chord a number")
