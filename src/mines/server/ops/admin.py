"""`mines admin`: a server's database backed up, restored and kept small; accounts and addresses
moderated."""

from __future__ import annotations

import argparse
import getpass
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mines.server.common.places import default_database
from mines.server.db.storage import ACCOUNT_ACTIONS

if TYPE_CHECKING:
    from mines.server.db.sql import SqlStorage
    from mines.server.db.storage import Storage

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
    register_moderation(commands, database)
    parser.set_defaults(handler=run)


def register_moderation(commands: Any, database: dict[str, str]) -> list[Any]:
    """`mines admin account|block|unblock|log`: the operator's tools."""
    who = {
        "default": None,
        "help": "who does it, for the moderation log (default: the user running the command)",
    }
    why = {"required": True, "help": "why, for the moderation log (required)"}
    account = commands.add_parser(
        "account", help="suspend, restore, rename, hide or show an account (logged)"
    )
    account.add_argument("action", choices=(*ACCOUNT_ACTIONS, "rename"), help=ACCOUNT_HELP)
    account.add_argument("name", help="the account's name (or a look-alike of it)")
    account.add_argument("new_name", nargs="?", help="rename: the new name")
    block = commands.add_parser("block", help="refuse every request from an address or network")
    unblock = commands.add_parser("unblock", help="serve an address or network blocked before")
    for command in (block, unblock):
        command.add_argument(
            "network", help="an address or CIDR network: 203.0.113.7, 2001:db8::/32"
        )
    for command in (account, block, unblock):
        command.add_argument("--db", **database)
        command.add_argument("--by", **who)
        command.add_argument("--reason", **why)
    log = commands.add_parser("log", help="the latest moderation actions, newest first")
    log.add_argument("--db", **database)
    log.add_argument("--limit", type=int, default=50, help="how many (default %(default)s)")
    return [account, block, unblock, log]


ACCOUNT_HELP = (
    "suspend: signed out everywhere, no sign-in, off the leaderboard; restore: undoes it; "
    "hide: the name off the leaderboard, its profile and races; show: undoes it; "
    "rename: the account takes NEW_NAME"
)
MODERATION = ("account", "block", "unblock", "log")


def moderate(args: argparse.Namespace, storage: Storage) -> int:
    """Run one moderation command on an open storage."""
    from mines.server.common.errors import InvalidRequestError
    from mines.server.services.moderation import Moderator

    if args.admin == "log":
        for entry in storage.moderation_log(args.limit):
            at = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(entry.at))
            print(f"{at}  {entry.actor}  {entry.action}  {entry.target}  ({entry.reason})")
        return 0
    moderator = Moderator(storage)
    actor = args.by or getpass.getuser()
    if args.admin == "account":
        if (args.action == "rename") != (args.new_name is not None):
            raise InvalidRequestError("rename takes the new name after the old; the others do not")
        if args.action == "rename":
            shown = moderator.rename(args.name, args.new_name, actor, args.reason)
            print(f"renamed {args.name!r} to {shown!r}")
            return 0
        found = moderator.act(args.action, args.name, actor, args.reason)
        done = {"suspend": "suspended", "restore": "restored", "hide": "hid", "show": "showed"}
        print(f"{done[args.action]} {found.name!r}")
        return 0
    act = moderator.block if args.admin == "block" else moderator.unblock
    network, changed = act(args.network, actor, args.reason)
    if args.admin == "block":
        print(f"blocked {network}" if changed else f"{network} was blocked already")
    else:
        print(f"unblocked {network}" if changed else f"{network} was not blocked")
    return 0


def run(args: argparse.Namespace) -> int:
    from mines.server.common.logs import masked
    from mines.server.db.database import open_storage
    from mines.server.db.sql import SqlStorage
    from mines.server.db.sqlite import SqliteStorage
    from mines.server.db.storage import StorageError

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
        print(f"restored {args.file} into {masked(args.db)}")
        return 0
    # As `mines serve` finds it: the option, else MINES_DB, else the data folder's file.
    url = args.db or os.environ.get("MINES_DB") or default_database()
    storage = open_storage(url)
    try:
        if args.admin in MODERATION:
            return moderate(args, storage)
        if args.admin == "backup":
            if not isinstance(storage, SqliteStorage):
                raise StorageError(f"backup copies SQLite databases; for PostgreSQL use {PG_DUMP}")
            storage.backup(args.file)
            print(f"backed up {masked(url)} to {args.file}")
            return 0
        assert isinstance(storage, SqlStorage)  # both backends are
        return _prune(storage, args)
    finally:
        storage.close()


def _prune(storage: SqlStorage, args: argparse.Namespace) -> int:
    """`mines admin prune`: each step in its own transactions, each reported."""
    from mines.server.db.race_store import RaceStore

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
