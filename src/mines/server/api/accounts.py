"""`/api/accounts`, `/api/session` and `/api/me`: sign up, sign in and out, and who is signed in."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool

from mines.server.api.deps import (
    Accounts,
    CurrentAccount,
    Limiter,
    SessionToken,
    error_responses,
)
from mines.server.api.schemas import ImportedOut, PresetName
from mines.server.api.sessions import COOKIE
from mines.server.common.errors import RateLimitedError
from mines.server.db.storage import AccountRow, ImportedBoard
from mines.server.services.accounts import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    AccountService,
    SignedIn,
)
from mines.server.services.names import skeletons
from mines.server.web.ratelimit import RateLimiter

router = APIRouter(prefix="/api", tags=["accounts"])

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
    stats_imported: bool
    """Whether the account has taken a browser's statistics (it takes them once)."""


IMPORT_COUNT_MAX = 1_000_000
"""The most games (wins, a streak) one board's imported statistics may count: years of play."""
IMPORT_SECONDS_MAX = 1_000_000.0
"""The longest best time imported, in seconds (11.5 days: the page's clock stops at 999 s)."""
IMPORT_PACE_MAX = 1_000.0
"""The highest best 3BV/s imported: far past any human play, so only nonsense is refused."""
Count = Annotated[int, Field(strict=True, ge=0, le=IMPORT_COUNT_MAX)]


class ImportedBoardIn(BaseModel):
    """One preset board's statistics as the browser counted them."""

    model_config = ConfigDict(extra="forbid")

    preset: PresetName
    no_guess: Annotated[bool, Field(strict=True)]
    games: Count
    wins: Count
    best_streak: Count = 0
    best_time: (
        Annotated[float, Field(strict=True, gt=0, le=IMPORT_SECONDS_MAX, allow_inf_nan=False)]
        | None
    ) = None
    """Seconds, or null before the first win."""
    best_three_bv_per_second: (
        Annotated[float, Field(strict=True, gt=0, le=IMPORT_PACE_MAX, allow_inf_nan=False)] | None
    ) = None

    @model_validator(mode="after")
    def consistent(self) -> ImportedBoardIn:
        """Figures one browser could have counted: no more wins than games, no longer streak
        than wins, no best time or 3BV/s without a win."""
        if self.wins > self.games:
            raise ValueError(f"wins ({self.wins}) may not be more than games ({self.games})")
        if self.best_streak > self.wins:
            raise ValueError(
                f"best_streak ({self.best_streak}) may not be more than wins ({self.wins})"
            )
        if self.wins == 0 and (
            self.best_time is not None or self.best_three_bv_per_second is not None
        ):
            raise ValueError("best_time and best_three_bv_per_second need a win: null with none")
        return self


class ImportIn(BaseModel):
    """A browser's own statistics, per preset board (classic and no-guess apart)."""

    model_config = ConfigDict(extra="forbid")

    boards: Annotated[list[ImportedBoardIn], Field(min_length=1, max_length=6)]

    @model_validator(mode="after")
    def each_board_once(self) -> ImportIn:
        seen: set[tuple[str, bool]] = set()
        for board in self.boards:
            key = (board.preset, board.no_guess)
            if key in seen:
                kind = "no-guess" if board.no_guess else "classic"
                raise ValueError(f"each board may come once; {board.preset} ({kind}) came twice")
            seen.add(key)
        return self


def account_json(account: AccountRow) -> dict[str, Any]:
    """The `AccountOut` of an account."""
    return {
        "name": account.name,
        "created_at": account.created_at,
        "stats_imported": account.stats_imported_at is not None,
    }


async def check_rate(limiter: RateLimiter, request: Request, name: str | None) -> None:
    """Count one sign-in (or new account) against the client's address and, given a name,
    against every sign-in to that name (by its skeleton), from wherever they come."""
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


