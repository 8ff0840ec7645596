"""Who a request is signed in as: the session cookie's name and the account a session names."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool

from mines.server.common.errors import NotSignedInError
from mines.server.db.storage import AccountRow
from mines.server.services.accounts import AccountService

COOKIE = "mines_session"


async def session_account(accounts: AccountService, token: str | None) -> AccountRow | None:
    """The account a session cookie's `token` signs in, or None (no cookie, or a session
    that ended or expired: the request is then anonymous)."""
    if token is None:
        return None
    try:
        return await run_in_threadpool(accounts.account, token)
    except NotSignedInError:
        return None
