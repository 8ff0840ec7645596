"""`RoomService`: race rooms kept in the database, their players' tokens, and their events.

Each room is played in the memory of the process that gets its requests (nginx routes them by
the room's ID), and that copy is taken as it is: a move is worked out on it and stored by one
write transaction fenced by the log's length (`RaceStore.append`), with no read and no row lock
first. A process whose copy is behind (another process stored moves meanwhile) stores nothing,
rebuilds the room from the log and works the move out again, so any process may answer any
room and two never write one log at once. Once stored, the moves go to the processes watching
the room (`announce`: the room's Redis channel; without Redis on PostgreSQL, NOTIFY at commit),
which play them. A room's events follow from its moves alone, so every process hands its
watchers the same events in the same order.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TypeVar, cast

from mines.clock import Clock, PinnedClock
from mines.errors import GameInProgressError, MinesError
from mines.moves import MoveKind
from mines.race import (
    Race,
    RaceMove,
    RaceState,
)
from mines.server.common.auth import (
    ROOM_TOKEN,
    ForbiddenError,
    NotAuthenticatedError,
    hash_token,
    is_token,
    new_token,
)
from mines.server.common.errors import RoomNotFoundError, echo_id
from mines.server.common.metrics import count_move
from mines.server.common.settings import MEMORY
from mines.server.db.race_store import (
    ANNOUNCE_PREFIX,
    Note,
    RaceStore,
    RoomRow,
    note_body,
    note_of,
)
from mines.server.db.sql import SqlStorage
from mines.server.db.storage import StorageError
from mines.server.services.cache import GameCache
from mines.server.services.names import check_scripts, stored_name
from mines.server.services.race_present import (
    event_json,
    lobby_json,
    replay_frames,
    room_json,
)
from mines.server.services.race_spec import RoomSpec, build_race, stored_spec

Publish = Callable[[str, dict[str, Any]], None]
T = TypeVar("T")
STALE_RETRIES = 8
"""Times a move is worked out again on a room rebuilt from the log before it is given up
(503): each time, another process stored moves of the room in the meantime."""
log = logging.getLogger(__name__)

NOTE_WORKERS = 4
"""Threads that play the moves other processes announce: a room waiting for its lock (its
own players' moves hold it) holds up one of them, not every room's events."""
REFRESH: dict[str, Any] = {"type": "refresh"}
"""Sent to a room's watchers when this process lost track of it: they read it again."""
LOBBY = "lobby"
"""The key `publish` is given for the lobby's watchers (no room's ID: those are hex digits)."""
LOBBY_CHANGED: dict[str, Any] = {"type": "lobby"}
"""Sent to the lobby's watchers when a public room changed: they read the lobby again."""
LOBBY_LIMIT = 50
"""Public rooms listed at most, in their lobby and racing each, newest first."""
LOBBY_FRESH = 1.0
"""Seconds a read of the lobby answers again, while no public room changed here: every
watcher of the lobby reads it at each change, and they share one read."""


class _StaleRoomError(Exception):
    """The log has moves the room played here had not: it is caught up, and the move is
    worked out again."""


@dataclass
class Room:
    """A room as this process last played it: its race, and how much of its log that is."""

    id: str
    race: Race
    clock: PinnedClock
    spec: dict[str, Any]
    """What the room was created with (`race_spec.stored_spec`): with its log, it rebuilds
    the race."""
    version: int = 0
    """How many moves of the stored log `race` has played."""
    published: int = 0
    """How many of the race's events this process has handed to its watchers."""
    tokens: list[str] = field(default_factory=list)
    """The players' token hashes, by player id."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    inbox: deque[Note] = field(default_factory=deque)
    """Other processes' notes not yet played here, in the order they came."""
    draining: bool = False
    """Whether a worker is playing the inbox (so notes of a room are played one at a time)."""


class RoomService:
    """Creates rooms, admits players, and applies their moves one at a time per room.

    Events are handed to `publish` in order while the room's lock is held; `publish` must
    only queue them (as `loop.call_soon_threadsafe` does), so watchers get them in order.
    `workers` play other processes' moves (`heard`) off the thread that heard them (a pool
    by default).
    Live rooms are kept in `cache`, the games' (`GameService.cache`): they count against the
    same memory budget, by `Race.footprint`, and the least recently used are dropped and
    rebuilt from storage as games are.
    """

    def __init__(
        self,
        storage: object,
        *,
        clock: Clock | None = None,
        publish: Publish | None = None,
        announce: Publish | None = None,
        workers: Executor | None = None,
        cache: GameCache | None = None,
    ) -> None:
        if not isinstance(storage, SqlStorage):
            raise TypeError(f"race rooms need an SQL storage, not {type(storage).__name__}")
        self.store = RaceStore(storage)
        self._clock: Clock = clock or time.time  # wall time: every process must agree on it
        self.publish: Publish = publish or (lambda room_id, message: None)
        self.announce: Publish = announce or (lambda room_id, note: None)
        """Hands the moves a commit stored (`race_store.note_body`) to the other processes
        watching the room, in order (the server's Redis fan-out); must not wait."""
        self.cache = cache or GameCache(MEMORY)
        """The live rooms (and, in a server, its live games) within one memory budget."""
        self._lock = threading.Lock()
        self._workers = workers or ThreadPoolExecutor(NOTE_WORKERS, thread_name_prefix="mines-race")
        self._lobby_changes = 0
        """Counts the public rooms' changes published here (`_published`)."""
        self._lobby_read: tuple[int, float, dict[str, Any]] | None = None
        """The last read of the lobby: the changes it saw, its monotonic time, the lobby."""

    def close(self) -> None:
        """Stop the threads that play other processes' moves (after the listener stopped)."""
        self._workers.shutdown(wait=True)

    # --- rooms and players ---------------------------------------------------------------------

    def create(self, spec: RoomSpec, player: str) -> tuple[str, dict[str, Any]]:
        """A new room with its creator as the host (player 0); returns their token and the
        room as they see it."""
        if spec.public:
            # Listed for everyone to read: its name and its host's are held to an
            # account's rule (one script, `names.check_scripts`), not only a label's.
            name = stored_name(spec.name if spec.name is not None else player)
            check_scripts(name)
            check_scripts(player)
            spec = replace(spec, name=name)
        stored = stored_spec(spec)
        room_id = secrets.token_hex(8)
        clock = PinnedClock(self._clock)
        fresh = Room(
            room_id, build_race(stored, clock), clock, stored
        )  # refuses bad settings first
        # A room that cannot fit in the memory budget is refused (503) before it is stored.
        self.cache.put(_key(room_id), fresh, fresh.race.footprint, refuse=True)
        try:
            self.store.create(
                RoomRow(room_id, stored, self._clock(), RaceState.LOBBY.value, 0, spec.public)
            )
        except BaseException:
            self._forget(room_id)
            raise
        _, token, room = self.join(room_id, player)
        return token, room

    def join(self, room_id: str, name: str) -> tuple[int, str, dict[str, Any]]:
        """Add a player to a room in its lobby; returns their player id, their token and the
        room as they see it."""
        token = new_token()
        if self._room(room_id).spec.get("public"):
            check_scripts(name)  # listed in the lobby: an account's rule, as its host's
        player, room = self._act(room_id, None, lambda race, _: race.join(name).id, token)
        return player, token, room

    def start(self, room_id: str, token: str | None) -> dict[str, Any]:
        def start(race: Race, player: int | None) -> None:
            if player != 0:
                raise ForbiddenError("only the host (who created the room) starts the race")
            race.start(player)

        return self._act(room_id, token, start)[1]

    def rematch(self, room_id: str, token: str | None) -> dict[str, Any]:
        """A new round in the same room, once the race is over (the host only)."""
        seed = secrets.randbits(63)

        def rematch(race: Race, player: int | None) -> None:
            if player != 0:
                raise ForbiddenError("only the host (who created the room) asks for a rematch")
            race.rematch(player, seed)

        return self._act(room_id, token, rematch)[1]

    def move(
        self,
        room_id: str,
        token: str | None,
        kind: MoveKind,
        cell: tuple[int, int],
        *,
        flagged: bool | None = None,
    ) -> dict[str, Any]:
        """Apply one player's move; the answer is the room as that player now sees it. A flag
        move with `flagged` sets that state (nothing when it already is so) instead of
        toggling it."""

        def move(race: Race, player: int | None) -> bool | None:
            assert player is not None
            if kind is MoveKind.OPEN:
                race.reveal(player, *cell)
            elif kind is MoveKind.CHORD:
                race.chord(player, *cell)
            elif flagged is not None:
                race.set_flag(player, *cell, flagged)
                return flagged
            else:
                return race.toggle_flag(player, *cell)
            return None

        flagged, answer = self._act(room_id, token, move)
        count_move(kind, "race")
        if flagged is not None:
            answer["flagged"] = flagged
        return answer

    def _act(
        self,
        room_id: str,
        token: str | None,
        act: Callable[[Race, int | None], T],
        new_token_of_player: str | None = None,
    ) -> tuple[T, dict[str, Any]]:
        """Run `act` on the room as kept here and store the moves it made, fenced by the log's
        length; returns what `act` did and the room as the player sees it then (a new player:
        the one `act` returned). A room kept here that is behind the log is rebuilt from it
        and `act` run again (see `_act_once`)."""
        for _ in range(STALE_RETRIES):
            room = self._room(room_id)
            with room.lock:
                try:
                    return self._act_once(room, token, act, new_token_of_player)
                except _StaleRoomError:
                    continue  # `_act_once` caught the room up with the log: try again
        raise StorageError(
            f"race room {room_id} was moved in by other server processes {STALE_RETRIES} times "
            "while this move was worked out; try it again",
            public="other server processes kept changing this room meanwhile",
        )

    def _act_once(
        self,
        room: Room,
        token: str | None,
        act: Callable[[Race, int | None], T],
        new_token_of_player: str | None,
    ) -> tuple[T, dict[str, Any]]:
        """`act` on the room, under its lock, stored where the log is as long as the room
        played here; `_StaleRoomError` (with the room caught up) when it is not.

        Its moves are stored by one fenced write, so a room behind the log stores nothing. A
        refusal or a move that changes nothing stores nothing either: its answer is right only
        if the room is current, which one read of the log's length says (as for games).
        """
        after = room.version
        token_hash = hash_token(new_token_of_player) if new_token_of_player else None
        if len(room.tokens) < len(room.race.players):
            # A player joined through another process (its note carries no token): read them.
            room.tokens = self.store.token_hashes(room.id)
        try:
            player = None if new_token_of_player else self._player_of(room, token)
            with room.clock.pinned_at(self._clock()):
                result = act(room.race, player)
        except MinesError as refused:
            if len(room.race.moves) != after:  # played in part: not stored, so rebuilt
                self._rebuild(room)
            elif not isinstance(refused, NotAuthenticatedError):  # the log would not change it
                self._check_current(room)
            raise
        except BaseException:
            if len(room.race.moves) != after:
                self._forget(room.id)
            raise
        added = room.race.moves[after:]
        if not added:
            self._check_current(room)
        else:
            try:
                stored = self.store.append(room.id, after, added, room.race.state.value, token_hash)
            except BaseException:
                self._forget(room.id)  # stored or not, the log is the truth: read it again
                raise
            if not stored:
                self._rebuild(room)
                raise _StaleRoomError
            # Committed: the moves are the log's, and their events may go out.
            room.version += len(added)
            if token_hash is not None:
                room.tokens.append(token_hash)
            self.announce(room.id, note_body(after, added))
            if room.spec.get("public"):
                # The other processes' lobby watchers read the lobby again (with Redis; a
                # NOTIFY names one room and says nothing of the lobby).
                self.announce(LOBBY, {**LOBBY_CHANGED, "room": room.id})
        self._published(room)
        self._reweigh(room)
        viewer = cast(int, result) if new_token_of_player else player  # a join: the joiner
        return result, room_json(room.id, room.race, viewer, self._clock())

    def _check_current(self, room: Room) -> None:
        """Raise `_StaleRoomError`, the room caught up, when the log has moves it has not played."""
        stored = self.store.version(room.id)
        if stored is None:
            self._forget(room.id)
            raise RoomNotFoundError(f"no race room has the ID {echo_id(room.id)!r}")
        if stored != room.version:
            self._apply(room, room.version, *self.store.moves_after(room.id, room.version))
            self._published(room)
            raise _StaleRoomError

    def _rebuild(self, room: Room) -> None:
        """Replace the room's race (played past its log) by the log's, under the room's lock;
        the events not yet handed out go out now, and none twice (they follow from the log)."""
        loaded = self.store.load(room.id)
        if loaded is None:
            self._forget(room.id)
            raise RoomNotFoundError(f"no race room has the ID {echo_id(room.id)!r}")
        row, moves, tokens = loaded
        room.clock = PinnedClock(self._clock)
        room.race = build_race(row.spec, room.clock)
        room.version = 0
        self._apply(room, 0, moves, tokens)
        self._published(room)
        self._reweigh(room)

    def _player_of(self, room: Room, token: str | None) -> int:
        """The player a token belongs to in this room."""
        if not token:
            raise NotAuthenticatedError(ROOM_TOKEN)
        for player, known in enumerate(room.tokens):
            if is_token(token, known):
                return player
        raise ForbiddenError("this token does not belong to a player of this room")

    # --- the cache and the other processes ------------------------------------------------------

    def _room(self, room_id: str) -> Room:
        """The room as this process keeps it, or rebuilt from storage (and kept)."""
        held = self.cache.get(_key(room_id))
        if isinstance(held, Room):
            return held
        loaded = self.store.load(room_id)
        if loaded is None:
            raise RoomNotFoundError(f"no race room has the ID {echo_id(room_id)!r}")
        row, moves, tokens = loaded
        clock = PinnedClock(self._clock)
        room = Room(row.id, build_race(row.spec, clock), clock, row.spec)
        self._apply(room, 0, moves, tokens)
        room.published = len(room.race.events)  # events from before are in the room's state
        with self._lock:  # two requests that rebuilt it at once keep the first one's
            held = self.cache.get(_key(room_id))
            if isinstance(held, Room):
                return held
            self.cache.put(_key(room_id), room, room.race.footprint)
        return room

    def _forget(self, room_id: str) -> None:
        self.cache.drop(_key(room_id))

    def _reweigh(self, room: Room) -> None:
        """Account the room's footprint again: its log and events grow with its moves."""
        self.cache.reweigh(_key(room.id), room, room.race.footprint)

    def _apply(
        self, room: Room, after: int, moves: list[RaceMove], tokens: list[str] | None = None
    ) -> bool:
        """Play the moves of the log after its first `after` that the room has not played
        (under the room's lock); False when moves before them are missing here."""
        if after > room.version:
            return False
        for move in moves[room.version - after :]:
            with room.clock.pinned_at(move.at):
                room.race.play(move)
            room.version += 1
        if tokens is not None and len(tokens) > len(room.tokens):  # they only ever grow
            room.tokens = tokens
        return True

    def _sync(self, room: Room) -> None:
        """Play the moves stored since the room was last played here, and publish their
        events; the log is read before the room's lock is taken."""
        after = room.version
        stored = self.store.moves_after(room.id, after)
        with room.lock:
            self._apply(room, after, *stored)
            self._published(room)
            self._reweigh(room)

    def moved_elsewhere(self, key: str) -> None:
        """Another process stored moves of a room, as a notification said (PostgreSQL without
        Redis: `race_store.note_text`); see `heard`."""
        note = note_of(key)
        if note is not None:
            self.heard(note)

    def heard(self, note: Note) -> None:
        """Another process stored moves of a room: a worker plays them and publishes their
        events. This runs on the thread that heard the note (the event loop, for Redis), which
        must not wait: the room's lock may be held by a move of its own."""
        with self._lock:
            room = self.cache.get(_key(note.room_id))
            if not isinstance(room, Room):
                # Not kept here (or dropped for memory): whoever reads it next rebuilds it.
                # Watchers here, if any, read it now, so they miss nothing.
                self.publish(note.room_id, REFRESH)
                return
            room.inbox.append(note)
            if room.draining:
                return  # the worker on this room takes it in turn
            room.draining = True
        self._workers.submit(self._drain, room)

    def changed_elsewhere(self, room_id: object) -> None:
        """A public room changed on another process (its note on the lobby's channel): a copy
        kept here plays its log first (its events then change the lobby, as a move here
        does), else the lobby's watchers read it again at once."""
        if isinstance(room_id, str):
            with self._lock:
                kept = isinstance(self.cache.get(_key(room_id)), Room)
            if kept:
                self.heard(Note(room_id))  # no moves: the log is read
                return
        self._lobby_changed()

    def read_again(self, watched: Iterable[str]) -> None:
        """Notes may have gone unheard (the listener or the subscription lost its connection):
        every room kept here plays what its log holds since (and publishes the events), and
        the watchers of the rooms in `watched` not kept here read them again."""
        kept = [key for key, _ in self.cache.weights() if key.startswith(ANNOUNCE_PREFIX)]
        for key in dict.fromkeys([*kept, *(_key(room_id) for room_id in watched)]):
            self.heard(Note(key.removeprefix(ANNOUNCE_PREFIX)))  # no moves: the log is read

    def _drain(self, room: Room) -> None:
        """Play a room's inbox in order and publish the events, until it is empty."""
        try:
            while notes := self._take_inbox(room):
                with room.lock:
                    carried = all(self._apply_note(room, note) for note in notes)
                    self._published(room)
                    self._reweigh(room)
                if not carried:  # a note without its moves, or a gap: read the log
                    self._sync(room)
        except Exception:
            # The room is rebuilt from storage on its next read; its watchers here read it
            # again rather than wait for events this process will not have.
            log.exception("race room %s: playing other processes' moves failed", room.id)
            with self._lock:
                room.inbox.clear()
                room.draining = False
            self._forget(room.id)
            self.publish(room.id, REFRESH)

    def _take_inbox(self, room: Room) -> list[Note]:
        """The inbox's notes, emptying it; none left ends the room's worker."""
        with self._lock:
            notes = list(room.inbox)
            room.inbox.clear()
            room.draining = bool(notes)
            return notes

    def _apply_note(self, room: Room, note: Note) -> bool:
        return note.moves is not None and self._apply(room, note.after, note.moves)

    def _published(self, room: Room) -> None:
        """Hand the events not yet published to `publish`, in order, under the room's lock."""
        events = room.race.events[room.published :]
        for event in events:
            self.publish(room.id, {"type": "event", "event": event_json(event)})
        room.published = len(room.race.events)
        if events and room.spec.get("public"):
            self._lobby_changed()

    def _lobby_changed(self) -> None:
        """A public room changed: the lobby's watchers read it again, past its kept read."""
        self._lobby_changes += 1
        self.publish(LOBBY, LOBBY_CHANGED)

    # --- reading -----------------------------------------------------------------------------

    def read(self, room_id: str, token: str | None) -> dict[str, Any]:
        """The room as its player sees it (with a token), or as a watcher does (without)."""
        room = self._room(room_id)
        self._sync(room)
        with room.lock:
            player = None if token is None else self._player_of(room, token)
            return room_json(room.id, room.race, player, self._clock())

    def lobby(self) -> dict[str, Any]:
        """The public rooms: those in their lobby, to join (`rooms`), and those racing, to
        watch (`live`), newest first, `LOBBY_LIMIT` of each, as this process keeps them (each
        room's events reach it as they reach its watchers here). One read serves every watcher
        for `LOBBY_FRESH` seconds while no public room changes here."""
        changes, now = self._lobby_changes, time.monotonic()
        kept = self._lobby_read
        if kept is not None and kept[0] == changes and now - kept[1] < LOBBY_FRESH:
            return kept[2]
        found: dict[str, Any] = {"rooms": [], "live": []}
        for state, key in ((RaceState.LOBBY, "rooms"), (RaceState.RACING, "live")):
            for room_id in self.store.public_rooms((state.value,), LOBBY_LIMIT):
                try:
                    room = self._room(room_id)
                except RoomNotFoundError:
                    continue  # pruned since it was listed
                with room.lock:
                    if room.race.state is state:  # as stored, unless it moved on since
                        found[key].append(lobby_json(room.id, room.spec, room.race))
        self._lobby_read = (changes, now, found)
        return found

    def replay(self, room_id: str) -> dict[str, Any]:
        """A finished race's moves and the events they made, in order, and its frames as a
        watcher saw them (the shape of a game's replay, so one player plays both)."""
        room = self._room(room_id)
        self._sync(room)
        with room.lock:
            race = room.race
            moves, events = race.finished
            if not moves:
                raise GameInProgressError("a race's replay is published once the race is over")
            # Up to the end of the last finished round: the moves of a round under way
            # would show the players' private flags.
            log = race.moves[:moves]
            return {
                "id": room.id,
                "moves": [{**asdict(move), "action": move.action.value} for move in log],
                "events": [event_json(event) for event in race.events[:events]],
                **replay_frames(room.spec, log),
            }


def _key(room_id: str) -> str:
    """The room's key in the games' cache, apart from the games' IDs (hex digits only)."""
    return ANNOUNCE_PREFIX + room_id
