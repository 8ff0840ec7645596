"""`/api/games`: create a game, read it, move in it and fetch its record once it is over."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from mines.moves import MoveKind
from mines.server.deps import HubDep, ServiceDep, WindowDep
from mines.server.games import GameSpec
from mines.server.schemas import Cell, CreatedOut, ErrorOut, GameOut, MoveOut, NewGame

router = APIRouter(prefix="/api/games", tags=["games"])
bearer = HTTPBearer(auto_error=False, description="the token returned when the game was created")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


@router.post(
    "", status_code=201, response_model=CreatedOut, responses=_errors(422), summary="New game"
)
async def create_game(body: NewGame, service: ServiceDep, window: WindowDep) -> dict[str, Any]:
    spec = GameSpec(**body.model_dump())
    game_id, token, view = await run_in_threadpool(service.create, spec, window)
    return {"id": game_id, "token": token, "view": view}


@router.get("/{game_id}", response_model=GameOut, responses=_errors(404, 422), summary="Read")
async def get_game(game_id: str, service: ServiceDep, window: WindowDep) -> dict[str, Any]:
    view = await run_in_threadpool(service.view, game_id, window)
    return {"id": game_id, "view": view}


@router.get("/{game_id}/record", responses=_errors(404, 409), summary="Record of a finished game")
async def get_record(game_id: str, service: ServiceDep) -> dict[str, Any]:
    record: dict[str, Any] = await run_in_threadpool(service.record, game_id)
    return record


async def _move(
    kind: MoveKind,
    game_id: str,
    cell: Cell,
    credentials: HTTPAuthorizationCredentials | None,
    service: ServiceDep,
    hub: HubDep,
    window: WindowDep,
) -> dict[str, Any]:
    token = None if credentials is None else credentials.credentials
    result = await run_in_threadpool(service.move, game_id, token, kind, cell.row, cell.col, window)
    if result.broadcast is not None:
        hub.publish(game_id, result.broadcast)
    return {
        "view": result.view,
        "changed": result.changed,
        "changed_complete": result.changed_complete,
    }


MOVE_ERRORS = _errors(401, 403, 404, 409, 422)


@router.post("/{game_id}/reveal", response_model=MoveOut, responses=MOVE_ERRORS, summary="Reveal")
async def reveal(
    game_id: str,
    cell: Cell,
    credentials: Credentials,
    service: ServiceDep,
    hub: HubDep,
    window: WindowDep,
) -> dict[str, Any]:
    return await _move(MoveKind.OPEN, game_id, cell, credentials, service, hub, window)


@router.post("/{game_id}/flag", response_model=MoveOut, responses=MOVE_ERRORS, summary="Flag")
async def flag(
    game_id: str,
    cell: Cell,
    credentials: Credentials,
    service: ServiceDep,
    hub: HubDep,
    window: WindowDep,
) -> dict[str, Any]:
    return await _move(MoveKind.FLAG, game_id, cell, credentials, service, hub, window)


@router.post("/{game_id}/chord", response_model=MoveOut, responses=MOVE_ERRORS, summary="Chord")
async def chord(
    game_id: str,
    cell: Cell,
    credentials: Credentials,
    service: ServiceDep,
    hub: HubDep,
    window: WindowDep,
) -> dict[str, Any]:
    return await _move(MoveKind.CHORD, game_id, cell, credentials, service, hub, window)
