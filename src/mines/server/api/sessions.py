"""Who a request is signed in as: the session cookie and the account it names."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from mines.server.common.errors import NotSignedInError
from mines.server.db.storage import AccountRow
from mines.server.services.accounts import AccountService

COOKIE = "mines_session"


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
