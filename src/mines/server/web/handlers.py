"""The one place that turns errors into JSON answers: `{"code", "detail"}` with each error's
status, for the server's own errors, validation, Starlette's and the unexpected."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from mines.errors import MinesError
from mines.server.common.errors import (
    DailyNotOverError,
    RetryLaterError,
    StorageError,
    classify,
)
from mines.server.common.metrics import ERRORS

log = logging.getLogger(__name__)

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
    first route's, and `/api/session` has two (POST signs in, DELETE signs out)."""
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
