"""Race rooms in the games' database: a room's settings, its players' token hashes, its move log."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from mines.race import RaceAction, RaceMove
from mines.server.db.sql import Cursor, SqlStorage

ANNOUNCE_PREFIX = "race:"
"""Notifications of race moves carry `race:<id>`, apart from the games' IDs."""
NOTE_LIMIT = 7_000
"""The most bytes of moves a notification carries: PostgreSQL's payload limit is 8,000 with
the sender's origin and the room's key. Past it the others read the moves from the table."""


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: what it was created with, and how many moves its log holds."""

    id: str
    spec: dict[str, Any]
    created_at: float
    state: str
    version: int
    public: bool = False
    """Listed in the lobby (`GET /api/races?open=true`)."""


def move_text(move: RaceMove) -> str:
    fields = asdict(move)
    del fields["at"]  # stored in its own column
    return json.dumps(fields, separators=(",", ":"))


def move_of(text: str, at: float) -> RaceMove:
    fields = json.loads(text)
    return RaceMove(action=RaceAction(fields.pop("action")), at=at, **fields)


@dataclass(frozen=True)
class Note:
    """A notification that a room's log grew: the moves after the first `after`, when the
    notification could carry them (else None: read them from the table)."""

    room_id: str
    after: int = 0
    moves: list[RaceMove] | None = None


def note_body(after: int, moves: list[RaceMove]) -> dict[str, Any]:
    """A note's moves as JSON data, `{"after": n, "moves": [...]}`: what a notification
    carries after the room's key, and a Redis frame of the room's channel."""
    return {"after": after, "moves": [asdict(move) for move in moves]}


def note_text(room_id: str, after: int, moves: list[RaceMove]) -> str:
    """`race:<id> {"after", "moves"}`, or only `race:<id>` when the moves are too long for a
    notification. (A join's token needs no note: moves and reads take the tokens from the
    table.)"""
    key = ANNOUNCE_PREFIX + room_id
    body = json.dumps(note_body(after, moves), separators=(",", ":"))
    return key if len(body) > NOTE_LIMIT else f"{key} {body}"


def note_of(text: str) -> Note | None:
    """The note `note_text` wrote (None: not a race's); one it cannot read names only its
    room, so that the moves are read from the table."""
    if not text.startswith(ANNOUNCE_PREFIX):
        return None
    key, _, body = text.partition(" ")
    room_id = key.removeprefix(ANNOUNCE_PREFIX)
    if not body:
        return Note(room_id)
    try:
        fields = json.loads(body)
    except ValueError:
        return Note(room_id)
    return read_note(room_id, fields)


def read_note(room_id: str, fields: Any) -> Note:
    """The note of a room whose moves `fields` carries (`note_body`'s shape); anything else
    (a `refresh`, a frame it cannot read) names only its room: the moves are read from the table."""
    try:
        moves = [
            RaceMove(**{**move, "action": RaceAction(move["action"])}) for move in fields["moves"]
        ]
        return Note(room_id, int(fields["after"]), moves)
    except (ValueError, KeyError, TypeError):
        return Note(room_id)


class RaceStore:
    """The race tables (made by the games' migrations), through the games' storage and its locks."""

    def __init__(self, storage: SqlStorage):
        self.storage = storage

    def create(self, row: RoomRow) -> None:
        with self.storage.transaction(write=True) as cursor:
            cursor.execute(
                self.storage.sql(
                    "INSERT INTO races (id, spec, created_at, state, version, public) "
                    "VALUES (?, ?, ?, ?, 0, ?)"
                ),
                (row.id, json.dumps(row.spec), row.created_at, row.state, row.public),
            )

    def public_rooms(self, states: tuple[str, ...], limit: int) -> list[str]:
        """The IDs of the public rooms in these states, newest first (the index `races_open`)."""
        marks = ", ".join("?" * len(states))
        with self.storage.transaction(write=False) as cursor:
            cursor.execute(
                self.storage.sql(
                    f"SELECT id FROM races WHERE public AND state IN ({marks}) "
                    "ORDER BY created_at DESC LIMIT ?"
                ),
                (*states, limit),
            )
            return [str(room_id) for (room_id,) in cursor.fetchall()]

    def _select(self, cursor: Cursor, room_id: str) -> RoomRow | None:
        cursor.execute(
            self.storage.sql("SELECT id, spec, created_at, state, version FROM races WHERE id = ?"),
            (room_id,),
        )
        values = cursor.fetchone()
        if values is None:
            return None
        id_, spec, created, state, version = values
        return RoomRow(id_, json.loads(spec), float(created), state, int(version))

    def read_moves(self, cursor: Cursor, room_id: str, version: int) -> list[RaceMove]:
        cursor.execute(
            self.storage.sql(
                "SELECT move, at FROM race_moves WHERE race_id = ? AND seq > ? ORDER BY seq"
            ),
            (room_id, version),
        )
        return [move_of(text, float(at)) for text, at in cursor.fetchall()]

    def read_tokens(self, cursor: Cursor, room_id: str) -> list[str]:
        cursor.execute(
            self.storage.sql(
                "SELECT token_hash FROM race_players WHERE race_id = ? ORDER BY player"
            ),
            (room_id,),
        )
        return [token_hash for (token_hash,) in cursor.fetchall()]

    def load(self, room_id: str) -> tuple[RoomRow, list[RaceMove], list[str]] | None:
        """A room with its whole log and its players' token hashes, or None."""
        with self.storage.transaction(write=False) as cursor:
            row = self._select(cursor, room_id)
            if row is None:
                return None
            return row, self.read_moves(cursor, room_id, 0), self.read_tokens(cursor, room_id)

    def token_hashes(self, room_id: str) -> list[str]:
        with self.storage.transaction(write=False) as cursor:
            return self.read_tokens(cursor, room_id)

    def moves_after(self, room_id: str, version: int) -> tuple[list[RaceMove], list[str]]:
        with self.storage.transaction(write=False) as cursor:
            return self.read_moves(cursor, room_id, version), self.read_tokens(cursor, room_id)

    def prune(self, before: float, *, dry_run: bool = False) -> int:
        """Delete the rooms created before `before`, with their players and moves. The
        number of rooms (that would be) deleted."""
        q = self.storage.sql
        with self.storage.transaction(write=not dry_run) as cursor:
            cursor.execute(q("SELECT id FROM races WHERE created_at < ?"), (before,))
            found = [str(row[0]) for row in cursor.fetchall()]
            if not dry_run:
                old = "IN (SELECT id FROM races WHERE created_at < ?)"
                cursor.execute(q(f"DELETE FROM race_moves WHERE race_id {old}"), (before,))
                cursor.execute(q(f"DELETE FROM race_players WHERE race_id {old}"), (before,))
                cursor.execute(q("DELETE FROM races WHERE created_at < ?"), (before,))
        return len(found)

    def append(
        self,
        room_id: str,
        after: int,
        moves: list[RaceMove],
        state: str,
        token_hash: str | None = None,
    ) -> bool:
        """Store the moves that follow the first `after` of a room's log (and a joining
        player's token hash), only where the stored log is still `after` moves long: the
        version fence. False, and nothing stored, when it is not (another process stored moves
        meanwhile) or the room is gone. One transaction: the room's row first, then the moves in
        one INSERT (then the token) - no read, no lock held before the write."""
        q = self.storage.sql
        with self.storage.transaction(write=True) as cursor:
            cursor.execute(
                q("UPDATE races SET version = ?, state = ? WHERE id = ? AND version = ?"),
                (after + len(moves), state, room_id, after),
            )
            if cursor.rowcount != 1:
                return False
            rows = ", ".join(["(?, ?, ?, ?)"] * len(moves))
            values = [
                value
                for seq, move in enumerate(moves, start=after + 1)
                for value in (room_id, seq, move_text(move), move.at)
            ]
            cursor.execute(
                q(f"INSERT INTO race_moves (race_id, seq, move, at) VALUES {rows}"), values
            )
            if token_hash is not None:
                cursor.execute(
                    q("INSERT INTO race_players (race_id, player, token_hash) VALUES (?, ?, ?)"),
                    (room_id, moves[-1].player, token_hash),
                )
            if self.storage.announce_moves:  # PostgreSQL without Redis: NOTIFY at commit
                self.storage.announce(cursor, note_text(room_id, after, moves))
        return True

    def version(self, room_id: str) -> int | None:
        """How many moves the room's log holds (None: no such room)."""
        with self.storage.transaction(write=False) as cursor:
            cursor.execute(self.storage.sql("SELECT version FROM races WHERE id = ?"), (room_id,))
            found = cursor.fetchone()
        return None if found is None else int(found[0])
