"""The storage contract the server writes games to, and the choice of backend by URL."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlsplit, urlunsplit

from mines.datadir import data_dir
from mines.errors import MinesError


class StorageError(MinesError):
    """A database URL the server cannot use; the message says what is accepted."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """What the server stores about a game besides its moves.

    `version` counts the stored moves: a cached `Game` at the same version is current.
    `layout` is the mine layout as JSON, written at the first reveal (None before it).
    """

    id: str
    token_hash: str
    rows: int
    cols: int
    mines: int
    rule: str
    seed: int
    player: str
    preset: str | None
    """The preset the game ranks under on the leaderboard, or None when it does not rank."""
    created_at: float
    layout: str | None
    status: str
    version: int


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One applied move: its text (`O3,4`) and the server's wall time when it was made."""

    seq: int
    move: str
    at: float


@dataclass(frozen=True, slots=True)
class Result:
    """A won, ranked game on the leaderboard."""

    game_id: str
    preset: str
    no_guess: bool
    player: str
    time: float
    finished_at: float


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """What one move changes in storage, written in the transaction that holds the game's lock."""

    move: StoredMove
    status: str
    layout: str | None
    result: Result | None


class LockedGame(Protocol):
    """A game row held under its lock until the transaction ends."""

    row: GameRow

    def moves_after(self, version: int) -> list[StoredMove]: ...

    def write(self, change: MoveWrite) -> None: ...


class Storage(Protocol):
    """Games, their moves and the leaderboard, durable once a call returns."""

    def create(self, row: GameRow) -> None: ...

    def load(self, game_id: str) -> GameRow | None: ...

    def moves_after(self, game_id: str, version: int) -> list[StoredMove]: ...

    def locked(self, game_id: str) -> AbstractContextManager[LockedGame | None]:
        """Lock one game's row (others wait) and commit on a clean exit, roll back on error."""
        ...

    def leaderboard(self, preset: str, no_guess: bool, limit: int) -> list[Result]: ...

    def listen(self, on_move: Callable[[str], None]) -> Callable[[], None] | None:
        """Call `on_move(game_id)` from another thread when another process stores a move;
        returns a stop function, or None where the database cannot tell (SQLite)."""
        ...

    def close(self) -> None: ...


def default_database(folder: Path | None = None) -> str:
    """The SQLite file `mines.sqlite3` in `folder`, by default the data folder of `mines`."""
    return f"sqlite:///{(folder or data_dir()) / 'mines.sqlite3'}"


def open_storage(url: str) -> Storage:
    """The storage a URL names: `sqlite:///path/to/file[?synchronous=full]` or
    `postgresql://...[?schema=name]`."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if parts.scheme == "sqlite":
        from mines.server.sqlite import SqliteStorage

        path = parts.path if parts.netloc == "" else f"{parts.netloc}{parts.path}"
        if not path or path == "/":
            raise StorageError(f"a SQLite URL needs a file: sqlite:///path/to/file, got {url!r}")
        synchronous = query.get("synchronous", ["normal"])[0]
        return SqliteStorage(Path(path), synchronous=synchronous)
    if parts.scheme in {"postgresql", "postgres"}:
        from mines.server.postgres import PostgresStorage

        schema = query.pop("schema", [None])[0]
        rest = "&".join(f"{key}={value}" for key, values in query.items() for value in values)
        return PostgresStorage(urlunsplit(parts._replace(query=rest)), schema=schema)
    raise StorageError(
        f"unknown database URL {url!r}; use sqlite:///path/to/file or postgresql://host/dbname"
    )
