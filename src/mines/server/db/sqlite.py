"""SQLite storage: one file, one writing connection per process (`BEGIN IMMEDIATE` serialises
moves), and reading connections that never wait for a writer."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mines.server.common.metrics import STORAGE_ERRORS
from mines.server.db.sql import Cursor, SqlStorage
from mines.server.db.storage import StorageError

SYNC_MODES = ("normal", "full")
BUSY_TIMEOUT = 5.0
"""Seconds a transaction retries while another process holds the file's write lock; past it
the request is refused with 503 (nothing applied) rather than waiting on."""


READERS = 8
"""The most reading connections a process keeps open: reads run in the request threads."""


class SqliteStorage(SqlStorage):
    """Games in a SQLite file in WAL mode.

    Writes go through one connection behind a lock; reads through connections of their own,
    so that a read never waits for a write, this process's or another's: in WAL mode a reader
    sees the last commit while a writer holds the file's write lock (or waits for it).

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
        self._path, self._busy_timeout = path, busy_timeout
        self._readers: queue.LifoQueue[sqlite3.Connection] = queue.LifoQueue()
        self._reading = threading.BoundedSemaphore(READERS)
        self._closed = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = self._connect()
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

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode (isolation_level=None): transactions are begun explicitly below.
        return sqlite3.connect(
            self._path, isolation_level=None, check_same_thread=False, timeout=self._busy_timeout
        )

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Cursor]:
        if not write:
            with self._reading:
                connection = self._reader()
                try:
                    with self._begun(connection, "BEGIN") as cursor:
                        yield cursor
                finally:
                    if self._closed:
                        connection.close()
                    else:
                        self._readers.put(connection)
            return
        with self._lock, self._begun(self._connection, "BEGIN IMMEDIATE") as cursor:
            yield cursor

    def _reader(self) -> sqlite3.Connection:
        """An idle reading connection, or a new one."""
        if self._closed:
            raise StorageError("the SQLite database failed: it is closed")
        try:
            return self._readers.get_nowait()
        except queue.Empty:
            pass
        try:
            return self._connect()
        except sqlite3.Error as error:
            raise StorageError(
                f"the SQLite database failed: {error}", public=_reason(error)
            ) from error

    @contextmanager
    def _begun(self, connection: sqlite3.Connection, begin: str) -> Iterator[Cursor]:
        """A cursor in a transaction begun with `begin`, committed on a clean exit."""
        try:
            connection.execute(begin)
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

    def backup(self, target: Path) -> None:
        """Copy the database to a new SQLite file, consistent, while the server runs (SQLite's
        online backup)."""
        if target.exists():
            raise StorageError(f"{str(target)!r} exists already; name a new file")
        copy = sqlite3.connect(target)
        try:
            with self._lock:
                self._connection.backup(copy)
        except sqlite3.Error as error:
            raise StorageError(f"the backup to {str(target)!r} failed: {error}") from None
        finally:
            copy.close()

    def close(self) -> None:
        self._closed = True
        with self._lock:
            self._connection.close()
        while True:
            try:
                self._readers.get_nowait().close()
            except queue.Empty:
                return


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
