"""`RoomService`: race rooms in this process, their players' tokens, and their event stream."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mines.clock import Clock
from mines.errors import InvalidBoardError
from mines.moves import MoveKind
from mines.params import check_board
from mines.placement import FirstClick
from mines.presets import preset
from mines.race import OnMine, Player, Race, RaceEvent, RaceMode, RaceSettings, RaceState
from mines.server.auth import ForbiddenError, NotAuthenticatedError, hash_token, new_token
from mines.server.errors import GameNotFoundError
from mines.server.present import view_json

Publish = Callable[[str, dict[str, Any]], None]

ROOM_CELL_LIMIT = 2_500
"""The largest race board (rows x cols): 50 x 50, past Expert's 16 x 30 with room to spare."""
ROOM_LIMIT = 1_000
"""Rooms one process keeps at once; finished and idle rooms make way first."""
IDLE_SECONDS = 3_600.0
"""A room nobody has moved in for this long may be dropped to make way for a new one."""
ROOM_TOKEN = "race moves need your player token: send the header Authorization: Bearer <token>"


class RoomNotFoundError(GameNotFoundError):
    """No race room has this ID (HTTP 404)."""


class RoomsFullError(InvalidBoardError):
    """This server holds as many race rooms as it may; a new one must wait (HTTP 422)."""


@dataclass(frozen=True)
class RoomSpec:
    """What the creator of a room chooses: the board, its first-click rule and the race rules."""

    preset: str | None = None
    rows: int | None = None
    cols: int | None = None
    mines: int | None = None
    seed: int | None = None
    first_click: str = FirstClick.OPENING.value
    no_guess: bool = False
    mode: str = RaceMode.SHARED.value
    on_mine: str = OnMine.OUT.value
    freeze_seconds: float = 5.0
    freeze_penalty: int = 10
    max_players: int = 8


