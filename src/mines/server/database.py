"""Choosing the storage backend by database URL, and the default SQLite file."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit, urlunsplit

from mines.datadir import data_dir
from mines.server.storage import Storage, StorageError

MAX_BUSY_TIMEOUT = 60.0


def default_database(folder: Path | None = None) -> str:
    """The SQLite file `mines.sqlite3` in `folder`, by default the data folder of `mines`."""
    return f"sqlite:///{(folder or data_dir()) / 'mines.sqlite3'}"


def open_storage(url: str) -> Storage:
    """The storage a URL names: `sqlite:///path/to/file[?synchronous=full&busy_timeout=5]` or
    `postgresql://...[?schema=name]`."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if parts.scheme == "sqlite":
        from mines.server.sqlite import BUSY_TIMEOUT, SqliteStorage

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
        from mines.server.postgres import PostgresStorage

        schema = query.pop("schema", [None])[0]
        # Re-encoded: parse_qs decoded `options=-c%20statement_timeout%3D5000` to spaces and `=`.
        rest = urlencode(query, doseq=True, quote_via=quote)
        return PostgresStorage(urlunsplit(parts._replace(query=rest)), schema=schema)
    raise StorageError(
        f"unknown database URL {url!r}; use sqlite:///path/to/file or postgresql://host/dbname"
    )
