"""`ServerClient`: the public HTTP API of a `mines serve` server, for the terminal game."""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from mines import __version__
from mines.errors import IllegalMoveError, InvalidBoardError
from mines.moves import MoveKind
from mines.tui.remote import ServerError

COOKIE = "mines_session"
"""The session cookie the server sets at sign-in (`mines.server.api.accounts.COOKIE`)."""
TIMEOUT = 10.0
"""Seconds a request may take, connecting included, before the client gives up on it."""
WHOLE_VIEW_CELLS = 1_000_000
"""The largest board the server answers whole (its view limit): the terminal game plays boards
up to this size on a server; bigger ones need windows, which only the browser client asks for."""
RULES = frozenset({"illegal_move", "cell_flagged", "game_over", "invalid_request"})
"""Error codes that are the game's rules refusing a move, not the service failing."""
VERBS = {MoveKind.OPEN: "reveal", MoveKind.FLAG: "flag", MoveKind.CHORD: "chord"}


class SignInError(ServerError):
    """A name and password that did not sign in or sign up (wrong, taken, not allowed)."""


def server_url(text: str) -> str:
    """The server's address as typed (`http://host:port`, a bare `host:port` taken as http),
    without a trailing slash: one server, one key in the sessions file."""
    text = text.strip()
    if "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidBoardError(f"--server needs an http:// or https:// address, got {text!r}")
    return text.rstrip("/")


