"""`/api/races`: race rooms — create, join, start, move, read, and a WebSocket of their events."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from mines.errors import MinesError
from mines.moves import MoveKind
from mines.server.api.deps import (
    Accounts,
    CurrentAccount,
    Fanout,
    LiveHub,
    Rooms,
    Sockets,
    Token,
    error_responses,
)
from mines.server.api.schemas import FlagTarget, MoveTarget, PlayerName, PresetName
from mines.server.api.sockets import admitted, ignore_until_closed
from mines.server.common.errors import InvalidRequestError
from mines.server.db.storage import AccountRow
from mines.server.services.accounts import AccountService
from mines.server.services.fanout import RedisFanout
from mines.server.services.games import SEED_LIMIT
from mines.server.services.hub import Hub
from mines.server.services.race_spec import ROOM_CELL_LIMIT, RoomSpec
from mines.server.services.rooms import LOBBY, RoomService
from mines.server.web.handlers import classify
from mines.server.web.ratelimit import rate_limit

router = APIRouter(prefix="/api/races", tags=["races"])
Name = PlayerName


class NewRoom(BaseModel):
    """A preset or a size, the first-click rule or no-guess, the race rules, and your name."""

    model_config = ConfigDict(extra="forbid")

    player: Name
    preset: PresetName | None = None
    # Each side as long as the whole board may be: RoomService refuses past 2,500 cells.
    rows: Annotated[int, Field(strict=True, ge=1, le=ROOM_CELL_LIMIT)] | None = None
    cols: Annotated[int, Field(strict=True, ge=1, le=ROOM_CELL_LIMIT)] | None = None
    mines: Annotated[int, Field(strict=True, ge=0, le=ROOM_CELL_LIMIT)] | None = None
    seed: Annotated[int, Field(strict=True, ge=0, le=SEED_LIMIT)] | None = None
    first_click: Literal["opening", "safe"] = "opening"
    no_guess: Annotated[bool, Field(strict=True)] = False
    mode: Literal["shared", "duel"] = "shared"
    on_mine: Literal["out", "freeze"] = "out"
    freeze_seconds: Annotated[float, Field(gt=0, le=60)] = 5.0
    freeze_penalty: Annotated[int, Field(strict=True, ge=0, le=1000)] = 10
    max_players: Annotated[int, Field(strict=True, ge=2, le=8)] = 8
    public: Annotated[bool, Field(strict=True)] = False
    """List the room in the lobby (`GET /api/races?open=true`) for anyone to join or watch."""
    name: Name | None = None
    """A public room's name in the lobby (the host's name when not given): an account's
    name rule."""


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: Name


class RacePlayer(BaseModel):
    id: int
    name: str
    score: int
    out: bool
    frozen_for: float
    progress: float
    """The share of safe cells open on this player's board (in a shared race, the board's)."""


class RoomView(BaseModel):
    rows: int
    cols: int
    status: str
    mines_left: int
    elapsed: float
    top: int
    left: int
    cells: list[str]


class RoomOut(BaseModel):
    id: str
    state: Literal["lobby", "racing", "over"]
    mode: Literal["shared", "duel"]
    on_mine: Literal["out", "freeze"]
    rule: str
    seq: int
    """The number of the room's last event: a client that saw it has missed nothing."""
    starts_in: float | None
    you: int | None
    winner: int | None
    players: list[RacePlayer]
    view: RoomView
    openers: list[str]
    """Who opened each cell: a player's id as a digit, `*` opened for all, `.` not opened."""
    seed: int | None
    flagged: bool | None = None


class LobbyBoard(BaseModel):
    rows: int
    cols: int
    mines: int
    preset: PresetName | None
    rule: str


class LobbyRoom(BaseModel):
    id: str
    name: str
    state: Literal["lobby", "racing", "over"]
    board: LobbyBoard
    mode: Literal["shared", "duel"]
    players: list[str]
    """The players' names, the host first."""
    max_players: int


class LobbyOut(BaseModel):
    rooms: list[LobbyRoom]
    """Public rooms in their lobby, to join; newest first."""
    live: list[LobbyRoom]
    """Public rooms racing, to watch; newest first."""


