"""The server's own errors, each with its HTTP status and stable code (`web/handlers` answers)."""

from __future__ import annotations

from mines.errors import (
    IllegalMoveError,
    MinesError,
)

ID_ECHO = 16
"""How much of a client's game ID an answer repeats: a real ID is 16 hex digits."""


def echo_id(text: str) -> str:
    """A client's ID as an answer may repeat it: at most `ID_ECHO` characters, then `…`."""
    return text if len(text) <= ID_ECHO else f"{text[:ID_ECHO]}…"


class GameNotFoundError(MinesError):
    """No game has this ID (HTTP 404)."""

    @classmethod
    def of(cls, game_id: str) -> GameNotFoundError:
        return cls(f"no game has the ID {echo_id(game_id)!r}")


class RoomNotFoundError(MinesError):
    """No race room has this ID (HTTP 404)."""


class InvalidRequestError(MinesError):
    """A request that is well formed but out of range for this server (HTTP 422)."""


class GameOverError(IllegalMoveError):
    """A move in a game that is already won or lost (HTTP 409)."""


class CellFlaggedError(IllegalMoveError):
    """A reveal of a flagged cell (HTTP 409)."""


class RetryLaterError(MinesError):
    """The server cannot take this request now; `retry_after` says when to try again (seconds)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class RateLimitedError(RetryLaterError):
    """Too many requests from one address or for one game (HTTP 429)."""


class ServerFullError(RetryLaterError):
    """The server's memory budget has no room for another game now (HTTP 503)."""


class InvalidNameError(MinesError):
    """An account name that is empty, invisible, mixed-script or outside the rule (HTTP 422)."""


class NameTakenError(MinesError):
    """An account name that is, or looks like, another account's (HTTP 409)."""


class SignInFailedError(MinesError):
    """A name and password that do not sign in, whichever was wrong (HTTP 401)."""


class PlayerNotFoundError(MinesError):
    """No account has this name, nor one that looks like it (HTTP 404)."""


class AlreadyImportedError(MinesError):
    """An account that has taken a browser's statistics asked to take them again (HTTP 409)."""


class DailyNotOverError(MinesError):
    """A daily game read by ID by someone other than its player before its day is over: it
    would show the day's board (HTTP 403). `opens_at` is when anyone may read it."""

    def __init__(self, message: str, opens_at: float):
        super().__init__(message)
        self.opens_at = opens_at


class AccountSuspendedError(MinesError):
    """A sign-in, with the right password, to an account an operator suspended (HTTP 403)."""


class WrongPasswordError(MinesError):
    """A change of password or a deletion confirmed with a password not the account's
    (HTTP 403: the session is signed in, the confirmation failed)."""


class AddressBlockedError(MinesError):
    """A request from an address or network an operator blocked (HTTP 403)."""


class NotSignedInError(MinesError):
    """A request that needs a signed-in account came without a live session (HTTP 401)."""


class WorkerDiedError(RetryLaterError):
    """A worker process ended without an answer (killed, crashed): nothing is wrong with the
    request, and trying it again may work (HTTP 503)."""


class NoGuessTimeoutError(InvalidRequestError):
    """A no-guess board that was not found within the time budget (HTTP 422)."""
