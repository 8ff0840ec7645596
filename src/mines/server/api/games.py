"""`/api/games`: create a game, read it, move in it and fetch its record once it is over."""

from __future__ import annotations

import asyncio
import threading
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from mines.errors import IllegalMoveError
from mines.moves import MoveKind
from mines.server.api.deps import (
    WINDOW_PARAMETERS,
    CurrentAccount,
    Fanout,
    GameReaders,
    Games,
    LiveHub,
    Reviews,
    Token,
    error_responses,
    window,
)
from mines.server.api.schemas import CreatedOut, FlagTarget, GameOut, MoveOut, MoveTarget, NewGame
from mines.server.common.auth import MISSING_TOKEN, NotAuthenticatedError
from mines.server.common.errors import GameNotFoundError, GameOverError, InvalidRequestError
from mines.server.services.finished import Read
from mines.server.services.games import GameService, GameSpec
from mines.server.services.present import Window, game_facts, without_cells
from mines.server.web.handlers import validation_answer
from mines.server.web.ratelimit import rate_limit
from mines.status import GameStatus

router = APIRouter(prefix="/api/games", tags=["games"])


def cell_body(target: type[MoveTarget]) -> dict[str, Any]:
    """A move's body in the OpenAPI schema; the route reads it itself, after the token."""
    return {
        "required": True,
        "content": {"application/json": {"schema": target.model_json_schema()}},
    }


@router.post(
    "",
    status_code=201,
    response_model=CreatedOut,
    responses=error_responses(422),
    summary="New game",
    openapi_extra={**WINDOW_PARAMETERS, **rate_limit("create")},
)
async def create_game(
    body: NewGame, request: Request, games: Games, account: CurrentAccount
) -> dict[str, Any]:
    spec = GameSpec(**body.model_dump(mode="json"))  # plain strings, not enum members
    game_id, token, view = await run_in_threadpool(
        games.create, spec, window(request.query_params), account
    )
    row = games.kept_row(game_id)  # just stored by this process: no need to read it back
    facts = game_facts(row) if row is not None else await _facts(games, game_id)
    return {"id": game_id, "token": token, "view": view, **facts}


@router.get(
    "/{game_id}",
    response_model=GameOut,
    responses=error_responses(403, 404, 422),
    summary="Read",
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_game(
    game_id: str, request: Request, token: Token, games: Games, readers: GameReaders
) -> dict[str, Any]:
    """The game's view; a daily game's only for its player until its day is over (403)."""
    await readers.check(game_id, token)
    view = await run_in_threadpool(games.view, game_id, window(request.query_params))
    return {"id": game_id, "view": view, **await _facts(games, game_id)}


async def _facts(games: GameService, game_id: str) -> dict[str, Any]:
    row = await run_in_threadpool(games.storage.load, game_id)
    if row is None:
        raise GameNotFoundError.of(game_id)
    return game_facts(row)


CELLS_QUERY: dict[str, Any] = {
    "name": "cells",
    "in": "query",
    "required": False,
    "description": '"changed": leave the view\'s cells out of the answer when `changed` lists '
    "every cell the move changed in the window (the client patches its copy)",
    "schema": {"type": "string", "enum": ["changed"]},
}


@router.get(
    "/{game_id}/record",
    responses=error_responses(403, 404, 409),
    summary="Record of a finished game",
)
async def get_record(game_id: str, token: Token, games: Games, readers: GameReaders) -> Response:
    await readers.check(game_id, token)
    body = await run_in_threadpool(games.read_finished, Read.RECORD, game_id, Window())
    return Response(body, media_type="application/json")


async def _note_disconnect(request: Request, gone: threading.Event) -> None:
    """Set `gone` if the client goes away before its answer (long work then stops)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
    gone.set()


def _only_changes(cells: str | None) -> bool:
    if cells not in (None, "changed"):
        shown = cells if len(cells) <= 12 else f"{cells[:12]}…"
        raise InvalidRequestError(f'query.cells must be "changed" or left out, got {shown!r}')
    return cells == "changed"


def _add_move_route(kind: MoveKind, verb: str, summary: str) -> None:
    target = FlagTarget if kind is MoveKind.FLAG else MoveTarget

    async def move(
        game_id: str,
        request: Request,
        token: Token,
        game_service: Games,
        game_hub: LiveHub,
        fanout: Fanout,  # other processes' watchers, through Redis
        reviews: Reviews,
    ) -> JSONResponse:
        if not token:
            raise NotAuthenticatedError(MISSING_TOKEN)
        # The body is read only after the token: a stranger learns nothing from a 422.
        try:
            cell = target.model_validate_json(await request.body())
            box = window(request.query_params)
            only_changes = _only_changes(request.query_params.get("cells"))
        except (ValidationError, InvalidRequestError) as problem:
            await run_in_threadpool(game_service.check_access, game_id, token)
            if isinstance(problem, InvalidRequestError):
                raise
            return validation_answer(
                [{**item, "loc": ("body", *item["loc"])} for item in problem.errors()]
            )
        gone = threading.Event()
        watch = asyncio.create_task(_note_disconnect(request, gone))
        try:
            result = await run_in_threadpool(
                partial(
                    game_service.move,
                    watched=fanout is not None or game_hub.watchers(game_id) > 0,
                    cancelled=gone.is_set,
                    flagged=getattr(cell, "flagged", None),
                ),
                game_id,
                token,
                kind,
                (cell.row, cell.col),
                box,
            )
        except IllegalMoveError as refused:
            if not isinstance(refused, GameOverError):  # a click on a flag, a flag on a number
                await run_in_threadpool(game_service.storage.count_wasted, game_id)
            raise
        finally:
            watch.cancel()
        if not result.stored and getattr(cell, "flagged", None) is None:
            # A flag that already was as asked is a retry, not a wasted click.
            await run_in_threadpool(game_service.storage.count_wasted, game_id)
        if result.broadcast is not None:
            game_hub.publish(game_id, result.broadcast)
            if fanout is not None:
                await fanout.publish(game_id, result.broadcast)
        view = result.view
        if result.stored and view["status"] != GameStatus.IN_PROGRESS.value:
            # The move that ended the game: its review is worked out now, in the background.
            reviews.prepare(game_id)
        if only_changes and result.changed_complete:
            view = without_cells(view)
        # Built here rather than validated against MoveOut: this is the hot path, and the
        # service builds exactly that shape (the Schemathesis test checks it).
        return JSONResponse(
            {
                "view": view,
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
        openapi_extra={
            "parameters": [*WINDOW_PARAMETERS["parameters"], CELLS_QUERY],
            "requestBody": cell_body(target),
            **rate_limit("game"),
        },
    )


_add_move_route(MoveKind.OPEN, "reveal", "Reveal a cell")
_add_move_route(MoveKind.FLAG, "flag", "Flag or unflag a cell")
_add_move_route(MoveKind.CHORD, "chord", "Chord a number")
