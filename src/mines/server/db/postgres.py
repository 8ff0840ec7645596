"""PostgreSQL storage: a small connection pool, and NOTIFY/LISTEN for servers without Redis."""

from __future__ import annotations

import logging
import queue
import select
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql

from mines.server.common.metrics import STORAGE_ERRORS
from mines.server.db.sql import Cursor, SqlStorage
from mines.server.db.storage import StorageError

log = logging.getLogger(__name__)

POOL_SIZE = 8
"""Connections one process keeps to PostgreSQL by default (`?pool_size=` in the URL):
PostgreSQL's default 100 connections serve about 12 processes (11 without Redis, where each
keeps one more, for LISTEN)."""
POOL_TIMEOUT = 10.0
"""Seconds a request waits for a free connection by default (`?pool_timeout=`); then it is
refused with 503 rather than queueing without end."""
CHANNEL = "mines_moves"
LISTEN_POLL_SECONDS = 0.5
LISTEN_RETRY_FIRST = 0.1
LISTEN_RETRY_MOST = 5.0
"""Seconds between the listener's tries to connect again: the first wait, doubled up to this."""
SCHEMA_LOCK = 7239114
"""The advisory lock key of every table creation and migration, games' and races' alike."""


class PostgresStorage(SqlStorage):
    """Games in PostgreSQL; any number of server processes may share one database.

    With `schema`, the tables live in that schema (created if missing), so several
    servers or test runs can share one database without meeting.
    """

    placeholder = "%s"

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        pool_size: int = POOL_SIZE,
        pool_timeout: float = POOL_TIMEOUT,
    ):
        self._url = url
        self._pool_size, self._pool_timeout = pool_size, pool_timeout
        self._schema = schema
        self._origin = uuid.uuid4().hex  # tells this process's notifications from others'
        self._idle: queue.LifoQueue[psycopg.Connection[tuple[object, ...]]] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(pool_size)
        with self._connect() as setup, setup.transaction(), setup.cursor() as cursor:
            self.schema_lock(cursor)
            if schema is not None:
                name = sql.Identifier(schema)
                cursor.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(name))
                cursor.execute(sql.SQL("SET LOCAL search_path TO {}").format(name))
            self.create_tables(cursor)

    def schema_lock(self, cursor: Cursor) -> None:
        # Servers starting together must not both create a table: CREATE TABLE IF NOT EXISTS
        # is not safe against a concurrent one (a UniqueViolation on pg_type).
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        try:
            connection = psycopg.connect(self._url, autocommit=True)
            if self._schema is not None:
                connection.execute(
                    sql.SQL("SET search_path TO {}").format(sql.Identifier(self._schema))
                )
        except psycopg.Error as error:
            STORAGE_ERRORS.inc()
            raise StorageError(f"cannot connect to PostgreSQL: {error}") from None
        return connection

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Cursor]:
        # Row locks come from the moves' fenced UPDATEs: `write` needs nothing.
        if not self._slots.acquire(timeout=self._pool_timeout):
            STORAGE_ERRORS.inc()
            raise StorageError(
                f"all {self._pool_size} PostgreSQL connections of this process stayed busy for "
                f"{self._pool_timeout:g} s (pool_size and pool_timeout in the database URL)",
                public="the database is busy; try again in a moment",
            )
        try:
            connection = self._checkout()
            try:
                with connection.transaction(), connection.cursor() as cursor:
                    yield cursor
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                STORAGE_ERRORS.inc()
                raise StorageError(f"the PostgreSQL database failed: {error}") from error
            finally:
                if connection.closed or connection.broken:
                    connection.close()
                else:
                    self._idle.put(connection)
        finally:
            self._slots.release()

    def _checkout(self) -> psycopg.Connection[tuple[object, ...]]:
        """An idle connection that is still alive, else a new one.

        An idle connection receives nothing, so a readable socket means the server ended it
        (a restart, `pg_terminate_backend`): it is dropped here, before a request uses it,
        and the request runs on a new connection instead of failing.
        """
        while True:
            try:
                connection = self._idle.get_nowait()
            except queue.Empty:
                return self._connect()
            try:
                ended = bool(select.select([connection.fileno()], [], [], 0)[0])
            except (OSError, ValueError, psycopg.Error):
                ended = True
            if not ended:
                return connection
            connection.close()

    def announce(self, cursor: Cursor, game_id: str) -> None:
        # Delivered at commit, to every process listening, this one included (it skips its own).
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self._origin} {game_id}"))

    def listen(
        self, on_move: Callable[[str], None], on_missed: Callable[[], None]
    ) -> Callable[[], None] | None:
        connection = self._listening()
        stopped = threading.Event()

        def run() -> None:
            listening: psycopg.Connection[tuple[object, ...]] | None = connection
            wait = LISTEN_RETRY_FIRST
            while not stopped.is_set():
                try:
                    if listening is None:
                        listening = self._listening()
                        log.warning("the PostgreSQL listener is connected again: watchers re-read")
                        wait = LISTEN_RETRY_FIRST
                        on_missed()  # after LISTEN: whatever came before is read again
                    self._hear(listening, on_move)
                except (psycopg.Error, StorageError) as failure:
                    if listening is not None:  # the loss; a failed retry is not news
                        log.warning(
                            "the PostgreSQL listener lost its connection (%s); moves of other "
                            "processes reach no watcher here until it is back (retrying)",
                            str(failure).strip() or type(failure).__name__,
                        )
                        listening.close()
                        listening = None
                    stopped.wait(wait)
                    wait = min(wait * 2, LISTEN_RETRY_MOST)
            if listening is not None:
                listening.close()

        thread = threading.Thread(target=run, name="mines-listen", daemon=True)
        thread.start()

        def stop() -> None:
            stopped.set()
            thread.join(LISTEN_POLL_SECONDS * 4)

        return stop

    def _listening(self) -> psycopg.Connection[tuple[object, ...]]:
        """A new connection that listens to the moves' channel."""
        connection = self._connect()
        try:
            connection.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error:
            connection.close()
            raise
        return connection

    def _hear(
        self, connection: psycopg.Connection[tuple[object, ...]], on_move: Callable[[str], None]
    ) -> None:
        """Pass on the notifications of one poll (others' moves; this process's are skipped)."""
        for note in connection.notifies(timeout=LISTEN_POLL_SECONDS):
            origin, _, game_id = note.payload.partition(" ")
            if origin != self._origin:
                on_move(game_id)

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
