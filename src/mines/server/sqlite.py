"""SQLite storage: one file, one connection per process, `BEGIN IMMEDIATE` to serialise moves."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mines.server.metrics import STORAGE_ERRORS
from mines.server.sql import Cursor, SqlStorage
from mines.server.storage import StorageError

SYNC_MODES = ("normal", "full")
BUSY_TIMEOUT = 5.0
"""Seconds a transaction retries while another process holds the file's write lock; past it
the request is refused with 503 (nothing applied) rather than waiting on."""


class SqliteStorage(SqlStorage):
    """Games in a SQLite file in WAL mode.

    `synchronous="normal"` (the default) makes each commit survive the server process being
    killed; "full" also syncs it to disk before the answer, to survive a power cut, at about
    3 ms a move.
    """

    def __init__(
        self, path: Path, *, synchronous: str = "normal", busy_timeout: float = BUSY_TIMEOUT
    ):
        if synchronous not in SYNC_MODES:
            raise StorageError(
                f"unknown SQLite synchronous mode {synchronous!r}; use {' or '.join(SYNC_MODES)}"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode (isolation_level=None): transactions are begun explicitly below.
            self._connection = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
            )
        except (OSError, sqlite3.Error) as error:
            raise StorageError(f"cannot open the SQLite database {str(path)!r}: {error}") from None
        # SQLite writes one transaction at a time anyway; one connection behind a lock avoids
        # busy retries between this process's threads. BEGIN IMMEDIATE still locks out others.
        self._lock = threading.Lock()
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._connection.execute("PRAGMA foreign_keys=ON")
        with self.transaction(write=True) as cursor:
            self.create_tables(cursor)

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Cursor]:
        with self._lock:
            connection = self._connection
            try:
                connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield connection.cursor()
                except BaseException:
                    # Some errors (a full disk) roll the transaction back by themselves.
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                STORAGE_ERRORS.inc()
                raise StorageError(
                    f"the SQLite database failed: {error}", public=_reason(error)
                ) from error

    # A write transaction (BEGIN IMMEDIATE) already locks the whole file.
    def schema_lock(self, cursor: Cursor) -> None:
        return None

    # One SQLite file serves one server process: there is no one to tell or hear.
    def announce(self, cursor: Cursor, game_id: str) -> None:
        return None

    def listen(
        self, on_move: Callable[[str], None], on_missed: Callable[[], None]
    ) -> Callable[[], None] | None:
        return None

    def close(self) -> None:
        with self._lock:
            self._connection.close()


REASONS = (
    ("SQLITE_FULL", "the database is full"),
    ("SQLITE_BUSY", "the database is locked by another writer"),
    ("SQLITE_LOCKED", "the database is locked by another writer"),
    ("SQLITE_READONLY", "the database is read-only"),
)
"""What a client is told for SQLite's errors (by their code's name, a prefix of it)."""


def _reason(error: sqlite3.Error) -> str | None:
    """A SQLite error in the server's own words, for the client; None: say only "unavailable"."""
    name = getattr(error, "sqlite_errorname", "") or ""
    for code, words in REASONS:
        if name.startswith(code):
            return words
    return None
