"""The SQL both database backends share: tables, queries and the move transaction."""

from __future__ import annotations

import json
import os
import secrets
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from functools import cached_property
from typing import Any, Protocol

from mines.presets import PRESETS
from mines.ranking import MEASURES, PERIODS, period_key, rank_value
from mines.server.db import layouts
from mines.server.db.storage import (
    ANONYMOUS,
    AccountGame,
    AccountRow,
    Best,
    GameRow,
    HistoryPage,
    ImportedBoard,
    Moderation,
    MoveWrite,
    Result,
    SessionRow,
    StaleGameError,
    StorageError,
    StoredMove,
    StoredReview,
)

SCHEMA_V1 = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        nrows INTEGER NOT NULL,
        ncols INTEGER NOT NULL,
        nmines BIGINT NOT NULL,
        rule TEXT NOT NULL,
        seed BIGINT NOT NULL,
        player TEXT NOT NULL,
        preset TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        layout TEXT,
        status TEXT NOT NULL,
        version INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS results (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        preset TEXT NOT NULL,
        no_guess BOOLEAN NOT NULL,
        player TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS results_rank ON results (preset, no_guess, time)",
)
"""The tables as they were before the schema had a version (databases made until then)."""


class Cursor(Protocol):
    """The part of a DB-API cursor that both sqlite3 and psycopg provide."""

    @property
    def rowcount(self) -> int: ...

    def execute(self, query: str, params: Sequence[Any] = ..., /) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


Step = str | Callable[[Cursor, Callable[[str], str]], None]
"""A migration step: an SQL statement, or a function of the cursor and the function that
writes a query's placeholders for the backend."""


def compact_layouts(cursor: Cursor, sql: Callable[[str], str]) -> None:
    """Rewrite the JSON layouts of earlier versions in the compact form of `layouts`, one
    game at a time (an old dense layout could be 19 MB)."""
    cursor.execute("SELECT id FROM games WHERE substr(layout, 1, 1) = '['")
    for (game_id,) in cursor.fetchall():
        cursor.execute(sql("SELECT nrows, ncols, layout FROM games WHERE id = ?"), (game_id,))
        rows, cols, text = cursor.fetchone()
        compact = layouts.encode(layouts.from_json(text), int(rows), int(cols))
        cursor.execute(sql("UPDATE games SET layout = ? WHERE id = ?"), (compact, game_id))


BEST_COLUMNS = (
    "account_id, preset, no_guess, no_flags, period, measure, value, game_id, time, three_bv, "
    "clicks, finished_at"
)


def store_bests(cursor: Cursor, sql: Callable[[str], str], result: Result) -> None:
    """Keep a ranked win (off daily boards, of an account) in `bests` wherever it beats the
    account's best: on the board of each period it falls in (`mines.ranking.period_key`) and
    each measure it ranks by (`rank_value`), and for a no-flag win on the no-flag boards too.
    One statement; a board is then one range of the index `bests_board`."""
    if result.account_id is None or result.daily is not None:
        return
    rows: list[tuple[Any, ...]] = []
    for no_flags in (False, True) if result.no_flags else (False,):
        for period in PERIODS:
            key = period_key(period, result.finished_at)
            for measure in MEASURES:
                value = rank_value(
                    measure, result.preset, result.time, result.three_bv, result.clicks
                )
                if value is not None:
                    rows.append(
                        (result.account_id, result.preset, result.no_guess, no_flags, key,
                         measure, value, result.game_id, result.time, result.three_bv,
                         result.clicks, result.finished_at)
                    )  # fmt: skip
    if not rows:
        return
    marks = ", ".join(["(" + ", ".join("?" * 12) + ")"] * len(rows))
    kept = ", ".join(f"{name} = excluded.{name}" for name in BEST_COLUMNS.split(", ")[6:])
    cursor.execute(
        sql(
            f"INSERT INTO bests ({BEST_COLUMNS}) VALUES {marks} "
            "ON CONFLICT (account_id, preset, no_guess, no_flags, period, measure) "
            f"DO UPDATE SET {kept} WHERE excluded.value < bests.value"
        ),
        [value for row in rows for value in row],
    )


def fill_bests(cursor: Cursor, sql: Callable[[str], str]) -> None:
    """Give the results stored before version 15 their 3BV, clicks and no-flag mark from
    their games, and put each ranked one on the boards by period and measure."""
    cursor.execute(
        "UPDATE games SET no_flags = TRUE WHERE status = 'WON' AND NOT EXISTS "
        "(SELECT 1 FROM moves m WHERE m.game_id = games.id AND m.move LIKE 'F%') "
        """AND (history IS NULL OR history NOT LIKE '%["F%')"""
    )
    for column, value in (
        ("three_bv", "COALESCE(g.three_bv, 0)"),
        ("clicks", "g.version + g.wasted"),
        ("no_flags", "g.no_flags"),
    ):
        cursor.execute(
            f"UPDATE results SET {column} = (SELECT {value} FROM games g "
            "WHERE g.id = results.game_id)"
        )
    rank_results(cursor, sql)


def rank_results(cursor: Cursor, sql: Callable[[str], str], account_id: str | None = None) -> None:
    """Put the stored ranked results (of one account, or all) on the boards by period and
    measure (`store_bests`); assisted games and daily boards' results left out."""
    where = "" if account_id is None else " AND r.account_id = ?"
    cursor.execute(
        sql(
            "SELECT r.game_id, r.preset, r.no_guess, r.player, r.time, r.finished_at, "
            "r.account_id, r.no_flags, r.three_bv, r.clicks FROM results r "
            "JOIN games g ON g.id = r.game_id "
            "WHERE r.account_id IS NOT NULL AND r.daily IS NULL AND NOT g.assisted" + where
        ),
        () if account_id is None else (account_id,),
    )
    for game_id, preset, ng, player, time, finished, account, nf, bv, clicks in cursor.fetchall():
        result = Result(
            game_id, preset, bool(ng), player, float(time), float(finished), account, None,
            bool(nf), int(bv), int(clicks),
        )  # fmt: skip
        store_bests(cursor, sql, result)


MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    SCHEMA_V1,
    # 2: whether a player had help (hints, analysis); assisted games never rank.
    ("ALTER TABLE games ADD COLUMN assisted BOOLEAN NOT NULL DEFAULT FALSE",),
    # 3: layouts stored compactly (a bit mask or cell indices) instead of JSON pairs.
    (compact_layouts,),
    # 4: moves asked for that changed nothing (not stored), for the end-of-game figures.
    ("ALTER TABLE games ADD COLUMN wasted INTEGER NOT NULL DEFAULT 0",),
    # 5: finished games' reviews, computed once; `format` tells an old review from a current.
    (
        """CREATE TABLE IF NOT EXISTS reviews (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            format INTEGER NOT NULL,
            body TEXT NOT NULL
        )""",
    ),
    # 6: accounts, their names unique by both look-alike skeletons, and their sign-in sessions.
    (
        """CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            skeleton TEXT NOT NULL UNIQUE,
            skeleton_cased TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (id),
            created_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX sessions_account ON sessions (account_id)",
    ),
    # 7: games and results belong to the account signed in when the game was created.
    (
        "ALTER TABLE games ADD COLUMN account_id TEXT REFERENCES accounts (id)",
        "ALTER TABLE results ADD COLUMN account_id TEXT REFERENCES accounts (id)",
        "CREATE INDEX results_account ON results (account_id)",
    ),
    # 8: what a game's last move stores for its player's statistics.
    (
        "ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN elapsed DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN three_bv INTEGER",
        "CREATE INDEX games_account ON games (account_id, finished_at)",
    ),
    # 9: a review the solver refused (a position too tangled to count) is kept as one.
    ("ALTER TABLE reviews ADD COLUMN refused BOOLEAN NOT NULL DEFAULT FALSE",),
    # 10: daily boards: one seed per day, preset and kind; games and results on them.
    (
        """CREATE TABLE daily_boards (
            day TEXT NOT NULL,
            preset TEXT NOT NULL,
            no_guess BOOLEAN NOT NULL,
            seed BIGINT NOT NULL,
            PRIMARY KEY (day, preset, no_guess)
        )""",
        "ALTER TABLE games ADD COLUMN daily TEXT",
        "ALTER TABLE results ADD COLUMN daily TEXT",
    ),
    # 11: a browser's own statistics, taken once per account, kept apart from its games.
    (
        "ALTER TABLE accounts ADD COLUMN stats_imported_at DOUBLE PRECISION",
        """CREATE TABLE imported_stats (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            preset TEXT NOT NULL,
            no_guess BOOLEAN NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            best_time DOUBLE PRECISION,
            best_three_bv_per_second DOUBLE PRECISION,
            PRIMARY KEY (account_id, preset, no_guess)
        )""",
    ),
    # 12: race rooms, their players' token hashes and their move logs. IF NOT EXISTS: before
    # this migration the rooms' service made them itself, at start.
    (
        """CREATE TABLE IF NOT EXISTS races (
            id TEXT PRIMARY KEY,
            spec TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            state TEXT NOT NULL,
            version INTEGER NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS race_players (
            race_id TEXT NOT NULL REFERENCES races (id),
            player INTEGER NOT NULL,
            token_hash TEXT NOT NULL,
            PRIMARY KEY (race_id, player)
        )""",
        """CREATE TABLE IF NOT EXISTS race_moves (
            race_id TEXT NOT NULL REFERENCES races (id),
            seq INTEGER NOT NULL,
            move TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (race_id, seq)
        )""",
    ),
    # 13: leaving and moderation: suspended and hidden accounts, blocked networks, and the log
    # of what operators did (who, when, why); sessions pruned by their expiry.
    (
        "ALTER TABLE accounts ADD COLUMN suspended_at DOUBLE PRECISION",
        "ALTER TABLE accounts ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE",
        """CREATE TABLE blocked_networks (
            network TEXT PRIMARY KEY,
            blocked_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE moderation_log (
            at DOUBLE PRECISION NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            reason TEXT NOT NULL,
            account_id TEXT
        )""",
        "CREATE INDEX moderation_log_account ON moderation_log (account_id)",
        "CREATE INDEX sessions_expiry ON sessions (expires_at)",
    ),
    # 14: the process that stored a game's last move (its owner), and a finished game's moves
    # folded into its own row by `mines admin prune` (`history`, see `compact_history`).
    (
        "ALTER TABLE games ADD COLUMN owner TEXT",
        "ALTER TABLE games ADD COLUMN history TEXT",
    ),
    # 15: no-flag wins; each account's best per board by period and measure (`bests`, kept by
    # the move that wins: a board is one index range, `store_bests`); a player's history
    # paged by (finished_at, id); public race rooms, listed in the lobby.
    (
        "ALTER TABLE games ADD COLUMN no_flags BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE results ADD COLUMN no_flags BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE results ADD COLUMN three_bv INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE results ADD COLUMN clicks INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE bests (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            preset TEXT NOT NULL,
            no_guess BOOLEAN NOT NULL,
            no_flags BOOLEAN NOT NULL,
            period TEXT NOT NULL,
            measure TEXT NOT NULL,
            value DOUBLE PRECISION NOT NULL,
            game_id TEXT NOT NULL REFERENCES games (id),
            time DOUBLE PRECISION NOT NULL,
            three_bv INTEGER NOT NULL,
            clicks INTEGER NOT NULL,
            finished_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (account_id, preset, no_guess, no_flags, period, measure)
        )""",
        "CREATE INDEX bests_board ON bests "
        "(preset, no_guess, no_flags, period, measure, value, finished_at)",
        "CREATE INDEX games_history ON games (account_id, finished_at, id)",
        "DROP INDEX games_account",
        "ALTER TABLE races ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE",
        "CREATE INDEX races_open ON races (public, state, created_at)",
        fill_bests,
    ),
)
"""`MIGRATIONS[i]` takes a database from schema version i to i + 1, in order."""
SCHEMA_VERSION = len(MIGRATIONS)

GAME_COLUMNS = (
    "id, token_hash, nrows, ncols, nmines, rule, seed, player, preset, created_at, "
    "layout, status, version, assisted, wasted, account_id, daily"
)


LEADERBOARD = """
SELECT game_id, preset, no_guess, player, time, finished_at, account_id FROM (
    SELECT r.game_id, r.preset, r.no_guess, a.name AS player, r.time, r.finished_at,
        r.account_id,
        ROW_NUMBER() OVER (PARTITION BY r.account_id ORDER BY r.time, r.finished_at) AS place
    FROM results r JOIN games g ON g.id = r.game_id JOIN accounts a ON a.id = r.account_id
    WHERE r.preset = ? AND r.no_guess = ? AND NOT g.assisted AND r.daily = ?
        AND (r.no_flags OR NOT ?) AND a.suspended_at IS NULL AND NOT a.hidden
) best
WHERE place = 1 ORDER BY time, finished_at LIMIT ?
"""
"""A daily board: one entry per account (its best time) under the account's name, assisted
games left out, best first; results of deleted accounts (anonymous since), of suspended
accounts and of hidden names are not shown."""

BOARD = """
SELECT b.game_id, a.name, b.time, b.three_bv, b.clicks, b.finished_at
FROM bests b JOIN accounts a ON a.id = b.account_id
WHERE b.preset = ? AND b.no_guess = ? AND b.no_flags = ? AND b.period = ? AND b.measure = ?
    AND a.suspended_at IS NULL AND NOT a.hidden
ORDER BY b.value, b.finished_at LIMIT ?
"""
"""A board by period and measure: the accounts' bests in the order of the index `bests_board`
(an account has one row per board), suspended accounts and hidden names left out."""


DAILY_FIRST = (
    "SELECT f.id FROM games f WHERE f.account_id = {account} AND f.daily = {day} "
    "AND f.preset = {preset} AND f.rule = {rule} AND f.finished_at IS NOT NULL "
    "ORDER BY f.finished_at, f.id LIMIT 1"
)
"""The one home of which attempt on a daily board may rank: the account's first finished game
there (ties on the time broken by ID); formatted with the SQL of the four values."""


ACCOUNT_COLUMNS = (
    "id, name, skeleton, skeleton_cased, password_hash, created_at, stats_imported_at, "
    "suspended_at, hidden"
)
IMPORTED_COLUMNS = "preset, no_guess, games, wins, best_streak, best_time, best_three_bv_per_second"


def account_row(values: Sequence[Any]) -> AccountRow:
    id_, name, skeleton, skeleton_cased, password_hash, created, imported, suspended, hidden = (
        values
    )
    return AccountRow(
        id_,
        name,
        skeleton,
        skeleton_cased,
        password_hash,
        float(created),
        None if imported is None else float(imported),
        None if suspended is None else float(suspended),
        bool(hidden),
    )


def imported_board(values: Sequence[Any]) -> ImportedBoard:
    preset, no_guess, games, wins, best_streak, best_time, pace = values
    return ImportedBoard(
        preset=preset,
        no_guess=bool(no_guess),
        games=int(games),
        wins=int(wins),
        best_streak=int(best_streak),
        best_time=None if best_time is None else float(best_time),
        best_three_bv_per_second=None if pace is None else float(pace),
    )


PLAYED = (
    "SELECT id, nrows, ncols, nmines, rule, preset, status, assisted, version + wasted, "
    "finished_at, elapsed, three_bv, daily, daily IS NOT NULL AND id = ("
    + DAILY_FIRST.format(account="g.account_id", day="g.daily", preset="g.preset", rule="g.rule")
    + ") AS daily_first, no_flags FROM games g WHERE account_id = ? AND finished_at IS NOT NULL"
)
"""An account's finished games, as `played_game` reads them (the caller adds its order)."""


def played_game(values: Sequence[Any]) -> AccountGame:
    (id_, rows, cols, mines, rule, preset, status, assisted, clicks, finished, elapsed,
     three_bv, daily, daily_first, no_flags) = values  # fmt: skip
    return AccountGame(
        id=id_,
        rows=int(rows),
        cols=int(cols),
        mines=int(mines),
        rule=rule,
        preset=preset,
        status=status,
        assisted=bool(assisted),
        clicks=int(clicks),
        finished_at=float(finished),
        elapsed=float(elapsed),
        three_bv=int(three_bv),
        daily=daily,
        daily_first=bool(daily_first),
        no_flags=bool(no_flags),
    )


DELETED_ACCOUNT = "(deleted account)"
"""What the moderation log says an action was about once that account is deleted."""


LANDED_CHECKS = 3
"""Tries at reading whether a move whose commit failed was stored after all."""


def game_row(values: Sequence[Any]) -> GameRow:
    (id_, token_hash, rows, cols, mines, rule, seed, player, preset, created, layout, status,
     version, assisted, wasted, account_id, daily) = values  # fmt: skip
    return GameRow(
        id=id_,
        token_hash=token_hash,
        rows=int(rows),
        cols=int(cols),
        mines=int(mines),
        rule=rule,
        seed=int(seed),
        player=player,
        preset=preset,
        created_at=float(created),
        layout=layout,
        status=status,
        version=int(version),
        assisted=bool(assisted),
        wasted=int(wasted),
        account_id=account_id,
        daily=daily,
    )


PRUNE_BATCH = 500
"""Games deleted by one statement: SQLite takes at most 999 parameters in older builds."""
COMPACT_BATCH = 200
"""Finished games whose moves one transaction of `compact` folds into their rows."""


def history_text(moves: Sequence[StoredMove]) -> str:
    """A finished game's moves as one JSON text, `[["O3,4", at], ...]` in order: `at` is the
    stored float, which JSON writes and reads back exactly (so replays stay the same)."""
    return json.dumps([[move.move, move.at] for move in moves], separators=(",", ":"))


def history_moves(text: str) -> list[StoredMove]:
    return [StoredMove(seq, move, float(at)) for seq, (move, at) in enumerate(json.loads(text), 1)]


class SqlStorage(ABC):
    """`Storage` over a DB-API database; subclasses say how to connect, begin and lock."""

    placeholder = "?"
    announce_moves = True
    """Whether a move's transaction, a game's or a race room's, tells the other processes
    (NOTIFY on PostgreSQL); off when the server delivers its live frames through Redis
    (`mines.server.services.fanout`)."""

    @cached_property
    def owner(self) -> str:
        """This storage's name in `games.owner`: host, process ID and a random part (two
        storages of one process, as tests make, are two owners)."""
        return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"

    @abstractmethod
    def transaction(self, *, write: bool) -> AbstractContextManager[Cursor]:
        """A cursor in a transaction, committed on a clean exit; `write` takes the write lock."""

    @abstractmethod
    def announce(self, cursor: Cursor, game_id: str) -> None:
        """Tell other server processes, at commit, that a game has a new move."""

    def sql(self, query: str) -> str:
        return query.replace("?", self.placeholder)

    @abstractmethod
    def schema_lock(self, cursor: Cursor) -> None:
        """Hold, until the transaction ends, the lock every creation and migration of tables
        takes, so that servers starting together on one database never create a table twice."""

    def create_tables(self, cursor: Cursor) -> None:
        """Bring the tables to `SCHEMA_VERSION`, running each missing migration in order.

        A database made before versioning has no version row: it is at 0, and the first
        migration (CREATE TABLE IF NOT EXISTS) finds its tables already there.
        """
        cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        cursor.execute("SELECT version FROM schema_version")
        found = cursor.fetchone()
        version = 0 if found is None else int(found[0])
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"the database has schema version {version}, newer than this server's "
                f"{SCHEMA_VERSION}; run a newer mines on it"
            )
        for steps in MIGRATIONS[version:]:
            for step in steps:
                if isinstance(step, str):
                    cursor.execute(step)
                else:
                    step(cursor, self.sql)
        if found is None:
            cursor.execute(self.sql("INSERT INTO schema_version (version) VALUES (?)"), (0,))
        cursor.execute(self.sql("UPDATE schema_version SET version = ?"), (SCHEMA_VERSION,))

    def prune(self, before: float, *, dry_run: bool = False) -> int:
        """Delete the games in progress with no move since `before` (nor made since), and
        their moves; finished games, their replays and results stay."""
        idle = (
            "SELECT id FROM games WHERE status = ? AND created_at < ? AND NOT EXISTS "
            "(SELECT 1 FROM moves WHERE moves.game_id = games.id AND moves.at >= ?)"
        )
        with self.transaction(write=True) as cursor:
            cursor.execute(self.sql(idle), ("IN_PROGRESS", before, before))
            found = [str(row[0]) for row in cursor.fetchall()]
            for start in range(0, 0 if dry_run else len(found), PRUNE_BATCH):
                batch = found[start : start + PRUNE_BATCH]
                marks = ", ".join("?" * len(batch))
                cursor.execute(self.sql(f"DELETE FROM moves WHERE game_id IN ({marks})"), batch)
                cursor.execute(self.sql(f"DELETE FROM games WHERE id IN ({marks})"), batch)
        return len(found)

    def compact(self, *, dry_run: bool = False) -> int:
        """Fold each finished game's moves into its row (`games.history`) and delete them from
        `moves`: one row per finished game instead of one per move. Reads are unchanged
        (`read_moves`). The number of games (that would be) compacted."""
        q, done = self.sql, 0
        finished = (
            "SELECT id FROM games WHERE status <> ? AND history IS NULL AND version > 0 "
            "ORDER BY id LIMIT ?"
        )
        if dry_run:
            with self.transaction(write=False) as cursor:
                cursor.execute(
                    q(
                        "SELECT COUNT(*) FROM games WHERE status <> ? AND history IS NULL "
                        "AND version > 0"
                    ),
                    ("IN_PROGRESS",),
                )
                return int(cursor.fetchone()[0])
        while True:
            with self.transaction(write=True) as cursor:
                cursor.execute(q(finished), ("IN_PROGRESS", COMPACT_BATCH))
                found = [str(row[0]) for row in cursor.fetchall()]
                for game_id in found:
                    cursor.execute(
                        q("SELECT seq, move, at FROM moves WHERE game_id = ? ORDER BY seq"),
                        (game_id,),
                    )
                    moves = [StoredMove(int(n), m, float(at)) for n, m, at in cursor.fetchall()]
                    cursor.execute(
                        q("UPDATE games SET history = ? WHERE id = ?"),
                        (history_text(moves), game_id),
                    )
                    cursor.execute(q("DELETE FROM moves WHERE game_id = ?"), (game_id,))
            done += len(found)
            if len(found) < COMPACT_BATCH:
                return done

    def prune_sessions(self, now: float, *, dry_run: bool = False) -> int:
        """Delete the sign-in sessions expired by `now` (they sign no one in any more)."""
        return self._delete("sessions", "expires_at <= ?", (now,), dry_run)

    def prune_reviews(self, before: float, *, dry_run: bool = False) -> int:
        """Delete the stored reviews of games finished before `before`: a review is worked
        out again when it is asked for."""
        where = "game_id IN (SELECT id FROM games WHERE finished_at < ?)"
        return self._delete("reviews", where, (before,), dry_run)

    def _delete(self, table: str, where: str, values: Sequence[Any], dry_run: bool) -> int:
        with self.transaction(write=not dry_run) as cursor:
            if dry_run:
                cursor.execute(self.sql(f"SELECT COUNT(*) FROM {table} WHERE {where}"), values)
                return int(cursor.fetchone()[0])
            cursor.execute(self.sql(f"DELETE FROM {table} WHERE {where}"), values)
            return max(cursor.rowcount, 0)

    def ping(self) -> None:
        """Read the schema version: a query that needs the database itself, not only a live
        connection (a SQLite `SELECT 1` would not read the file at all)."""
        with self.transaction(write=False) as cursor:
            cursor.execute("SELECT version FROM schema_version")
            cursor.fetchone()

    def mark_assisted(self, game_id: str) -> bool:
        """Record that the game's player had help; False when no game has this ID. A win
        marked after it ranked leaves the boards by period and measure: the account's bests
        are worked out again from its other wins."""
        q = self.sql
        with self.transaction(write=True) as cursor:
            cursor.execute(q("UPDATE games SET assisted = ? WHERE id = ?"), (True, game_id))
            if not cursor.rowcount:
                return False
            cursor.execute(q("SELECT account_id FROM bests WHERE game_id = ? LIMIT 1"), (game_id,))
            if (found := cursor.fetchone()) is not None:
                cursor.execute(q("DELETE FROM bests WHERE account_id = ?"), (found[0],))
                rank_results(cursor, q, str(found[0]))
            return True

    def count_wasted(self, game_id: str) -> None:
        """Count a move asked for in a game in progress that changed nothing."""
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql("UPDATE games SET wasted = wasted + 1 WHERE id = ? AND status = ?"),
                (game_id, "IN_PROGRESS"),
            )

    def create(self, row: GameRow) -> None:
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join('?' * 17)})"),
                (
                    row.id,
                    row.token_hash,
                    row.rows,
                    row.cols,
                    row.mines,
                    row.rule,
                    row.seed,
                    row.player,
                    row.preset,
                    row.created_at,
                    row.layout,
                    row.status,
                    row.version,
                    row.assisted,
                    row.wasted,
                    row.account_id,
                    row.daily,
                ),
            )

    def _select_game(self, cursor: Cursor, game_id: str, lock: str) -> GameRow | None:
        cursor.execute(self.sql(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?{lock}"), (game_id,))
        values = cursor.fetchone()
        return None if values is None else game_row(values)

    def load(self, game_id: str) -> GameRow | None:
        with self.transaction(write=False) as cursor:
            return self._select_game(cursor, game_id, "")

    def read_moves(self, cursor: Cursor, game_id: str, version: int) -> list[StoredMove]:
        """The game's moves after the first `version`: from `moves`, or once the game is
        compacted from its row. The rows are read first: a compaction that commits between
        the two reads leaves the history to the second (it writes both in one transaction)."""
        cursor.execute(
            self.sql("SELECT seq, move, at FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq"),
            (game_id, version),
        )
        found = [StoredMove(int(seq), move, float(at)) for seq, move, at in cursor.fetchall()]
        if found:
            return found
        cursor.execute(self.sql("SELECT history FROM games WHERE id = ?"), (game_id,))
        row = cursor.fetchone()
        if row is None or row[0] is None:
            return []
        return [move for move in history_moves(str(row[0])) if move.seq > version]

    def version(self, game_id: str) -> int | None:
        with self.transaction(write=False) as cursor:
            cursor.execute(self.sql("SELECT version FROM games WHERE id = ?"), (game_id,))
            found = cursor.fetchone()
        return None if found is None else int(found[0])

    def moves_after(self, game_id: str, version: int) -> list[StoredMove]:
        with self.transaction(write=False) as cursor:
            return self.read_moves(cursor, game_id, version)

    def append(self, game_id: str, change: MoveWrite) -> None:
        try:
            with self.transaction(write=True) as cursor:
                self._append(cursor, game_id, change)
        except StorageError:
            # The connection may have failed after the commit reached the database: then
            # the move is stored, and the answer says so rather than a 503 for a done move.
            if not self._landed(game_id, change.move):
                raise

    def _append(self, cursor: Cursor, game_id: str, change: MoveWrite) -> None:
        """The move's write, at most three statements: the game's row first, only where it
        is still at the version the move was computed on (the fence: a process whose game is
        behind changes nothing and is told so), then the move, then a ranked win's result."""
        q, move = self.sql, change.move
        sets = "version = ?, status = ?, layout = COALESCE(?, layout), owner = ?"
        values: list[Any] = [move.seq, change.status, change.layout, self.owner]
        if (finish := change.finish) is not None:
            sets += ", finished_at = ?, elapsed = ?, three_bv = ?, no_flags = ?"
            values += [finish.finished_at, finish.elapsed, finish.three_bv, finish.no_flags]
        cursor.execute(
            q(f"UPDATE games SET {sets} WHERE id = ? AND version = ?"),
            (*values, game_id, move.seq - 1),
        )
        if cursor.rowcount != 1:
            raise StaleGameError(f"game {game_id} has moved on since this move was computed")
        cursor.execute(
            q("INSERT INTO moves (game_id, seq, move, at) VALUES (?, ?, ?, ?)"),
            (game_id, move.seq, move.move, move.at),
        )
        if (result := change.result) is not None:
            if result.account_id is not None:
                result = self._still_there(cursor, result)
            # Clicks as the game's row counts them, this move's included: the moves asked
            # for that changed nothing are counted there (`count_wasted`), not in the process.
            cursor.execute(q("SELECT version + wasted FROM games WHERE id = ?"), (game_id,))
            result = replace(result, clicks=int(cursor.fetchone()[0]))
            cursor.execute(
                q(
                    "INSERT INTO results (game_id, preset, no_guess, player, time, finished_at, "
                    "account_id, daily, no_flags, three_bv, clicks) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    result.game_id,
                    result.preset,
                    result.no_guess,
                    result.player,
                    result.time,
                    result.finished_at,
                    result.account_id,
                    result.daily,
                    result.no_flags,
                    result.three_bv,
                    result.clicks,
                ),
            )
            store_bests(cursor, q, result)
        if self.announce_moves:
            self.announce(cursor, game_id)

    def _still_there(self, cursor: Cursor, result: Result) -> Result:
        """The result as stored: an account deleted since its game was loaded (in this process
        or another) leaves it anonymous, as its other games are."""
        cursor.execute(self.sql("SELECT 1 FROM accounts WHERE id = ?"), (result.account_id,))
        if cursor.fetchone() is not None:
            return result
        return replace(result, account_id=None, player=ANONYMOUS)

    def _landed(self, game_id: str, move: StoredMove) -> bool:
        """Whether exactly this move is stored (after a failure whose outcome is unknown)."""
        for _ in range(LANDED_CHECKS):
            try:
                with self.transaction(write=False) as cursor:
                    cursor.execute(
                        self.sql("SELECT move, at FROM moves WHERE game_id = ? AND seq = ?"),
                        (game_id, move.seq),
                    )
                    found = cursor.fetchone()
            except StorageError:
                continue
            return found is not None and (found[0], float(found[1])) == (move.move, move.at)
        return False

    def load_review(self, game_id: str, version: int) -> StoredReview | None:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql("SELECT body, refused FROM reviews WHERE game_id = ? AND format = ?"),
                (game_id, version),
            )
            found = cursor.fetchone()
        return None if found is None else StoredReview(str(found[0]), bool(found[1]))

    def store_review(self, game_id: str, version: int, body: str, *, refused: bool = False) -> None:
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql(
                    "INSERT INTO reviews (game_id, format, body, refused) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET format = excluded.format, "
                    "body = excluded.body, refused = excluded.refused"
                ),
                (game_id, version, body, refused),
            )

    def leaderboard(
        self, preset: str, no_guess: bool, limit: int, daily: str, no_flags: bool = False
    ) -> list[Result]:
        with self.transaction(write=False) as cursor:
            cursor.execute(self.sql(LEADERBOARD), (preset, no_guess, daily, no_flags, limit))
            return [
                Result(
                    game_id, preset_, bool(ng), player, float(time), float(finished), account, daily
                )
                for game_id, preset_, ng, player, time, finished, account in cursor.fetchall()
            ]

    def board(
        self,
        preset: str,
        no_guess: bool,
        no_flags: bool,
        period: str,
        measure: str,
        limit: int,
    ) -> list[Best]:
        with self.transaction(write=False) as cursor:
            cursor.execute(self.sql(BOARD), (preset, no_guess, no_flags, period, measure, limit))
            return [
                Best(game_id, player, float(time), int(bv), int(clicks), float(finished))
                for game_id, player, time, bv, clicks, finished in cursor.fetchall()
            ]

    def daily_seed(self, day: str, preset: str, no_guess: bool, candidate: int) -> int:
        with self.transaction(write=True) as cursor:
            # ON CONFLICT: two processes drawing the day's first seed at once keep one.
            cursor.execute(
                self.sql(
                    "INSERT INTO daily_boards (day, preset, no_guess, seed) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING"
                ),
                (day, preset, no_guess, candidate),
            )
            found = self._daily_seed(cursor, day, preset, no_guess)
            assert found is not None  # stored just now, or before
            return found

    def known_daily_seed(self, day: str, preset: str, no_guess: bool) -> int | None:
        with self.transaction(write=False) as cursor:
            return self._daily_seed(cursor, day, preset, no_guess)

    def _daily_seed(self, cursor: Cursor, day: str, preset: str, no_guess: bool) -> int | None:
        cursor.execute(
            self.sql("SELECT seed FROM daily_boards WHERE day = ? AND preset = ? AND no_guess = ?"),
            (day, preset, no_guess),
        )
        found = cursor.fetchone()
        return None if found is None else int(found[0])

    def daily_first(self, account_id: str, day: str, preset: str, rule: str) -> str | None:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(DAILY_FIRST.format(account="?", day="?", preset="?", rule="?")),
                (account_id, day, preset, rule),
            )
            found = cursor.fetchone()
            return None if found is None else str(found[0])

    # --- accounts --------------------------------------------------------------------------

    def account_games(self, account_id: str) -> list[AccountGame]:
        with self.transaction(write=False) as cursor:
            cursor.execute(self.sql(PLAYED + " ORDER BY finished_at, id"), (account_id,))
            return [played_game(values) for values in cursor.fetchall()]

    def account_history(self, account_id: str, page: HistoryPage) -> list[AccountGame]:
        where = ["(daily IS NULL OR daily < ?)"]
        values: list[Any] = [account_id, page.hidden_day]
        if page.before is not None:
            # Spelled out rather than a row value: both planners take it as a range of the
            # index `games_history` (account_id, finished_at, id).
            where.append("(finished_at < ? OR (finished_at = ? AND id < ?))")
            values += [page.before[0], page.before[0], page.before[1]]
        if page.size is not None:
            where.append("nrows = ? AND ncols = ? AND nmines = ?")
            values += list(page.size)
        elif page.custom:
            for size in PRESETS.values():
                where.append("NOT (nrows = ? AND ncols = ? AND nmines = ?)")
                values += [size.rows, size.cols, size.mines]
        if page.result is not None:
            where.append("status = ?" + (" AND no_flags" if page.result == "no_flags" else ""))
            values.append("LOST" if page.result == "lost" else "WON")
        query = f"{PLAYED} AND {' AND '.join(where)} ORDER BY finished_at DESC, id DESC LIMIT ?"
        with self.transaction(write=False) as cursor:
            cursor.execute(self.sql(query), [*values, page.limit])
            return [played_game(found) for found in cursor.fetchall()]

    def create_account(self, account: AccountRow) -> bool:
        """Store a new account; False (and nothing stored) when either skeleton is taken."""
        with self.transaction(write=True) as cursor:
            # ON CONFLICT: two sign-ups of look-alike names at once cannot both pass a check.
            cursor.execute(
                self.sql(
                    f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES ({', '.join('?' * 9)}) "
                    "ON CONFLICT DO NOTHING"
                ),
                (
                    account.id,
                    account.name,
                    account.skeleton,
                    account.skeleton_cased,
                    account.password_hash,
                    account.created_at,
                    account.stats_imported_at,
                    account.suspended_at,
                    account.hidden,
                ),
            )
            return bool(cursor.rowcount)

    def name_free(self, skeleton: str, skeleton_cased: str) -> bool:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql("SELECT 1 FROM accounts WHERE skeleton = ? OR skeleton_cased = ?"),
                (skeleton, skeleton_cased),
            )
            return cursor.fetchone() is None

    def find_account(self, skeleton: str) -> AccountRow | None:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE skeleton = ?"), (skeleton,)
            )
            values = cursor.fetchone()
            return None if values is None else account_row(values)

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql("UPDATE accounts SET password_hash = ? WHERE id = ?"),
                (password_hash, account_id),
            )

    def import_stats(self, account_id: str, at: float, boards: list[ImportedBoard]) -> bool:
        with self.transaction(write=True) as cursor:
            # The mark and the boards in one transaction: of two imports at once, the second
            # finds the mark set (PostgreSQL makes it wait for the first's commit) and stores
            # nothing.
            cursor.execute(
                self.sql(
                    "UPDATE accounts SET stats_imported_at = ? "
                    "WHERE id = ? AND stats_imported_at IS NULL"
                ),
                (at, account_id),
            )
            if not cursor.rowcount:
                return False
            for board in boards:
                cursor.execute(
                    self.sql(
                        f"INSERT INTO imported_stats (account_id, {IMPORTED_COLUMNS}) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    (
                        account_id,
                        board.preset,
                        board.no_guess,
                        board.games,
                        board.wins,
                        board.best_streak,
                        board.best_time,
                        board.best_three_bv_per_second,
                    ),
                )
            return True

    def imported_stats(self, account_id: str) -> list[ImportedBoard]:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(
                    f"SELECT {IMPORTED_COLUMNS} FROM imported_stats WHERE account_id = ? "
                    "ORDER BY preset, no_guess"
                ),
                (account_id,),
            )
            return [imported_board(values) for values in cursor.fetchall()]

    def start_session(self, session: SessionRow, ended: str | None) -> None:
        """Store a new session, ending the one whose token hash is `ended` (rotation)."""
        with self.transaction(write=True) as cursor:
            if ended is not None:
                cursor.execute(self.sql("DELETE FROM sessions WHERE token_hash = ?"), (ended,))
            cursor.execute(
                self.sql(
                    "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) "
                    "VALUES (?, ?, ?, ?)"
                ),
                (session.token_hash, session.account_id, session.created_at, session.expires_at),
            )

    def session_account(self, token_hash: str, now: float) -> AccountRow | None:
        columns = ", ".join(f"a.{name}" for name in ACCOUNT_COLUMNS.split(", "))
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(
                    f"SELECT {columns} FROM sessions s JOIN accounts a ON a.id = s.account_id "
                    "WHERE s.token_hash = ? AND s.expires_at > ? AND a.suspended_at IS NULL"
                ),
                (token_hash, now),
            )
            values = cursor.fetchone()
            return None if values is None else account_row(values)

    def end_session(self, token_hash: str) -> None:
        with self.transaction(write=True) as cursor:
            cursor.execute(self.sql("DELETE FROM sessions WHERE token_hash = ?"), (token_hash,))

    # --- leaving and moderation -------------------------------------------------------------

    def change_password(self, account_id: str, password_hash: str, kept: str) -> int:
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql("UPDATE accounts SET password_hash = ? WHERE id = ?"),
                (password_hash, account_id),
            )
            cursor.execute(
                self.sql("DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?"),
                (account_id, kept),
            )
            return cursor.rowcount

    def delete_account(self, account_id: str) -> None:
        with self.transaction(write=True) as cursor:
            for table in ("games", "results"):
                # The games stay (boards, replays, reviews), under no name and no account:
                # an anonymous player's, which never rank.
                cursor.execute(
                    self.sql(
                        f"UPDATE {table} SET account_id = NULL, player = ? WHERE account_id = ?"
                    ),
                    (ANONYMOUS, account_id),
                )
            for table in ("sessions", "imported_stats", "bests"):
                cursor.execute(self.sql(f"DELETE FROM {table} WHERE account_id = ?"), (account_id,))
            # What operators did stays in their log, no longer saying to whom.
            cursor.execute(
                self.sql(
                    "UPDATE moderation_log SET target = ?, account_id = NULL WHERE account_id = ?"
                ),
                (DELETED_ACCOUNT, account_id),
            )
            cursor.execute(self.sql("DELETE FROM accounts WHERE id = ?"), (account_id,))

    def account_export(self, account_id: str) -> dict[str, Any]:
        def rows(cursor: Cursor, query: str, *params: Any) -> list[dict[str, Any]]:
            cursor.execute(self.sql(query), params)
            names = [column.strip() for column in query.split(" FROM ")[0][7:].split(",")]
            return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]

        with self.transaction(write=False) as cursor:
            found = rows(
                cursor,
                "SELECT id, name, created_at, stats_imported_at, suspended_at, hidden "
                "FROM accounts WHERE id = ?",
                account_id,
            )
            if not found:
                return {}
            games = rows(
                cursor,
                "SELECT id, created_at, nrows, ncols, nmines, rule, seed, preset, daily, "
                "player, status, assisted, wasted, finished_at, elapsed, three_bv "
                "FROM games WHERE account_id = ? ORDER BY created_at, id",
                account_id,
            )
            for game in games:
                game["moves"] = rows(
                    cursor,
                    "SELECT seq, move, at FROM moves WHERE game_id = ? ORDER BY seq",
                    game["id"],
                )
            return {
                "account": found[0],
                "sessions": rows(
                    cursor,
                    "SELECT created_at, expires_at FROM sessions WHERE account_id = ? "
                    "ORDER BY created_at",
                    account_id,
                ),
                "games": games,
                "results": rows(
                    cursor,
                    "SELECT game_id, preset, no_guess, daily, player, time, finished_at "
                    "FROM results WHERE account_id = ? ORDER BY finished_at",
                    account_id,
                ),
                "imported_stats": rows(
                    cursor,
                    f"SELECT {IMPORTED_COLUMNS} FROM imported_stats WHERE account_id = ? "
                    "ORDER BY preset, no_guess",
                    account_id,
                ),
                "moderation": rows(
                    cursor,
                    "SELECT at, action, target, reason FROM moderation_log "
                    "WHERE account_id = ? ORDER BY at",
                    account_id,
                ),
            }

    def moderate(self, action: Moderation) -> None:
        q = self.sql
        with self.transaction(write=True) as cursor:
            if action.action == "suspend":
                cursor.execute(
                    q("UPDATE accounts SET suspended_at = ? WHERE id = ?"),
                    (action.at, action.account_id),
                )
                # Signed out everywhere now, not only refused at the next sign-in.
                cursor.execute(q("DELETE FROM sessions WHERE account_id = ?"), (action.account_id,))
            elif action.action == "restore":
                cursor.execute(
                    q("UPDATE accounts SET suspended_at = NULL WHERE id = ?"), (action.account_id,)
                )
            elif action.action in ("hide", "show"):
                cursor.execute(
                    q("UPDATE accounts SET hidden = ? WHERE id = ?"),
                    (action.action == "hide", action.account_id),
                )
            elif action.action == "rename":
                assert action.new_name is not None
                name, skeleton, skeleton_cased = action.new_name
                cursor.execute(
                    q(
                        "UPDATE accounts SET name = ?, skeleton = ?, skeleton_cased = ? "
                        "WHERE id = ?"
                    ),
                    (name, skeleton, skeleton_cased, action.account_id),
                )
                for table in ("games", "results"):
                    cursor.execute(
                        q(f"UPDATE {table} SET player = ? WHERE account_id = ?"),
                        (name, action.account_id),
                    )
            self._log(cursor, action)

    def _log(self, cursor: Cursor, action: Moderation) -> None:
        target = action.target
        if action.new_name is not None:
            target = f"{action.target} -> {action.new_name[0]}"
        cursor.execute(
            self.sql(
                "INSERT INTO moderation_log (at, actor, action, target, reason, account_id) "
                "VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (action.at, action.actor, action.action, target, action.reason, action.account_id),
        )

    def moderation_log(self, limit: int) -> list[Moderation]:
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(
                    "SELECT at, actor, action, target, reason, account_id FROM moderation_log "
                    "ORDER BY at DESC LIMIT ?"
                ),
                (limit,),
            )
            return [
                Moderation(float(at), actor, action, target, reason, account_id)
                for at, actor, action, target, reason, account_id in cursor.fetchall()
            ]

    def block(self, network: str, at: float, actor: str, reason: str) -> bool:
        with self.transaction(write=True) as cursor:
            cursor.execute(
                self.sql(
                    "INSERT INTO blocked_networks (network, blocked_at) VALUES (?, ?) "
                    "ON CONFLICT DO NOTHING"
                ),
                (network, at),
            )
            if not cursor.rowcount:
                return False
            self._log(cursor, Moderation(at, actor, "block", network, reason))
            return True

    def unblock(self, network: str, at: float, actor: str, reason: str) -> bool:
        with self.transaction(write=True) as cursor:
            cursor.execute(self.sql("DELETE FROM blocked_networks WHERE network = ?"), (network,))
            if not cursor.rowcount:
                return False
            self._log(cursor, Moderation(at, actor, "unblock", network, reason))
            return True

    def name_withheld(self, skeleton: str) -> bool:
        """Whether an account by this (case-folded) skeleton is hidden or suspended: its name
        is kept out of race rooms too."""
        with self.transaction(write=False) as cursor:
            cursor.execute(
                self.sql(
                    "SELECT 1 FROM accounts WHERE skeleton = ? "
                    "AND (hidden OR suspended_at IS NOT NULL)"
                ),
                (skeleton,),
            )
            return cursor.fetchone() is not None

    def blocked_networks(self) -> list[str]:
        with self.transaction(write=False) as cursor:
            cursor.execute("SELECT network FROM blocked_networks ORDER BY network")
            return [str(row[0]) for row in cursor.fetchall()]
