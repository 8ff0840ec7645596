"""Game tokens: each game's bearer token, stored only as a hash and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from mines.errors import MinesError


class NotAuthenticatedError(MinesError):
    """A move came without an `Authorization: Bearer <token>` header (HTTP 401)."""


class ForbiddenError(MinesError):
    """A move came with a token that is not this game's (HTTP 403)."""


MISSING_TOKEN = "moves need this game's token: send the header Authorization: Bearer <token>"
ROOM_TOKEN = "race moves need your player token: send the header Authorization: Bearer <token>"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def is_token(token: str, token_hash: str) -> bool:
    """Whether `token` is the one whose hash the game stored (in constant time)."""
    return hmac.compare_digest(hash_token(token), token_hash)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header's value (the scheme in any case,
    as FastAPI's `HTTPBearer` reads it); None without one. The one reading of the header: the
    routes' dependency (`deps.Token`), the rate limiter and the live sockets use it."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def check_token(token: str | None, token_hash: str) -> None:
    """Raise unless `token` is the one whose hash the game stored."""
    if not token:
        raise NotAuthenticatedError(MISSING_TOKEN)
    if not is_token(token, token_hash):
        raise ForbiddenError("this token does not belong to this game")
