"""`/api/games/{id}/replay` and `/summary`: a finished game's frames and result, by the core."""

from __future__ import annotations

from typing import Any

import numpy as np
from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from mines.game import Game
from mines.presets import preset_of
from mines.record import GameRecord
from mines.replay import replay, replay_steps
from mines.server.deps import WINDOW_PARAMETERS, service, window
from mines.server.errors import InvalidRequestError
from mines.server.games import NO_GUESS_RULE, GameService
from mines.server.present import Box, Window, resolve_window, view_json
from mines.server.schemas import ErrorOut
from mines.view import BoardView

router = APIRouter(prefix="/api/games", tags=["replay"])

FINISHED_GAME_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (404, 409, 422)
}

REPLAY_WORK_LIMIT = 20_000_000
"""Window cells times moves: the most a replay may compare, so one request cannot stall others."""


@router.get(
    "/{game_id}/replay",
    summary="Replay frames of a finished game",
    responses=FINISHED_GAME_ERRORS,
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_replay(game_id: str, request: Request) -> dict[str, Any]:
    """The window before any move, then per move the cells it changed there (from the core's
    `replay_steps`), so a client plays a game back without knowing the rules."""
    return await run_in_threadpool(frames, service(request), game_id, window(request.query_params))


@router.get(
    "/{game_id}/summary", summary="Result of a finished game", responses=FINISHED_GAME_ERRORS
)
async def get_summary(game_id: str, request: Request) -> dict[str, Any]:
    """Status, time, 3BV and the board's preset, for a client's personal statistics."""
    return await run_in_threadpool(summary, service(request), game_id)


def _record(games: GameService, game_id: str) -> GameRecord:
    # `record` refuses a game in progress (409): its layout would give the mines away.
    return GameRecord.from_dict(games.record(game_id))


def frames(games: GameService, game_id: str, asked: Window) -> dict[str, Any]:
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


def summary(games: GameService, game_id: str) -> dict[str, Any]:
    record = _record(games, game_id)
    game = replay(record)
    three_bv = game.three_bv if game.started else 0
    return {
        "id": game_id,
        "status": record.status.value,
        "elapsed": round(record.elapsed, 3),
        "rows": record.rows,
        "cols": record.cols,
        "mines": record.mines,
        "preset": preset_of(record.rows, record.cols, record.mines),
        "no_guess": record.rule == NO_GUESS_RULE,
        "three_bv": three_bv,
    }
