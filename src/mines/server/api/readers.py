"""Who may read a game by its ID: anyone, but a daily game only its own player until its day
is over (its view, record and replay would show the day's board)."""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from mines.server.api.deps import service
from mines.server.api.sessions import signed_in_account
from mines.server.common.auth import is_token
from mines.server.common.errors import DailyNotOverError, GameNotFoundError


async def check_reader(connection: HTTPConnection, game_id: str, token: str | None) -> None:
    """Raise `DailyNotOverError` when the game is a daily game whose day is not over and the
    reader is not its player: neither holding its `token` nor signed in to the account that
    created it. `GameNotFoundError` when no game has the ID."""
    games = service(connection)
    row = await run_in_threadpool(games.storage.load, game_id)
    if row is None:
        raise GameNotFoundError.of(game_id)
    opens_at = games.sealed_until(row)
    if opens_at is None or (token and is_token(token, row.token_hash)):
        return
    if row.account_id is not None:
        account = await signed_in_account(connection)
        if account is not None and account.id == row.account_id:
            return
    opens = datetime.fromtimestamp(opens_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    # Short enough for a WebSocket's close reason (at most 123 bytes).
    raise DailyNotOverError(
        f"only its player may read this daily game ({row.daily}) until the day is over, at {opens}",
        opens_at,
    )
