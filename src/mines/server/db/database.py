"""Choosing the storage backend by database URL, and the default SQLite file."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit, urlunsplit

from mines.server.common.logs import masked
from mines.server.db.storage import Storage, StorageError

MAX_BUSY_TIMEOUT = 60.0
MAX_POOL_SIZE = 1000


def _number(query: dict[str, list[str]], name: str, default: float, most: float) -> float:
    """A number in a database URL's query, taken out of it: from 1 (0 for a timeout) to
    `most`; a clear error otherwise."""
    text = query.pop(name, [str(default)])[0]
    least = 0 if name.endswith("timeout") else 1
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not least <= value <= most:
        raise StorageError(f"{name} is a number from {least} to {most:g}; got {text!r}")
    return value


def open_storage(url: str) -> Storage:
    """The storage a URL names: `sqlite:///path/to/file[?synchronous=full&busy_timeout=5]` or
    `postgresql://...[?schema=name&pool_size=8&pool_timeout=10]`, where every other
    parameter goes to libpq as it is (`connect_timeout=5`,
    `options=-c%20statement_timeout%3D5000`, ...)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if parts.scheme == "sqlite":
        from mines.server.db.sqlite import BUSY_TIMEOUT, SqliteStorage

        path = parts.path if parts.netloc == "" else f"{parts.netloc}{parts.path}"
        if not path or path == "/":
            raise StorageError(f"a SQLite URL needs a file: sqlite:///path/to/file, got {url!r}")
        synchronous = query.get("synchronous", ["normal"])[0]
        busy = query.get("busy_timeout", [str(BUSY_TIMEOUT)])[0]
        try:
            busy_timeout = float(busy)
        except ValueError:
            busy_timeout = -1.0
        if not 0 <= busy_timeout <= MAX_BUSY_TIMEOUT:
            raise StorageError(
                f"busy_timeout is in seconds, from 0 to {MAX_BUSY_TIMEOUT:.0f}; got {busy!r}"
            )
        return SqliteStorage(Path(path), synchronous=synchronous, busy_timeout=busy_timeout)
    if parts.scheme in {"postgresql", "postgres"}:
        from mines.server.db.postgres import POOL_SIZE, POOL_TIMEOUT, PostgresStorage

        schema = query.pop("schema", [None])[0]
        pool_size = int(_number(query, "pool_size", POOL_SIZE, MAX_POOL_SIZE))
        pool_timeout = _number(query, "pool_timeout", POOL_TIMEOUT, MAX_BUSY_TIMEOUT)
        # Re-encoded: parse_qs decoded `options=-c%20statement_timeout%3D5000` to spaces and `=`,
        # and libpq reads `+` as a plus, not a space (urlencode's default would write one).
        rest = urlencode(query, doseq=True, quote_via=quote)
        return PostgresStorage(
            urlunsplit(parts._replace(query=rest)),
            schema=schema,
            pool_size=pool_size,
            pool_timeout=pool_timeout,
        )
    raise StorageError(
        f"unknown database URL {masked(url)!r}; use sqlite:///path/to/file or "
        "postgresql://host/dbname"
    )
