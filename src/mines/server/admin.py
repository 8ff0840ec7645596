"""`mines admin backup|restore|prune`: a server's database backed up, restored and kept small."""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mines.server.database import default_database

DURATION = re.compile(r"(\d+)([dhms])")
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
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
        "help": "the server's database, as for mines serve (default: $MINES_DB, else "
        f"{default_database()})"
    }
    backup = commands.add_parser("backup", help="copy a SQLite database while the server runs")
    backup.add_argument("--db", **database)
    backup.add_argument("file", type=Path, help="the new SQLite file to write")
    restore = commands.add_parser("restore", help="a backup into a new SQLite database")
    restore.add_argument("file", type=Path, help="the backup file")
    restore.add_argument("--db", required=True, help="sqlite:///path of a database to make")
    prune = commands.add_parser(
        "prune", help="delete games in progress left idle; finished games stay"
    )
    prune.add_argument("--db", **database)
    prune.add_argument(
        "--older-than",
        type=_duration,
        required=True,
        help="idle this long: no move (nor creation) since, e.g. 30d, 12h",
    )
    prune.add_argument("--dry-run", action="store_true", help="count them, delete nothing")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mines.server.database import open_storage
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
    # As `mines serve` finds it: the option, else MINES_DB, else the data folder's file.
    url = args.db or os.environ.get("MINES_DB") or default_database()
    storage = open_storage(url)
    try:
        if args.admin == "backup":
            if not isinstance(storage, SqliteStorage):
                raise StorageError(f"backup copies SQLite databases; for PostgreSQL use {PG_DUMP}")
            storage.backup(args.file)
            print(f"backed up {url} to {args.file}")
            return 0
        before = time.time() - args.older_than
        count = storage.prune(before, dry_run=args.dry_run)
        since = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(before))
        verb = "would delete" if args.dry_run else "deleted"
        print(f"{verb} {count} game(s) in progress with no move since {since}")
        return 0
    finally:
        storage.close()


def _sqlite_path(url: str) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme != "sqlite":
        return None
    return Path(parts.path if parts.netloc == "" else f"{parts.netloc}{parts.path}")
