"""ASGI middleware every request passes: the body size cap, security headers, cross-site writes."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mines.server.web.handlers import error

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer, errors and static files included."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuses a request body over `limit` bytes with 413 before the app parses any of it.

    A declared `Content-Length` over the limit is refused at once; a chunked body is read
    up to the limit (so memory stays bounded) and refused as soon as it passes it.
    """

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit() or int(value) > self.limit:
                    await self._refuse(scope, receive, send)
                    return
                break
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body arrived
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        answer = error(
            413,
            "body_too_large",
            f"the request body is over the limit of {self.limit:,} bytes; "
            "every request of this API fits in far less",
            {"Connection": "close"},
        )
        await answer(scope, receive, send)


SESSION_COOKIE = "mines_session"
SIGN_IN_PATHS = ("/api/session", "/api/accounts")
"""Refused cross-site even without a cookie: another site must not sign a visitor in to an
account of its choosing (login CSRF)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_ORIGIN_FETCH = frozenset({"same-origin", "none"})
"""`Sec-Fetch-Site` values of a request the page itself (or the person, typing) made."""


def cross_site(headers: Headers) -> bool:
    """Whether a browser says the request came from a page of another origin.

    `Sec-Fetch-Site` where the browser sends it (all current ones), else `Origin` against
    `Host`; a request with neither comes from a program, not from a page in a browser.
    """
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in SAME_ORIGIN_FETCH
    origin = headers.get("origin")
    if origin is None:
        return False
    return origin == "null" or urlsplit(origin).netloc != headers.get("host", "")


class CrossSite:
    """Refuses with 403 `cross_site` a request that would change something with the
    session cookie (or sign in) when a page of another site sent it: SameSite=Lax keeps the
    cookie from other sites' forms, this also from a sibling subdomain's pages."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path: str = scope.get("path", "")
        with_session = f"{SESSION_COOKIE}=" in headers.get("cookie", "")
        if (with_session or path in SIGN_IN_PATHS) and cross_site(headers):
            answer = error(
                403,
                "cross_site",
                "a page of another site cannot act for a signed-in player; "
                "use this site's own pages, or an API client without the session cookie",
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def is_json(content_type: str) -> bool:
    """Whether a `Content-Type` names JSON: `application/json` or a `+json` type, any
    parameters (`; charset=utf-8`) aside."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class JsonOnly:
    """Refuses with 415 `unsupported_media_type` an API request whose body is not declared
    JSON (a form or `text/plain`, as another site's page may send without asking), before the
    body is read. A request without a body needs no type."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] not in BODY_METHODS
            or not path.startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        has_body = "transfer-encoding" in headers or (length is not None and length != "0")
        if has_body and not is_json(headers.get("content-type", "")):
            shown = headers.get("content-type", "none")[:40]
            answer = error(
                415,
                "unsupported_media_type",
                f"the body must be JSON, sent with Content-Type: application/json (got {shown})",
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


class HeadAsGet:
    """Answers `HEAD` wherever `GET` is answered: the `GET` route runs and its body is left out
    (the headers, `Content-Length` included, stay what `GET` would send)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class CompressApi:
    """gzip for the API's answers to a client that accepts it (a review is about 40 KB of
    JSON); the static files come compressed already (`mines.server.web.assets`) and pass as
    they are, and so do WebSockets."""

    def __init__(self, app: ASGIApp, minimum_size: int):
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
