"""`AccountService`: accounts with Argon2id passwords and server-side sessions, free of HTTP."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from mines.errors import JoinRefusedError
from mines.ranking import period_key
from mines.server.common.auth import hash_token
from mines.server.common.errors import (
    AccountSuspendedError,
    AlreadyImportedError,
    NameTakenError,
    NotSignedInError,
    PlayerNotFoundError,
    SignInFailedError,
    WrongPasswordError,
)
from mines.server.common.settings import SESSION_DAYS
from mines.server.db.storage import AccountRow, ImportedBoard, SessionRow, Storage
from mines.server.services.names import check_scripts, skeletons, stored_name
from mines.server.services.profiles import (
    entry,
    history_page,
    imported_json,
    next_cursor,
    profile,
)

SESSION_SECONDS = SESSION_DAYS * 24 * 3600
"""A session's length unless the settings say (`Settings.session_days`)."""
"""How long a session lasts after its sign-in; signing in again starts a new one."""
PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""Password lengths in characters: NIST SP 800-63B's minimum of 8, and a maximum far above any
passphrase that still bounds the work of hashing one."""
SIGN_IN_FAILED = "this name and password do not sign in"
SUSPENDED = "this account is suspended by the server's operators; it cannot sign in"
WRONG_PASSWORD = "the password given is not this account's; nothing was changed"
ALREADY_IMPORTED = (
    "this account has already taken a browser's statistics, and takes them only once (they "
    "cannot be checked, so they are never merged twice)"
)


def taken(name: str) -> str:
    return (
        f"the name {name!r} is taken: it is, or looks like, another player's name (names are "
        "compared without case, invisible characters or look-alike letters)"
    )


WITHHELD = "this name is withheld by the server's operators; race under another"
"""Why a withheld name may not race (`JoinRefusedError`)."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: the account, and the token its cookie carries (shown only now)."""

    account: AccountRow
    token: str