class JoinedOut(BaseModel):
    player: int
    token: str
    """This player's bearer token for moves in the room; shown only in this answer."""
    room: RoomOut


async def check_name(accounts: AccountService, account: AccountRow | None, name: str) -> None:
    """A racer's name: never one the operators withheld, and an account's only with that
    account's session (`AccountService.check_guest_name`)."""
    await run_in_threadpool(accounts.check_guest_name, name, account)


@router.post(
    "",
    status_code=201,
    response_model=JoinedOut,
    responses=error_responses(409, 422),
    summary="New room",
    openapi_extra=rate_limit("create"),
)
async def create_room(
    body: NewRoom, rooms: Rooms, accounts: Accounts, account: CurrentAccount
) -> dict[str, Any]:
    fields = body.model_dump()
    player = fields.pop("player")
    await check_name(accounts, account, player)
    token, room = await run_in_threadpool(rooms.create, RoomSpec(**fields), player)
    return {"player": 0, "token": token, "room": room}


@router.get(
    "",
    response_model=LobbyOut,
    responses=error_responses(422),
    summary="The lobby: the public rooms",
)
async def open_rooms(rooms: Rooms, open: bool = False) -> dict[str, Any]:
    """The public rooms (created with `"public": true`) waiting for players and those racing,
    to watch; never a private room. WebSocket `/api/races/live` pushes the same as it changes."""
    if not open:
        raise InvalidRequestError("GET /api/races lists the public rooms: ask with ?open=true")
    found: dict[str, Any] = await run_in_threadpool(rooms.lobby)
    return found


@router.post(
    "/{room_id}/join",
    response_model=JoinedOut,
    responses=error_responses(404, 409, 422),
    summary="Join a room in its lobby",
)
async def join_room(
    room_id: str, body: Join, rooms: Rooms, accounts: Accounts, account: CurrentAccount
) -> dict[str, Any]:
    await check_name(accounts, account, body.player)
    player, token, room = await run_in_threadpool(rooms.join, room_id, body.player)
    return {"player": player, "token": token, "room": room}


@router.post(
    "/{room_id}/start",
    response_model=RoomOut,
    responses=error_responses(401, 403, 404, 409),
    summary="Start the race (the host only)",
)
async def start_room(room_id: str, token: Token, rooms: Rooms) -> dict[str, Any]:
    answer: dict[str, Any] = await run_in_threadpool(rooms.start, room_id, token)
    return answer


@router.post(
    "/{room_id}/rematch",
    response_model=RoomOut,
    responses=error_responses(401, 403, 404, 409),
    summary="A new round in the same room once the race is over (the host only)",
)
async def rematch_room(room_id: str, token: Token, rooms: Rooms) -> dict[str, Any]:
    answer: dict[str, Any] = await run_in_threadpool(rooms.rematch, room_id, token)
    return answer


@router.get(
    "/{room_id}", response_model=RoomOut, responses=error_responses(403, 404), summary="Read a room"
)
async def read_room(room_id: str, token: Token, rooms: Rooms) -> dict[str, Any]:
    """With a player's token, the board as that player sees it (their own flags); without
    one, as a watcher sees it."""
    answer: dict[str, Any] = await run_in_threadpool(rooms.read, room_id, token)
    return answer


@router.get(
    "/{room_id}/replay", responses=error_responses(404, 409), summary="Replay of a finished race"
)
async def replay_room(room_id: str, rooms: Rooms) -> dict[str, Any]:
    """Every move of the race with its time, and every event those moves made, in order."""
    answer: dict[str, Any] = await run_in_threadpool(rooms.replay, room_id)
    return answer