class ServerClient:
    """One server's API: accounts and the session, games and their moves, hints, summaries.

    It keeps the session cookie itself (`session`), never a password; every failure is a
    `ServerError` (or, for a move the rules refuse, an `IllegalMoveError`) with one line of
    words, never an `httpx` exception.
    """

    def __init__(
        self,
        url: str,
        *,
        session: str | None = None,
        timeout: float = TIMEOUT,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = server_url(url)
        self.session = session
        """The session cookie's value while signed in, else None."""
        self.timeout = timeout
        self._http = httpx.Client(
            base_url=self.url,
            timeout=timeout,
            headers={"User-Agent": f"mines/{__version__} (terminal)"},
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    # --- requests ----------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        token: str | None = None,
        params: dict[str, str] | None = None,
    ) -> httpx.Response:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if self.session is not None:
            headers["Cookie"] = f"{COOKIE}={self.session}"
        try:
            answer = self._http.request(method, path, json=json, headers=headers, params=params)
        except httpx.TimeoutException:
            raise ServerError(
                f"{self.host} did not answer within {self.timeout:g} s", code="timeout"
            ) from None
        except httpx.TransportError as error:
            raise ServerError(
                f"cannot reach {self.url}: {error or type(error).__name__}", code="unreachable"
            ) from None
        finally:
            # The session is sent by hand above; the jar would send a second copy.
            self._http.cookies.clear()
        if answer.status_code >= 400:
            raise self._refusal(answer)
        return answer

    def _json(self, method: str, path: str, **options: Any) -> dict[str, Any]:
        answer = self._request(method, path, **options)
        try:
            body = answer.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise ServerError(
                f"{self.host} answered {method} {path} with something that is not a mines "
                "server's JSON",
                status=answer.status_code,
                code="not_json",
            )
        return body

    def _refusal(self, answer: httpx.Response) -> ServerError:
        """The error an answer of 400 or more stands for, in one line."""
        status = answer.status_code
        try:
            body = answer.json()
        except ValueError:
            body = None
        code, detail = "", ""
        if isinstance(body, dict):
            code, detail = str(body.get("code", "")), str(body.get("detail", ""))
        detail = " ".join(detail.split()) or answer.reason_phrase or f"HTTP {status}"
        if status == 429:
            wait = _seconds(answer.headers.get("Retry-After"))
            after = f"try again in {wait} s" if wait is not None else "try again in a moment"
            return ServerError(f"{self.host} is rate limiting: {after}", status=429, code=code)
        if status >= 500:
            wait = _seconds(answer.headers.get("Retry-After"))
            after = f"; try again in {wait} s" if wait is not None else "; try again later"
            return ServerError(
                f"{self.host} failed ({status} {code or 'error'}): {detail}{after}",
                status=status,
                code=code,
            )
        return ServerError(
            f"{detail} ({status} {code})" if code else detail,
            status=status,
            code=code,
            detail=detail,
        )

    # --- accounts ----------------------------------------------------------------------------

    def me(self) -> str | None:
        """The signed-in account's name, or None when the session is gone (or there is none)."""
        if self.session is None:
            return None
        try:
            return str(self._json("GET", "/api/me")["name"])
        except ServerError as error:
            if error.status == 401:
                self.session = None
                return None
            raise

    def sign_in(self, name: str, password: str) -> str:
        """Sign in; the account's name as the server shows it."""
        return self._account("/api/session", name, password)

    def sign_up(self, name: str, password: str) -> str:
        """Make an account and sign in to it; its name as the server shows it."""
        return self._account("/api/accounts", name, password)

    def _account(self, path: str, name: str, password: str) -> str:
        try:
            answer = self._request("POST", path, json={"name": name, "password": password})
        except ServerError as error:
            if error.status in (401, 403, 409, 422):
                raise SignInError(
                    str(error), status=error.status, code=error.code, detail=error.detail
                ) from None
            raise
        session = answer.cookies.get(COOKIE)
        if not session:
            raise ServerError(f"{self.host} signed in but sent no session cookie", code="cookie")
        self.session = session
        return str(answer.json()["name"])

    def sign_out(self) -> None:
        """End the session on the server (it may have ended already) and forget it here."""
        if self.session is None:
            return
        try:
            self._request("DELETE", "/api/session")
        finally:
            self.session = None

    def export(self) -> dict[str, Any]:
        """Everything the server keeps about the signed-in account (`GET /api/me/export`)."""
        return self._json("GET", "/api/me/export")

    def change_password(self, password: str, new_password: str) -> int:
        """A new password, confirmed by the current one; how many other sessions ended."""
        body = {"password": password, "new_password": new_password}
        return int(self._json("PUT", "/api/me/password", json=body)["signed_out"])

    def delete_account(self, password: str) -> None:
        """Delete the signed-in account (confirmed by its password) and forget the session."""
        self._request("DELETE", "/api/me", json={"password": password})
        self.session = None

    def player(self, name: str) -> dict[str, Any]:
        """A player's public profile (`GET /api/players/{name}`)."""
        return self._json("GET", f"/api/players/{_segment(name)}")

    # --- games -------------------------------------------------------------------------------

    def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """A new game (`POST /api/games` with `spec`): `{"id", "token", "view", "board",
        "ranks"}`. A board over `WHOLE_VIEW_CELLS` is refused here, before asking."""
        rows, cols = spec.get("rows"), spec.get("cols")
        if isinstance(rows, int) and isinstance(cols, int) and rows * cols > WHOLE_VIEW_CELLS:
            raise InvalidBoardError(
                f"a {rows}x{cols} board is over the {WHOLE_VIEW_CELLS:,} cells the terminal "
                "game plays on a server; play it locally or in the browser"
            )
        return self._json("POST", "/api/games", json=spec)

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """A game as anyone sees it: `{"id", "view", "board", "ranks"}`. A daily game is read
        only by its player until its day is over: with its `token` (or signed in to its
        account), else `ServerError` 403 `daily_not_over`; so are `summary` and `record`."""
        return self._json("GET", f"/api/games/{_segment(game_id)}", token=token)

    def move(
        self,
        game_id: str,
        token: str,
        kind: MoveKind,
        row: int,
        col: int,
        *,
        flagged: bool | None = None,
    ) -> dict[str, Any]:
        """A move: `{"view", "changed", "changed_complete"}`, the view without its cells when
        `changed` lists them all. A flag sends the state it should end in (`flagged`), so
        that it is tried once more after a timeout: the second try cannot undo the first."""
        body: dict[str, Any] = {"row": row, "col": col}
        if flagged is not None:
            body["flagged"] = flagged
        path = f"/api/games/{_segment(game_id)}/{VERBS[kind]}"
        tries = 2 if flagged is not None else 1
        for attempt in range(tries):
            try:
                return self._json("POST", path, json=body, token=token, params={"cells": "changed"})
            except ServerError as error:
                if error.code in RULES:
                    raise IllegalMoveError(error.detail) from None
                if error.code != "timeout" or attempt == tries - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def hint(self, game_id: str, token: str) -> dict[str, Any]:
        """The server's hint: `{"row", "col", "safe", "probability", "reason"}`; the game is
        marked assisted first, so it no longer ranks."""
        return self._json("POST", f"/api/games/{_segment(game_id)}/hint", token=token)

    def summary(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """A finished game's figures, and whether it ranked (`"ranked"`, `"unranked"`)."""
        return self._json("GET", f"/api/games/{_segment(game_id)}/summary", token=token)

    def record(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """A finished game's record (`GameRecord` JSON plus `id` and `created_at`)."""
        return self._json("GET", f"/api/games/{_segment(game_id)}/record", token=token)


def _segment(text: str) -> str:
    """`text` as one path segment: a name or ID cannot reach another path."""
    return quote(text, safe="")


def _seconds(value: str | None) -> int | None:
    try:
        seconds = float(value) if value is not None else math.nan
    except ValueError:
        return None
    return math.ceil(seconds) if math.isfinite(seconds) and seconds >= 0 else None
