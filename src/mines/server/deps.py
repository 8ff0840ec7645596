"""Dependencies the routes share: the game service, the hub and the optional view window."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request

from mines.server.games import GameService
from mines.server.hub import Hub
from mines.server.present import Window
from mines.server.schemas import COORDINATE_LIMIT


def service(request: Request) -> GameService:
    game_service: GameService = request.app.state.service
    return game_service


def hub(request: Request) -> Hub:
    game_hub: Hub = request.app.state.hub
    return game_hub


def window(
    top: Annotated[int | None, Query(ge=0, le=COORDINATE_LIMIT)] = None,
    left: Annotated[int | None, Query(ge=0, le=COORDINATE_LIMIT)] = None,
    height: Annotated[int | None, Query(ge=1, le=COORDINATE_LIMIT)] = None,
    width: Annotated[int | None, Query(ge=1, le=COORDINATE_LIMIT)] = None,
) -> Window:
    """The part of the board to show; leave it out for the whole of a board up to the view limit."""
    return Window(top, left, height, width)


ServiceDep = Annotated[GameService, Depends(service)]
HubDep = Annotated[Hub, Depends(hub)]
WindowDep = Annotated[Window, Depends(window)]
