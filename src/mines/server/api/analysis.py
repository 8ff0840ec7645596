"""`/api/games/{id}/analysis` and `/hint`: the solver's help, for practice games only."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from mines.errors import IllegalMoveError
from mines.game import Game
from mines.placement import placer_for_rule
from mines.server.api.deps import WINDOW_PARAMETERS, Games, Token, error_responses, window
from mines.server.common.auth import check_token
from mines.server.common.errors import GameNotFoundError, InvalidRequestError
from mines.server.db.storage import GameRow
from mines.server.services.games import GameService
from mines.server.services.present import Window, for_people, resolve_window
from mines.solver import analyze, hint
from mines.status import GameStatus
from mines.view import BoardView

router = APIRouter(prefix="/api/games", tags=["practice"])
HELP_ERRORS = error_responses(401, 403, 404, 409, 422)

ANALYSIS_CELL_LIMIT = 1_600
"""The largest board (rows x cols) helped: exact counting grows fast with the open frontier,
and one request must not hold a server thread for long."""


@router.post(
    "/{game_id}/analysis",
    summary="Mine chances of the hidden cells (practice games)",
    responses=HELP_ERRORS,
    openapi_extra=WINDOW_PARAMETERS,
)
async def get_analysis(
    game_id: str, request: Request, token: Token, games: Games
) -> dict[str, Any]:
    """`{"cells": [[row, col, chance, "safe" | "mine" | null]], "ranks": false}` for each
    unrevealed cell of the window, from `mines.solver.analyze` on the player's view of the whole
    board."""
    asked = window(request.query_params)
    return await run_in_threadpool(analysis, games, game_id, token, asked)


@router.post(
    "/{game_id}/hint", summary="A next move and its reason (practice games)", responses=HELP_ERRORS
)
async def get_hint(game_id: str, token: Token, games: Games) -> dict[str, Any]:
    """`{"row", "col", "safe", "probability", "reason", "ranks"}` from `mines.solver.hint`: the
    reason in words for people, cells named from 1 ("(row 1, column 1)" is the top left) while
    `row` and `col` count from 0 as everywhere in the API; `ranks` is false (help keeps a game
    off the leaderboard)."""
    return await run_in_threadpool(one_hint, games, game_id, token)


def _players_view(games: GameService, game_id: str, token: str | None) -> tuple[GameRow, BoardView]:
    """The whole board as its player sees it, once the request may have help: the player
    only, a game in progress and a board small enough. A game that could rank is marked
    assisted first, so that it never does."""
    row = games.storage.load(game_id)
    if row is None:
        raise GameNotFoundError(f"no game has the ID {game_id[:16]!r}")
    check_token(token, row.token_hash)
    if row.status != GameStatus.IN_PROGRESS.value:
        raise IllegalMoveError(f"the game is over ({row.status}); there is nothing to help with")
    if row.rows * row.cols > ANALYSIS_CELL_LIMIT:
        raise InvalidRequestError(
            f"help is given on boards of at most {ANALYSIS_CELL_LIMIT:,} cells; this one has "
            f"{row.rows * row.cols:,}"
        )
    if row.preset is not None:
        games.mark_assisted(game_id)  # help, given once, keeps the game off the leaderboard
    shown = games.view(game_id, Window())
    return row, BoardView.from_strings(
        shown["cells"], status=GameStatus(shown["status"]), mines_left=shown["mines_left"]
    )


def analysis(games: GameService, game_id: str, token: str | None, asked: Window) -> dict[str, Any]:
    _, view = _players_view(games, game_id, token)
    top, left, height, width = resolve_window(
        asked, view.rows, view.cols, games.settings, focus=None
    )
    result = analyze(view)
    cells = []
    for (row, col), chance in sorted(result.probabilities.items()):
        if top <= row < top + height and left <= col < left + width:
            certain = None
            if (row, col) in result.safe:
                certain = "safe"
            elif (row, col) in result.certain_mines:
                certain = "mine"
            cells.append([row, col, float(chance), certain])
    return {"cells": cells, "ranks": False}


def one_hint(games: GameService, game_id: str, token: str | None) -> dict[str, Any]:
    row, view = _players_view(games, game_id, token)
    if row.layout is None:
        # Before the first click the view says nothing and the game's rule says it all: the
        # solver is handed the game as it stands (unstarted), whose rule is public.
        found = hint(
            Game(row.rows, row.cols, row.mines, placer=placer_for_rule(row.rule, row.seed))
        )
    else:
        found = hint(view)
    return {
        "row": found.row,
        "col": found.col,
        "safe": found.safe,
        "probability": float(found.mine_probability),
        "reason": for_people(found.reason),
        "ranks": False,
    }
