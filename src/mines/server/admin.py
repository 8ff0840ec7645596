"""`mines admin backup|restore|prune`: a server's database backed up, restored and kept small."""

from __future__ import annotations

import argparse
import re
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mines.server.database import default_database
from mines.server.environ import from_environment

if TYPE_CHECKING:
    from mines.server.sql import SqlStorage

DURATION = re.compile(r"(\d+)([dhms])")
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
IDLE_GAMES = "30d"
OLD_ROOMS = "30d"
OLD_REVIEWS = "90d"
PG_DUMP = "pg_dump -Fc -d DBNAME -f FILE, and pg_restore -d NEWDB FILE (docs/deploy.md)"


def _duration(text: str) -> float:
    match = DURATION.fullmatch(text.strip())
    if match is None or int(match[1]) == 0:
        raise argparse.ArgumentTypeError(
            f"expected a duration such as 30d, 12h, 90m or 600s, got {text!r}"
        )
    return int(match[1]) * UNITS[match[2]]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("admin", help="back up, restore or prune a server's games")
    commands = parser.add_subparsers(dest="admin", required=True, metavar="ACTION")
    database = {
        "help": f"the server's database, as for mines serve (default: {default_database()})"
    }
    backup = commands.add_parser("backup", help="copy a SQLite database while the server runs")
    backup.add_argument("--db", **database)
    backup.add_argument("file", type=Path, help="the new SQLite file to write")
    restore = commands.add_parser("restore", help="a backup into a new SQLite database")
    restore.add_argument("file", type=Path, help="the backup file")
    restore.add_argument("--db", required=True, help="sqlite:///path of a database to make")
    prune = commands.add_parser(
        "prune",
        help="keep the database small: compact finished games, delete what is no longer used",
        description="Fold each finished game's moves into its own row (its record, replay and "
        "review stay the same), and delete games in progress left idle, old race rooms, "
        "expired sign-in sessions and old games' stored reviews (worked out again when "
        "asked for). Finished games, their results and accounts stay. Safe while servers run.",
    )
    prune.add_argument("--db", **database)
    prune.add_argument(
        "--older-than",
        type=_duration,
        default=IDLE_GAMES,
        help=f"games in progress idle this long: no move (nor creation) since ({IDLE_GAMES})",
    )
    prune.add_argument(
        "--rooms-older-than",
        type=_duration,
        default=OLD_ROOMS,
        help=f"race rooms created this long ago, with their moves ({OLD_ROOMS})",
    )
    prune.add_argument(
        "--reviews-older-than",
        type=_duration,
        default=OLD_REVIEWS,
        help=f"stored reviews of games finished this long ago ({OLD_REVIEWS})",
    )
    prune.add_argument("--dry-run", action="store_true", help="count them, change nothing")
    for command in (backup, restore, prune):
        from_environment(command)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mines.server.database import open_storage
    from mines.server.sql import SqlStorage
    from mines.server.sqlite import SqliteStorage
    from mines.server.storage import StorageError

    if args.admin == "restore":
        target = _sqlite_path(args.db)
        if target is None:
            raise StorageError(f"restore makes a SQLite database; for PostgreSQL use {PG_DUMP}")
        if target.exists():
            raise StorageError(f"{str(target)!r} exists already; restore into a new file")
        if not args.file.is_file():
            raise StorageError(f"no backup file at {str(args.file)!r}")
        source = sqlite3.connect(f"file:{args.file}?mode=ro", uri=True)
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
        storage = open_storage(args.db)  # brings an older backup up to this schema version
        storage.close()
        print(f"restored {args.file} into {args.db}")
        return 0
    url = args.db or default_database()
    storage = open_storage(url)
    try:
        if args.admin == "backup":
            if not isinstance(storage, SqliteStorage):
                raise StorageError(f"backup copies SQLite databases; for PostgreSQL use {PG_DUMP}")
            storage.backup(args.file)
            print(f"backed up {url} to {args.file}")
            return 0
        assert isinstance(storage, SqlStorage)  # both backends are
        return _prune(storage, args)
    finally:
        storage.close()


def _prune(storage: SqlStorage, args: argparse.Namespace) -> int:
    """`mines admin prune`: each step in its own transactions, each reported."""
    from mines.server.race_store import RaceStore

    now, dry = time.time(), args.dry_run

    def since(seconds: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now - seconds))

    verb = "would delete" if dry else "deleted"
    count = storage.prune(now - args.older_than, dry_run=dry)
    print(f"{verb} {count} game(s) in progress with no move since {since(args.older_than)}")
    count = RaceStore(storage).prune(now - args.rooms_older_than, dry_run=dry)
    print(f"{verb} {count} race room(s) made before {since(args.rooms_older_than)}")
    count = storage.prune_sessions(now, dry_run=dry)
    print(f"{verb} {count} expired sign-in session(s)")
    count = storage.prune_reviews(now - args.reviews_older_than, dry_run=dry)
    print(f"{verb} {count} review(s) of games finished before {since(args.reviews_older_than)}")
    count = storage.compact(dry_run=dry)
    print(f"{'would compact' if dry else 'compacted'} {count} finished game(s) into one row each")
    return 0


def _sqlite_path(url: str) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme != "sqlite":
        return None
    return Path(parts.path if parts.netloc == "" else f"{parts.netloc}{parts.path}")
