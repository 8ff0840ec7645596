"""Who may read a game by its ID: anyone, but a daily game only its own player until its day
is over (its view, record and replay would show the day's board)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool

from mines.server.api.sessions import session_account
from mines.server.common.auth import is_token
from mines.server.common.errors import DailyNotOverError, GameNotFoundError
from mines.server.services.accounts import AccountService
from mines.server.services.games import GameService


@dataclass(frozen=True)
class Readers:
    """The check of one request (`deps.GameReaders`): the services and the session it has."""

    games: GameService
    accounts: AccountService
    session: str | None
    """The request's session cookie: its account is looked up only for a daily game's."""

    async def check(self, game_id: str, token: str | None) -> None:
        """Raise `DailyNotOverError` when the game is a daily game whose day is not over and
        the reader is not its player: neither holding its `token` nor signed in to the account
        that created it. `GameNotFoundError` when no game has the ID."""
        row = await run_in_threadpool(self.games.storage.load, game_id)
        if row is None:
            raise GameNotFoundError.of(game_id)
        opens_at = self.games.sealed_until(row)
        if opens_at is None or (token and is_token(token, row.token_hash)):
            return
        if row.account_id is not None:
            account = await session_account(self.accounts, self.session)
            if account is not None and account.id == row.account_id:
                return
        opens = datetime.fromtimestamp(opens_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        # Short enough for a WebSocket's close reason (at most 123 bytes).
        raise DailyNotOverError(
            f"only its player may read this daily game ({row.daily}) until the day is over, "
            f"at {opens}",
            opens_at,
        )
