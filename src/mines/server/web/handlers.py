"""The one place that turns errors into JSON answers: `CODES`, each error's HTTP status and
stable code, and `{"code", "detail"}` answers to the server's own errors, to validation, to
Starlette's and to the unexpected."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from mines.errors import (
    GameInProgressError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    InvalidViewError,
    JoinRefusedError,
    LobbyRefusedError,
    MinesError,
    MinesNotPlacedError,
    NoGuessTooLargeError,
    OffBoardError,
)
from mines.server.common.auth import ForbiddenError, NotAuthenticatedError
from mines.server.common.errors import (
    AccountSuspendedError,
    AddressBlockedError,
    AlreadyImportedError,
    CellFlaggedError,
    DailyNotOverError,
    GameNotFoundError,
    GameOverError,
    InvalidNameError,
    InvalidRequestError,
    NameTakenError,
    NoGuessTimeoutError,
    NotSignedInError,
    PlayerNotFoundError,
    RateLimitedError,
    RetryLaterError,
    RoomNotFoundError,
    ServerFullError,
    SignInFailedError,
    WorkerDiedError,
    WrongPasswordError,
)
from mines.server.common.metrics import ERRORS
from mines.server.db.storage import StorageError
from mines.solver.game_review import ReviewTooLargeError

log = logging.getLogger(__name__)

CODES: tuple[tuple[type[Exception], int, str], ...] = (
    # Most specific first: the first class an error is an instance of gives its answer.
    (GameOverError, 409, "game_over"),
    (CellFlaggedError, 409, "cell_flagged"),
    (GameInProgressError, 409, "game_in_progress"),
    (MinesNotPlacedError, 409, "mines_not_placed"),
    (JoinRefusedError, 409, "join_refused"),
    (LobbyRefusedError, 409, "lobby_refused"),
    (OffBoardError, 422, "invalid_request"),  # no state of the game would allow it
    (IllegalMoveError, 409, "illegal_move"),
    (InvalidMoveError, 422, "invalid_move"),
    (InvalidViewError, 422, "invalid_view"),
    (NoGuessTooLargeError, 422, "no_guess_too_large"),
    (NoGuessTimeoutError, 422, "no_guess_timeout"),
    (ReviewTooLargeError, 422, "review_too_large"),
    (InvalidBoardError, 422, "invalid_board"),
    (InvalidRequestError, 422, "invalid_request"),
    (InvalidNameError, 422, "invalid_name"),
    (NameTakenError, 409, "name_taken"),
    (AlreadyImportedError, 409, "already_imported"),
    (SignInFailedError, 401, "sign_in_failed"),
    (AccountSuspendedError, 403, "account_suspended"),
    (WrongPasswordError, 403, "wrong_password"),
    (AddressBlockedError, 403, "address_blocked"),
    (NotSignedInError, 401, "not_signed_in"),
    (GameNotFoundError, 404, "game_not_found"),
    (RoomNotFoundError, 404, "room_not_found"),
    (PlayerNotFoundError, 404, "player_not_found"),
    (NotAuthenticatedError, 401, "not_authenticated"),
    (ForbiddenError, 403, "forbidden"),
    (DailyNotOverError, 403, "daily_not_over"),
    (RateLimitedError, 429, "rate_limited"),
    (ServerFullError, 503, "server_full"),
    (WorkerDiedError, 503, "worker_died"),
    (StorageError, 503, "storage_unavailable"),
)
"""Each error the server raises on purpose: its HTTP status and stable code (docs/server.md)."""


def classify(exc: Exception) -> tuple[int, str]:
    """The HTTP status and code of an error the server raised on purpose."""
    for kind, status, code in CODES:
        if isinstance(exc, kind):
            return status, code
    return 422, "invalid_request"


STORAGE_RETRY_AFTER = 5
"""Seconds a client is asked to wait after the database failed (it may be restarting)."""
STORAGE_UNAVAILABLE = f"nothing of this request was applied: try again in {STORAGE_RETRY_AFTER} s"
"""The end of every `503 storage_unavailable`'s detail, after what failed in the server's own
words (`StorageError.public`): the driver's text is in the server's log only."""
ERRORS_SHOWN = 5
"""Validation answers list this many problems and count the rest."""

METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
"""The methods a 405's `Allow` may list."""

HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}
"""Codes of the errors Starlette itself raises (an unknown path, a wrong method)."""


def error(
    status: int,
    code: str,
    message: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """The answer to every error: `{"code", "detail"}` plus any `extra` fields."""
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
    ERRORS.labels(str(status), code).inc()
    body = {"code": code, "detail": message, **extra}
    return JSONResponse(body, status_code=status, headers=headers)


def validation_answer(problems: Sequence[Mapping[str, Any]]) -> JSONResponse:
    """A 422 listing the first few problems, each as `{"field", "problem"}`, and their count.

    The input itself is never echoed: it may be huge, and it is the client's own anyway.
    """
    shown = []
    for item in problems[:ERRORS_SHOWN]:
        field = ".".join(str(part) for part in item.get("loc", ()))
        shown.append({"field": field, "problem": str(item.get("msg", "invalid"))})
    parts = [f"{e['field']}: {e['problem']}" if e["field"] else e["problem"] for e in shown]
    message = "; ".join(parts) or "invalid request"
    if len(problems) > len(shown):
        message += f"; and {len(problems) - len(shown):,} more"
    return error(422, "validation_error", message, errors=shown, error_count=max(len(problems), 1))


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at the request's path: Starlette's 405 lists only the
    first route's, and `/api/session` has three (GET reads, POST signs in, DELETE signs out)."""
    allowed = []
    for method in METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


def install_handlers(app: FastAPI) -> None:
    async def on_mines_error(request: Request, exc: Exception) -> JSONResponse:
        status, code = classify(exc)
        headers = None
        if isinstance(exc, RetryLaterError):
            headers = {"Retry-After": str(exc.retry_after)}
        elif isinstance(exc, StorageError):
            # The driver's words (and the database's host and port) go to the log only.
            log.warning("%s %s: %s", request.method, request.url.path, exc)
            headers = {"Retry-After": str(STORAGE_RETRY_AFTER)}
            said = exc.public or "the database is unavailable"
            return error(status, code, f"{said}; {STORAGE_UNAVAILABLE}", headers)
        if isinstance(exc, DailyNotOverError):
            return error(status, code, str(exc), opens_at=exc.opens_at)
        return error(status, code, str(exc), headers)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return validation_answer(exc.errors())

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 400:
            # FastAPI answers a body it cannot even decode with 400; malformed input is 422 here.
            return validation_answer([{"loc": ("body",), "msg": str(exc.detail)}])
        code = HTTP_CODES.get(exc.status_code, "http_error")
        headers = exc.headers
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request))}
        return error(exc.status_code, code, str(exc.detail), headers)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, "internal_error", "internal error; the server log has the details")

    app.add_exception_handler(MinesError, on_mines_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(Exception, on_unexpected)
