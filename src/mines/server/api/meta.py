"""`/api/meta`: the presets and limits a client shows and checks input against."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from mines.placement import FirstClick
from mines.presets import PRESETS
from mines.server.api.deps import Games, error_responses
from mines.server.api.schemas import COORDINATE_LIMIT
from mines.server.services.accounts import PASSWORD_MAX, PASSWORD_MIN
from mines.server.services.names import (
    ACCOUNT_RULE,
    NAME_INVISIBLE,
    NAME_MARKS,
    NAME_MAX,
    NAME_PATTERN,
    NAME_RULE,
)

router = APIRouter(prefix="/api/meta", tags=["meta"])

FIRST_CLICK_RULES = tuple(rule.value for rule in FirstClick)
"""The order a client offers them in; `opening`, the classic rule and the default, first."""


@router.get("", summary="Presets and limits", responses=error_responses())
async def meta(games: Games) -> dict[str, Any]:
    settings = games.settings
    return {
        "presets": [p._asdict() for p in PRESETS.values()],
        "first_click": list(FIRST_CLICK_RULES),
        "limits": {
            "min_side": 1,
            "max_side": COORDINATE_LIMIT,
            "max_cells": settings.max_cells,
            "view_limit": settings.view_limit,
            "changed_limit": settings.changed_limit,
        },
        # The name rule the page checks as it is typed and shows, the server's own: the page
        # keeps no copy (docs/server.md). `player_pattern` and `player_marks` as before.
        "names": {
            "rule": NAME_RULE,
            "account_rule": ACCOUNT_RULE,
            "max_length": NAME_MAX,
            "pattern": NAME_PATTERN,
            "marks": NAME_MARKS,
            "invisible": NAME_INVISIBLE,
        },
        "passwords": {"min_length": PASSWORD_MIN, "max_length": PASSWORD_MAX},
        "player_pattern": NAME_PATTERN,
        "player_marks": NAME_MARKS,
    }
