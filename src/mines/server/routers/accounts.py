"""`/api/accounts`, `/api/session` and `/api/me`: sign up, sign in and out, and who is signed in."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from mines.server.accounts import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    SESSION_SECONDS,
    AccountService,
    SignedIn,
)
from mines.server.deps import error_responses
from mines.server.errors import NotSignedInError, RateLimitedError
from mines.server.names import skeletons
from mines.server.ratelimit import RateLimiter
from mines.server.storage import AccountRow

router = APIRouter(prefix="/api", tags=["accounts"])

COOKIE = "mines_session"
NAME_INPUT_MAX = 200
"""Characters a name may have as sent: room for invisible characters, which are removed
before the rule (at most 24) is checked and `invalid_name` says what was wrong."""


class Credentials(BaseModel):
    """An account's name and password."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=NAME_INPUT_MAX)]
    password: Annotated[
        str,
        Field(
            min_length=PASSWORD_MIN,
            max_length=PASSWORD_MAX,
            description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters",
        ),
    ]


class AccountOut(BaseModel):
    name: str
    """The account's name as it is shown (and ranked)."""
    created_at: float


def accounts(connection: HTTPConnection) -> AccountService:
    service: AccountService = connection.app.state.accounts
    return service


def session_token(connection: HTTPConnection) -> str | None:
    return connection.cookies.get(COOKIE) or None


async def signed_in_account(request: HTTPConnection) -> AccountRow | None:
    """The account the request's session cookie signs in, or None (no cookie, or a session
    that ended or expired: the request is then anonymous)."""
    token = session_token(request)
    if token is None:
        return None
    try:
        return await run_in_threadpool(accounts(request).account, token)
    except NotSignedInError:
        return None


async def check_rate(request: Request, name: str | None) -> None:
    """Count one sign-in (or new account) against the client's address and, given a name,
    against every sign-in to that name (by its skeleton), from wherever they come."""
    limiter: RateLimiter = request.app.state.limiter
    address = request.client.host if request.client else "unknown"
    keys = [f"address {address}"]
    if name is not None:
        keys.append(f"name {skeletons(name)[0]}")
    for key in keys:
        wait = await limiter.refusal("signin", key)
        if wait is not None:
            what = "this name" if key.startswith("name") else "your address"
            raise RateLimitedError(
                f"too many sign-ins for {what}; try again in {wait} s", retry_after=wait
            )


def signed_in(request: Request, done: SignedIn, status: int) -> JSONResponse:
    """The account's answer, with the new session's cookie."""
    account = done.account
    answer = JSONResponse({"name": account.name, "created_at": account.created_at}, status)
    answer.set_cookie(
        COOKIE,
        done.token,
        max_age=SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        # The scheme is https behind a TLS proxy too, when uvicorn trusts its headers.
        secure=request.url.scheme == "https",
    )
    return answer


@router.post(
    "/accounts",
    status_code=201,
    response_model=AccountOut,
    responses=error_responses(403, 409, 422),
    summary="Create an account (and sign in)",
)
async def create_account(body: Credentials, request: Request) -> JSONResponse:
    await check_rate(request, None)
    done = await run_in_threadpool(
        accounts(request).create, body.name, body.password, session_token(request)
    )
    return signed_in(request, done, 201)


@router.post(
    "/session",
    response_model=AccountOut,
    responses=error_responses(401, 403, 422),
    summary="Sign in",
)
async def sign_in(body: Credentials, request: Request) -> JSONResponse:
    await check_rate(request, body.name)
    done = await run_in_threadpool(
        accounts(request).sign_in, body.name, body.password, session_token(request)
    )
    return signed_in(request, done, 200)


@router.delete("/session", status_code=204, responses=error_responses(403), summary="Sign out")
async def sign_out(request: Request) -> Response:
    token = session_token(request)
    if token is not None:
        await run_in_threadpool(accounts(request).sign_out, token)
    answer = Response(status_code=204)
    answer.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return answer


@router.get(
    "/me", response_model=AccountOut, responses=error_responses(401), summary="Who is signed in"
)
async def me(request: Request) -> dict[str, Any]:
    account = await run_in_threadpool(accounts(request).account, session_token(request))
    return {"name": account.name, "created_at": account.created_at}