def signed_in(
    request: Request, accounts: AccountService, done: SignedIn, status: int
) -> JSONResponse:
    """The account's answer, with the new session's cookie."""
    answer = JSONResponse(account_json(done.account), status)
    answer.set_cookie(
        COOKIE,
        done.token,
        max_age=accounts.session_seconds,
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
async def create_account(
    body: Credentials,
    request: Request,
    accounts: Accounts,
    limiter: Limiter,
    session: SessionToken,
) -> JSONResponse:
    await check_rate(limiter, request, None)
    done = await run_in_threadpool(accounts.create, body.name, body.password, session)
    return signed_in(request, accounts, done, 201)


@router.post(
    "/session",
    response_model=AccountOut,
    responses=error_responses(401, 403, 422),
    summary="Sign in",
)
async def sign_in(
    body: Credentials,
    request: Request,
    accounts: Accounts,
    limiter: Limiter,
    session: SessionToken,
) -> JSONResponse:
    await check_rate(limiter, request, body.name)
    done = await run_in_threadpool(accounts.sign_in, body.name, body.password, session)
    return signed_in(request, accounts, done, 200)


@router.delete("/session", status_code=204, responses=error_responses(403), summary="Sign out")
async def sign_out(request: Request, accounts: Accounts, session: SessionToken) -> Response:
    if session is not None:
        await run_in_threadpool(accounts.sign_out, session)
    answer = Response(status_code=204)
    answer.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return answer


class SessionOut(BaseModel):
    account: AccountOut | None
    """The signed-in account, or null when nobody is."""


@router.get(
    "/session",
    response_model=SessionOut,
    responses=error_responses(),
    summary="Who is signed in, if anyone",
)
async def session(account: CurrentAccount) -> dict[str, Any]:
    """`/api/me` for a page that asks at every load: 200 signed in or not, so that a browser
    logs no failed request for a visitor who is not signed in."""
    return {"account": None if account is None else account_json(account)}


@router.get(
    "/me", response_model=AccountOut, responses=error_responses(401), summary="Who is signed in"
)
async def me(accounts: Accounts, session: SessionToken) -> dict[str, Any]:
    account = await run_in_threadpool(accounts.account, session)
    return account_json(account)


@router.post(
    "/me/imported-stats",
    status_code=201,
    response_model=ImportedOut,
    responses=error_responses(401, 403, 409, 422),
    summary="Add this browser's own statistics to the account (once)",
)
async def import_stats(body: ImportIn, accounts: Accounts, session: SessionToken) -> dict[str, Any]:
    """The statistics a browser kept of its games before its player had an account. Nothing
    can check them, so they are stored apart from the account's games: the profile shows them
    as imported and not verified, and they never enter its best times or a leaderboard. An
    account takes them once (`409 already_imported` after)."""
    account = await run_in_threadpool(accounts.account, session)
    boards = [ImportedBoard(**board.model_dump()) for board in body.boards]
    answer: dict[str, Any] = await run_in_threadpool(accounts.import_stats, account, boards)
    return answer


class PasswordIn(BaseModel):
    """The account's password, confirming a change that cannot be undone."""

    model_config = ConfigDict(extra="forbid")

    password: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]


class NewPasswordIn(PasswordIn):
    """The current password, and the new one."""

    new_password: Annotated[
        str,
        Field(
            min_length=PASSWORD_MIN,
            max_length=PASSWORD_MAX,
            description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters",
        ),
    ]


class PasswordChangedOut(BaseModel):
    signed_out: int
    """How many other sessions of the account ended (this one goes on)."""


@router.put(
    "/me/password",
    response_model=PasswordChangedOut,
    responses=error_responses(401, 403, 422),
    summary="Change the password (and sign out every other session)",
)
async def change_password(
    body: NewPasswordIn,
    request: Request,
    accounts: Accounts,
    limiter: Limiter,
    session: SessionToken,
) -> dict[str, Any]:
    """Confirmed by the current password (`403 wrong_password` else). Every other session of
    the account ends: a password changed because it leaked also signs out whoever used it."""
    await check_rate(limiter, request, None)
    ended = await run_in_threadpool(
        accounts.change_password, session, body.password, body.new_password
    )
    return {"signed_out": ended}


@router.delete(
    "/me",
    status_code=204,
    responses=error_responses(401, 403, 422),
    summary="Delete the account",
)
async def delete_account(
    body: PasswordIn,
    request: Request,
    accounts: Accounts,
    limiter: Limiter,
    session: SessionToken,
) -> Response:
    """Confirmed by the password (`403 wrong_password` else). The account, its sessions, its
    imported statistics and its name go at once; its games stay on the server (replays,
    daily boards) as an anonymous player's, which never rank. The name is free again."""
    await check_rate(limiter, request, None)
    await run_in_threadpool(accounts.delete, session, body.password)
    answer = Response(status_code=204)
    answer.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return answer


@router.get(
    "/me/export",
    responses=error_responses(401),
    summary="Everything the server keeps about the account (JSON)",
)
async def export(accounts: Accounts, session: SessionToken) -> JSONResponse:
    """The account, its sessions (when made and until when, not their tokens), its games
    with every move, its results, its imported statistics and what operators did to it; the
    password only as the fact that its hash is kept."""
    found = await run_in_threadpool(accounts.export, session)
    return JSONResponse(
        found,
        headers={
            "Content-Disposition": 'attachment; filename="mines-account.json"',
            "Cache-Control": "no-store",
        },
    )