class AccountService:
    """Creates accounts, signs in and out, and says who a session token belongs to.

    Passwords are hashed with Argon2id at argon2-cffi's defaults (RFC 9106's second
    recommendation: 64 MiB, 3 passes, 4 lanes; above OWASP's minimum of 19 MiB, 2 passes,
    1 lane). Session tokens are stored as their SHA-256 only, as games' tokens are.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        wall: Callable[[], float] = time.time,
        session_seconds: int = SESSION_SECONDS,
    ):
        self.storage = storage
        self._wall = wall
        self.session_seconds = session_seconds
        """How long a session lasts from its sign-in (`Settings.session_days`)."""
        self._hasher = PasswordHasher()

    @cached_property
    def _dummy(self) -> str:
        """Verified against for names that have no account, so that a sign-in takes as long
        whether the name exists or not. Made at the first need: every test app need not."""
        return self._hasher.hash(secrets.token_urlsafe(16))

    def create(self, name: str, password: str, old_token: str | None = None) -> SignedIn:
        """A new account, signed in; `NameTakenError` when its name looks like another's."""
        shown = stored_name(name)
        skeleton, skeleton_cased = skeletons(shown)
        if not self.storage.name_free(skeleton, skeleton_cased):
            raise NameTakenError(taken(shown))
        check_scripts(shown)
        account = AccountRow(
            id=secrets.token_hex(8),
            name=shown,
            skeleton=skeleton,
            skeleton_cased=skeleton_cased,
            password_hash=self._hasher.hash(password),
            created_at=self._wall(),
        )
        if not self.storage.create_account(account):  # taken since it was free, above
            raise NameTakenError(taken(shown))
        return self._start(account, old_token)

    def check_guest_name(self, name: str, account: AccountRow | None) -> None:
        """The one check of a name given without an account (a racer's): `JoinRefusedError`
        when it is, or looks like, a name the operators withheld (`mines admin account
        hide|suspend`: what leaves the leaderboard leaves races too); `NameTakenError` when it
        is, or looks like, an account's name and `account` (who is signed in, if anyone) is
        not that one."""
        skeleton, skeleton_cased = skeletons(name)
        if self.storage.name_withheld(skeleton):
            raise JoinRefusedError(WITHHELD)
        if account is not None and (
            skeleton == account.skeleton or skeleton_cased == account.skeleton_cased
        ):
            return  # the account's own name, or a look-alike of it: theirs to use
        if not self.storage.name_free(skeleton, skeleton_cased):
            raise NameTakenError(
                f"the name {name!r} is an account's (or looks like one): sign in to that "
                "account to race under it, or choose another name"
            )

    def sign_in(self, name: str, password: str, old_token: str | None = None) -> SignedIn:
        """A new session for the account `name` names, ending the session `ended` (the hash
        token the client held, if any); `SignInFailedError` for a wrong name or
        password alike, after the same work."""
        account = self.storage.find_account(skeletons(name)[0])
        try:
            if account is None:
                self._hasher.verify(self._dummy, password)
                raise SignInFailedError(SIGN_IN_FAILED)
            self._hasher.verify(account.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise SignInFailedError(SIGN_IN_FAILED) from None
        if account.suspended_at is not None:  # said only to whoever knows the password
            raise AccountSuspendedError(SUSPENDED)
        if self._hasher.check_needs_rehash(account.password_hash):
            # Stronger parameters since this hash was made: it is made again, with them.
            self.storage.set_password_hash(account.id, self._hasher.hash(password))
        return self._start(account, old_token)

    def change_password(self, token: str | None, password: str, new_password: str) -> int:
        """Set the signed-in account's password, confirmed by its current one, and end every
        other session it has; the number ended. `WrongPasswordError` changes nothing."""
        account = self.account(token)
        assert token is not None  # `account` found it
        self._confirm(account, password)
        return self.storage.change_password(
            account.id, self._hasher.hash(new_password), hash_token(token)
        )

    def delete(self, token: str | None, password: str) -> AccountRow:
        """Delete the signed-in account, confirmed by its password: the account, its
        sessions, its imported statistics go; its games stay as an anonymous player's."""
        account = self.account(token)
        self._confirm(account, password)
        self.storage.delete_account(account.id)
        return account

    def export(self, token: str | None) -> dict[str, Any]:
        """Everything the database keeps about the signed-in account (GDPR articles 15, 20)."""
        account = self.account(token)
        found = self.storage.account_export(account.id)
        found["password"] = "kept only as an Argon2id hash, which is not shown"
        return found

    def prune_sessions(self) -> int:
        """Delete the sessions that expired; how many there were."""
        return self.storage.prune_sessions(self._wall())

    def _confirm(self, account: AccountRow, password: str) -> None:
        try:
            self._hasher.verify(account.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise WrongPasswordError(WRONG_PASSWORD) from None

    def sign_out(self, token: str) -> None:
        self.storage.end_session(hash_token(token))

    def account(self, token: str | None) -> AccountRow:
        """The account a session token signs in; `NotSignedInError` when none does."""
        found = None if not token else self.storage.session_account(hash_token(token), self._wall())
        if found is None:
            raise NotSignedInError("nobody is signed in here; sign in with POST /api/session")
        return found

    def import_stats(self, account: AccountRow, boards: list[ImportedBoard]) -> dict[str, Any]:
        """Add a browser's own statistics to the account, once: they are kept apart from its
        games and never rank. `AlreadyImportedError` the second time. Returns them as the
        profile shows them."""
        at = self._wall()
        if not self.storage.import_stats(account.id, at, boards):
            raise AlreadyImportedError(ALREADY_IMPORTED)
        return imported_json(at, boards)

    def _public_account(self, name: str) -> AccountRow:
        """The account `name` names (or a look-alike of it names), unless its name is hidden."""
        account = self.storage.find_account(skeletons(name)[0])
        if account is None or account.hidden:
            shown = name if len(name) <= 32 else f"{name[:32]}…"
            raise PlayerNotFoundError(f"no player has the name {shown!r}")
        return account

    def history(
        self,
        name: str,
        cursor: str | None = None,
        board: str | None = None,
        result: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """A page of the player's finished games, newest first, and the cursor of the next
        page (None after the oldest); a daily game of today is left out, as the profile
        leaves it (`profiles.history_page`)."""
        today = period_key("day", self._wall())
        page = history_page(cursor, board, result, limit, today)
        account = self._public_account(name)
        games = self.storage.account_history(account.id, page)
        return {"games": [entry(game) for game in games], "next": next_cursor(games, limit)}

    def public_profile(self, name: str) -> dict[str, Any]:
        """The profile of the account `name` names (or a look-alike of it names)."""
        account = self._public_account(name)
        today = period_key("day", self._wall())
        games = self.storage.account_games(account.id)
        found = profile(account, games, today)
        if account.stats_imported_at is not None:
            boards = self.storage.imported_stats(account.id)
            found["imported"] = imported_json(account.stats_imported_at, boards)
        return found

    def _start(self, account: AccountRow, old_token: str | None) -> SignedIn:
        token = secrets.token_urlsafe(32)
        now = self._wall()
        session = SessionRow(hash_token(token), account.id, now, now + self.session_seconds)
        self.storage.start_session(session, None if old_token is None else hash_token(old_token))
        return SignedIn(account, token)
