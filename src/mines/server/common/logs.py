"""The server's log: JSON or text lines on stderr, each with the ID of the request it is about."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlsplit, urlunsplit

LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("debug", "info", "warning", "error")

REQUEST_ID: ContextVar[str | None] = ContextVar("mines_request_id", default=None)
"""The ID of the request being served, set by `Observe` for everything that runs for it (its
threads included: they run in a copy of the request's context)."""

ACCESS = logging.getLogger("mines.access")
"""One INFO line per request; `--log-level warning` or `--no-access-log` silences it."""

ACCESS_FIELDS = ("method", "path", "route", "status", "duration_ms", "client")


SECRET_QUERY = re.compile(r"(?i)\b(password|passwd|pass|secret|token|key)=[^&;]*")
"""Query values a URL may carry a secret in (libpq's `?password=`, a game's `?token=`)."""
MASK = "***"


def masked(url: str) -> str:
    """A URL as a log or a banner may print it: the password of its user part and the values
    of secret-looking query fields written as `***`."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return MASK  # not a URL one can tell the secret of: nothing of it is shown
    netloc = parts.netloc
    if password is not None:
        user_info, _, host = netloc.rpartition("@")
        netloc = f"{user_info.partition(':')[0]}:{MASK}@{host}"
    query = SECRET_QUERY.sub(lambda found: f"{found[1]}={MASK}", parts.query)
    if (netloc, query) == (parts.netloc, parts.query):
        return url  # as written (urlunsplit would make sqlite:////x sqlite://x)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


WEBSOCKET_LINES = ('%s - "WebSocket ',)
"""uvicorn's own lines for each WebSocket handshake (`"WebSocket /path?query" [accepted]`):
they would log a daily game's `?token=`, and they are access lines without the request ID."""
WEBSOCKET_MESSAGES = frozenset({"connection open", "connection closed"})
"""The websockets library's line for each socket opened and closed, through uvicorn's logger."""


class NoWebSocketLines(logging.Filter):
    """Drops uvicorn's WebSocket handshake lines (the sockets are counted in the metrics)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg
        return not (
            isinstance(message, str)
            and (message.startswith(WEBSOCKET_LINES) or message in WEBSOCKET_MESSAGES)
        )


class RequestId(logging.Filter):
    """Puts the current request's ID on every record (`-` outside requests)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get() or "-"
        return True


def utc_time(record: logging.LogRecord) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, request ID, the access
    fields of an access line, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": utc_time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", "-")
        if request_id != "-":
            line["request_id"] = request_id
        for name in ACCESS_FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """`time level logger [request ID] message`, the traceback below an error."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_time(record)


class AccessWriter:
    """Writes access lines straight to the log's handler's stream, in its format.

    An access line through `logging` (a record, its filter, its formatter) costs about as
    much as the rest of the server's bookkeeping of a request; `configure` installs this
    writer, which makes the same line at a fraction of it. Without `configure` (the server
    embedded in another program, or tests) access lines go through `logging` as usual.
    """

    def __init__(self, handler: logging.StreamHandler[Any], form: str):
        self.handler = handler
        self.json = form == "json"
        self._second = -1
        self._stamp = ""

    def _time(self, now: float) -> str:
        second = int(now)
        if second != self._second:  # one strftime a second, not one a request
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._stamp}.{int((now - second) * 1000):03d}Z"

    def write(self, fields: dict[str, Any], message: str, request_id: str) -> None:
        stamp = self._time(time.time())
        if self.json:
            line = {"time": stamp, "level": "INFO", "logger": ACCESS.name, "message": message}
            line["request_id"] = request_id
            line.update(fields)
            text = json.dumps(line, ensure_ascii=False)
        else:
            text = f"{stamp} INFO {ACCESS.name} [{request_id}] {message}"
        self.handler.acquire()  # whole lines, between other threads' records
        try:
            stream = self.handler.stream
            stream.write(text + "\n")
            stream.flush()
        finally:
            self.handler.release()


_writer: AccessWriter | None = None


def configure(level: str = "info", form: str = "text", *, access: bool = True) -> None:
    """Send every logger's records (the server's, uvicorn's, the libraries') to stderr in
    `form`, from `level` up."""
    global _writer
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestId())
    handler.setFormatter(JsonFormatter() if form == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # uvicorn's own access lines would repeat ours without the request ID or the route.
    logging.getLogger("uvicorn.access").disabled = True
    uvicorn_error = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, NoWebSocketLines) for f in uvicorn_error.filters):
        uvicorn_error.addFilter(NoWebSocketLines())
    ACCESS.disabled = not access
    _writer = AccessWriter(handler, form)


def access_line(
    method: str, path: str, route: str, status: int, seconds: float, client: str
) -> None:
    """Log one request's access line (its ID comes from the context)."""
    if not ACCESS.isEnabledFor(logging.INFO):
        return
    duration_ms = round(seconds * 1000, 3)
    request_id = REQUEST_ID.get() or "-"
    # A client's path, escaped: no line breaks or forged fields.
    shown = path.encode("unicode_escape").decode("ascii")
    message = f"{method} {shown} {status} {duration_ms:.1f} ms {client}"
    fields = {"method": method, "path": path, "route": route, "status": status}
    fields["duration_ms"], fields["client"] = duration_ms, client
    writer = _writer
    # Only while `configure`'s handler is the one place records go: any other handler added
    # since (a test's capture, an embedding program's) gets the record as usual.
    alone = writer is not None and logging.getLogger().handlers == [writer.handler]
    if writer is not None and alone and not ACCESS.handlers:
        writer.write(fields, message, request_id)
        return
    # Made and handled directly: `Logger.info` would also look up its caller's file and line
    # in the stack, for a line that never shows them.
    record = ACCESS.makeRecord(ACCESS.name, logging.INFO, "", 0, message, (), None)
    record.__dict__.update(fields)
    record.request_id = request_id
    ACCESS.handle(record)