def _add_move_route(kind: MoveKind, verb: str, summary: str) -> None:
    async def play(room_id: str, cell: MoveTarget, token: Token, rooms: Rooms) -> dict[str, Any]:
        answer: dict[str, Any] = await run_in_threadpool(
            partial(rooms.move, flagged=getattr(cell, "flagged", None)),
            room_id,
            token,
            kind,
            (cell.row, cell.col),
        )
        return answer

    async def flag(room_id: str, cell: FlagTarget, token: Token, rooms: Rooms) -> dict[str, Any]:
        return await play(room_id, cell, token, rooms)

    move = flag if kind is MoveKind.FLAG else play  # a flag's body may say the state to set

    router.add_api_route(
        f"/{{room_id}}/{verb}",
        move,
        methods=["POST"],
        name=f"race_{verb}",
        summary=summary,
        response_model=RoomOut,
        responses=error_responses(401, 403, 404, 409, 422),
        openapi_extra=rate_limit("room"),
    )


_add_move_route(MoveKind.OPEN, "reveal", "Reveal a cell in a race")
_add_move_route(MoveKind.FLAG, "flag", "Flag or unflag a cell (your own flags only)")
_add_move_route(MoveKind.CHORD, "chord", "Chord a number with your own flags")


def room_key(room_id: str) -> str:
    """The hub's key for a room's events, apart from the games' keys."""
    return f"race:{room_id}"


@router.websocket("/live")
async def watch_lobby(
    websocket: WebSocket, rooms: Rooms, hub: LiveHub, fanout: Fanout, sockets: Sockets
) -> None:
    """`{"type": "lobby", "rooms": [...], "live": [...]}` (`GET /api/races?open=true`'s
    answer) at once, and again whenever a public room changes, here or (with Redis) on
    another process: pushed, never polled."""
    async with admitted(websocket, sockets) as room:
        if room:
            with hub.subscribe(room_key(LOBBY)) as queue:
                if fanout is not None:
                    await fanout.joined(room_key(LOBBY))  # other processes' changes too
                forward = asyncio.create_task(_push_lobby(queue, websocket, rooms))
                try:
                    await ignore_until_closed(websocket)
                finally:
                    forward.cancel()


async def _push_lobby(
    queue: asyncio.Queue[dict[str, Any]], websocket: WebSocket, rooms: RoomService
) -> None:
    while True:
        found = await run_in_threadpool(rooms.lobby)
        await websocket.send_json({"type": "lobby", **found})
        await queue.get()  # a change (or a refresh): read the lobby again
        while not queue.empty():  # changes that came together: one read shows them all
            queue.get_nowait()


@router.websocket("/{room_id}/live")
async def watch_room(
    websocket: WebSocket,
    room_id: str,
    rooms: Rooms,
    hub: LiveHub,
    fanout: Fanout,
    sockets: Sockets,
) -> None:
    """First `{"type": "room", "room": ...}` (with `?token=` as that player sees it), then
    `{"type": "event", "event": {"seq", ...}}` per event in order, and `{"type": "refresh"}`
    when this watcher fell behind and should read the room again."""
    async with admitted(websocket, sockets) as room:
        if room:
            await _serve(websocket, room_id, rooms, hub, fanout)


async def _serve(
    websocket: WebSocket, room_id: str, rooms: RoomService, hub: Hub, fanout: RedisFanout | None
) -> None:
    token = websocket.query_params.get("token")
    with hub.subscribe(room_key(room_id)) as queue:
        if fanout is not None:
            await fanout.joined(room_key(room_id))  # other processes' moves too, before the room
        try:
            room = await run_in_threadpool(rooms.read, room_id, token)
        except MinesError as error:
            # 4000 + the HTTP status the same request would get, as for games' sockets.
            status, _ = classify(error)
            await websocket.close(code=4000 + status, reason=str(error)[:120])
            return
        await websocket.send_json({"type": "room", "room": room})
        forward = asyncio.create_task(_forward(queue, websocket, room["seq"]))
        try:
            await ignore_until_closed(websocket)  # moves go through the HTTP routes
        finally:
            forward.cancel()


async def _forward(queue: asyncio.Queue[dict[str, Any]], websocket: WebSocket, seen: int) -> None:
    while True:
        message = await queue.get()
        event = message.get("event")
        if event is not None and event["seq"] <= seen:  # already in the room it was sent
            continue
        await websocket.send_json(message)
