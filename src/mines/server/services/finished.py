"""A finished game's record, summary and replay frames, as JSON; big games' in a worker process,
so that building one (a 1000x1000 record is a tuple per mine) never holds the server's GIL."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, Protocol

import numpy as np

from mines.game import Game
from mines.record import GameRecord
from mines.replay import replay, replay_steps
from mines.server.common.errors import InvalidRequestError
from mines.server.common.settings import Settings
from mines.server.services.present import Box, Window, resolve_window, view_json
from mines.view import BoardView


class FinishedGames(Protocol):
    """What reading a finished game needs of the game service."""

    @property
    def settings(self) -> Settings: ...

    def record(self, game_id: str) -> dict[str, Any]: ...

    def summary(self, game_id: str) -> dict[str, Any]: ...


REPLAY_WORK_LIMIT = 20_000_000
"""Window cells times moves: the most a replay may compare."""
INLINE_CELLS = 10_000
INLINE_MOVES = 1_000
"""Games up to this size (cells, stored moves) are read in the request's thread: a few
milliseconds. Bigger ones go to a worker."""
READ_BUDGET = 20.0
"""Seconds a worker may take over one read; past it the request is refused (422)."""
READ_MEMORY = 1024 * 1024 * 1024
"""Bytes of address space a reading worker may use."""
READ_WORKERS = 1
"""Big reads at once (per server process); another meanwhile is refused with 503."""


class Read(StrEnum):
    """What is read of a finished game."""

    RECORD = "record"
    SUMMARY = "summary"
    REPLAY = "replay"


def is_small(rows: int, cols: int, moves: int) -> bool:
    """Whether a game is read in the request's thread rather than in a worker."""
    return rows * cols <= INLINE_CELLS and moves <= INLINE_MOVES


def answer(games: FinishedGames, read: Read, game_id: str, asked: Window) -> bytes:
    """The JSON of one read, worked out here."""
    result: dict[str, Any]
    if read is Read.RECORD:
        result = games.record(game_id)
    elif read is Read.SUMMARY:
        result = games.summary(game_id)
    else:
        result = frames(games, game_id, asked)
    return json.dumps(result, separators=(",", ":")).encode()


def _record(games: FinishedGames, game_id: str) -> GameRecord:
    # `record` refuses a game in progress (409): its layout would give the mines away.
    return GameRecord.from_dict(games.record(game_id))


def frames(games: FinishedGames, game_id: str, asked: Window) -> dict[str, Any]:
    """The window before any move, then per move the cells it changed there (from the core's
    `replay_steps`), so a client plays a game back without knowing the rules."""
    record = _record(games, game_id)
    box = resolve_window(asked, record.rows, record.cols, games.settings, focus=None)
    if box[2] * box[3] * max(len(record.moves), 1) > REPLAY_WORK_LIMIT:
        raise InvalidRequestError(
            f"a replay of {len(record.moves):,} moves over {box[2] * box[3]:,} cells is more "
            f"than one request may compute ({REPLAY_WORK_LIMIT:,} cell steps); "
            "ask for a smaller window"
        )
    before = _start_view(record, box)
    initial = before.to_strings()
    steps = []
    previous = before.array
    for game, timed in replay_steps(record):
        view = game.view(*box)
        now = view.array
        rows, cols = np.nonzero(previous != now)
        steps.append(
            {
                "move": str(timed.move),
                "time": timed.time,
                "status": view.status.value,
                "mines_left": view.mines_left,
                "changed": [
                    [int(r) + box[0], int(c) + box[1], chr(now[r, c])]
                    for r, c in zip(rows.tolist(), cols.tolist(), strict=True)
                ],
            }
        )
        previous = now
    final = replay(record)
    return {
        "id": game_id,
        "top": box[0],
        "left": box[1],
        "height": box[2],
        "width": box[3],
        "initial": initial,
        "frames": steps,
        "final": view_json(final.view(*box), final.elapsed),
    }


def _start_view(record: GameRecord, box: Box) -> BoardView:
    """What the window showed before the first move: all hidden, unless the game was set up
    from a position (then the core builds that position)."""
    if record.revealed_at_start or record.flagged_at_start:
        game = Game.from_position(
            record.rows,
            record.cols,
            record.layout or (),
            revealed=record.revealed_at_start,
            flagged=record.flagged_at_start,
        )
    else:
        game = Game(record.rows, record.cols, record.mines)
    return game.view(*box)
