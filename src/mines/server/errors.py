"""The server's own errors and the one place that turns every error into a JSON answer."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from mines.errors import (
    GameInProgressError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    InvalidViewError,
    MinesError,
    MinesNotPlacedError,
)
from mines.race import JoinRefusedError
from mines.server.auth import ForbiddenError, NotAuthenticatedError
from mines.server.storage import StorageError

log = logging.getLogger(__name__)


class GameNotFoundError(MinesError):
    """No game has this ID (HTTP 404)."""


class InvalidRequestError(MinesError):
    """A request that is well formed but out of range for this server (HTTP 422)."""


STATUS: dict[type[Exception], int] = {
    JoinRefusedError: 409,
    InvalidBoardError: 422,
    InvalidRequestError: 422,
    InvalidMoveError: 422,
    InvalidViewError: 422,
    IllegalMoveError: 409,
    GameInProgressError: 409,
    MinesNotPlacedError: 409,
    GameNotFoundError: 404,
    NotAuthenticatedError: 401,
    ForbiddenError: 403,
    StorageError: 503,
}


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
    return JSONResponse({"detail": message}, status_code=status, headers=headers)


def validation_message(exc: RequestValidationError) -> str:
    """`body.rows: Input should be greater than or equal to 1; ...`, without echoing the input."""
    parts = []
    for item in exc.errors():
        where = ".".join(str(part) for part in item.get("loc", ()))
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else item.get("msg", ""))
    return "; ".join(parts) or "invalid request"


def install_handlers(app: FastAPI) -> None:
    async def on_mines_error(request: Request, exc: Exception) -> JSONResponse:
        status = next((code for kind, code in STATUS.items() if isinstance(exc, kind)), 422)
        return error(status, str(exc))

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error(422, validation_message(exc))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        # FastAPI answers a body it cannot even decode with 400; malformed input is 422 here.
        status = 422 if exc.status_code == 400 else exc.status_code
        return error(status, str(exc.detail), exc.headers)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, "internal error; the server log has the details")

    app.add_exception_handler(MinesError, on_mines_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(Exception, on_unexpected)
