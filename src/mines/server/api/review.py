"""`/api/games/{id}/review`: a finished game judged move by move by the exact solver."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from mines.server.api.deps import GameReaders, Reviews, Token, error_responses

router = APIRouter(prefix="/api/games", tags=["review"])


@router.get(
    "/{game_id}/review",
    summary="Every move of a finished game judged by the exact solver",
    responses=error_responses(403, 404, 409, 422),
)
async def get_review(
    game_id: str, token: Token, readers: GameReaders, reviews: Reviews
) -> Response:
    """`mines.solver.review` as JSON (`Review.to_json`): the game's figures, then each move's
    verdict, risk and the least risk on the board then, with the board and the mine chances
    before it. `409` while the game is in progress; `422 review_too_large` for a game past
    the exact review's limit, before any work. Worked out once in a worker process, then
    kept."""
    await readers.check(game_id, token)
    return Response(await reviews.review(game_id), media_type="application/json")