@dataclass
class Room:
    """One race and the hashes of its players' tokens, by player id."""

    id: str
    race: Race
    tokens: list[str] = field(default_factory=list)
    touched: float = 0.0
    published: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class RoomService:
    """Creates rooms, admits players, and applies their moves one at a time per room.

    Events are published in move order while the room's lock is held, through `publish`
    (which must only queue them, as `loop.call_soon_threadsafe` does), so that every
    watcher receives them in the order of their numbers.
    """

    def __init__(self, *, clock: Clock | None = None, publish: Publish | None = None) -> None:
        self._clock: Clock = clock or time.monotonic
        self.publish: Publish = publish or (lambda key, message: None)
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()

    # --- rooms and players ---------------------------------------------------------------------

    def create(self, spec: RoomSpec, player: str) -> tuple[Room, str]:
        """A new room with its creator as the host (player 0); returns the host's token."""
        rows, cols, mines = _board(spec)
        rule = "noguess" if spec.no_guess else spec.first_click
        settings = RaceSettings(
            mode=RaceMode(spec.mode),
            on_mine=OnMine(spec.on_mine),
            freeze_seconds=spec.freeze_seconds,
            freeze_penalty=spec.freeze_penalty,
            max_players=spec.max_players,
        )
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        race = Race(rows, cols, mines, seed=seed, rule=rule, settings=settings, clock=self._clock)
        room = Room(secrets.token_hex(8), race, touched=self._clock())
        with self._lock:
            self._make_way()
            self._rooms[room.id] = room
        return room, self.join(room.id, player)[1]

    def join(self, room_id: str, name: str) -> tuple[Player, str]:
        room = self.room(room_id)
        with room.lock:
            player = room.race.join(name)
            token = new_token()
            room.tokens.append(hash_token(token))
            self._published(room)
        return player, token

    def room(self, room_id: str) -> Room:
        found = self._rooms.get(room_id)
        if found is None:
            raise RoomNotFoundError(f"no race room has the ID {room_id[:24]!r}")
        return found

    def player_of(self, room: Room, token: str | None) -> int:
        """The player a token belongs to in this room."""
        if not token:
            raise NotAuthenticatedError(ROOM_TOKEN)
        digest = hash_token(token)
        for player, known in enumerate(room.tokens):
            if secrets.compare_digest(known, digest):
                return player
        raise ForbiddenError("this token does not belong to a player of this room")

    def _make_way(self) -> None:
        if len(self._rooms) < ROOM_LIMIT:
            return
        now = self._clock()
        for room_id, room in list(self._rooms.items()):
            if room.race.state is RaceState.OVER or now - room.touched > IDLE_SECONDS:
                del self._rooms[room_id]
        if len(self._rooms) >= ROOM_LIMIT:
            raise RoomsFullError(
                f"this server already holds {ROOM_LIMIT:,} race rooms; try again in a while"
            )

    # --- moves -----------------------------------------------------------------------------

    def start(self, room_id: str, token: str | None) -> dict[str, Any]:
        room = self.room(room_id)
        with room.lock:
            player = self.player_of(room, token)
            if player != 0:
                raise ForbiddenError("only the host (who created the room) starts the race")
            room.race.start(player)
            self._published(room)
            return self.state(room, player)

    def move(
        self, room_id: str, token: str | None, kind: MoveKind, cell: tuple[int, int]
    ) -> dict[str, Any]:
        """Apply one player's move; the answer is the room as that player now sees it."""
        room = self.room(room_id)
        with room.lock:
            player = self.player_of(room, token)
            race = room.race
            flagged = None
            if kind is MoveKind.OPEN:
                race.reveal(player, *cell)
            elif kind is MoveKind.CHORD:
                race.chord(player, *cell)
            else:
                flagged = race.toggle_flag(player, *cell)
            room.touched = self._clock()
            self._published(room)
            answer = self.state(room, player)
            if flagged is not None:
                answer["flagged"] = flagged
            return answer

    def _published(self, room: Room) -> None:
        """Hand the events not yet published to `publish`, in order, under the room's lock."""
        for event in room.race.events[room.published :]:
            self.publish(room.id, {"type": "event", "event": event_json(event, room.race)})
        room.published = len(room.race.events)

    # --- reading -----------------------------------------------------------------------------

    def read(self, room_id: str, token: str | None) -> dict[str, Any]:
        """The room as its player sees it (with a token), or as a watcher does (without)."""
        room = self.room(room_id)
        with room.lock:
            player = None if token is None else self.player_of(room, token)
            return self.state(room, player)

    def state(self, room: Room, player: int | None) -> dict[str, Any]:
        race = room.race
        now = self._clock()
        return {
            "id": room.id,
            "state": race.state.value,
            "mode": race.settings.mode.value,
            "on_mine": race.settings.on_mine.value,
            "rule": race.rule,
            "seq": len(race.events),
            "starts_in": max(0.0, round(race.starts_at - now, 3))
            if race.state is RaceState.RACING
            else None,
            "you": player,
            "winner": race.winner if race.state is RaceState.OVER else None,
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "score": p.score,
                    "out": p.out,
                    "frozen_for": max(0.0, round(p.frozen_until - now, 3)),
                    "progress": round(share, 4),
                }
                for p, share in zip(race.players, race.progress(), strict=True)
            ],
            "view": view_json(race.view(player), 0.0),
            "seed": race.seed if race.state is RaceState.OVER else None,
        }


def event_json(event: RaceEvent, race: Race) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind.value,
        "player": event.player,
        "cells": [list(cell) for cell in event.cells],
        "scores": list(event.scores),
        "progress": [round(share, 4) for share in event.progress],
        "state": race.state.value,
    }


def _board(spec: RoomSpec) -> tuple[int, int, int]:
    if spec.preset is not None:
        board = preset(spec.preset)
        rows, cols, mines = board.rows, board.cols, board.mines
    elif spec.rows is None or spec.cols is None or spec.mines is None:
        raise InvalidBoardError('give a "preset", or all of "rows", "cols" and "mines"')
    else:
        rows, cols, mines = spec.rows, spec.cols, spec.mines
    if rows * cols > ROOM_CELL_LIMIT:
        raise InvalidBoardError(
            f"a race board has at most {ROOM_CELL_LIMIT:,} cells (50 x 50); "
            f"{rows} x {cols} is {rows * cols:,}"
        )
    return check_board(rows, cols, mines)
