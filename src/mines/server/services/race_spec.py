"""What a race room is made from: the creator's choices, checked and stored, and the race they
build before any move (every process rebuilds a room's race from these and its log)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from mines.clock import Clock
from mines.errors import InvalidBoardError
from mines.placement import FirstClick, PlacementRule
from mines.presets import board_size
from mines.race import OnMine, Race, RaceMode, RaceSettings

ROOM_CELL_LIMIT = 2_500
"""The largest race board in cells (rows x cols, either side up to all of it): 50 x 50, past
Expert's 16 x 30 with room to spare."""
COUNTDOWN = 3.0
"""Seconds from the host's start to the first move."""


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
    public: bool = False
    """Listed in the lobby for anyone to join or watch."""
    name: str | None = None
    """A public room's name in the lobby (its host's name when not given)."""


def stored_spec(spec: RoomSpec) -> dict[str, Any]:
    """Everything that rebuilds the room's race: the board, the seed and the settings."""
    rows, cols, mines = board_size(
        preset=spec.preset, rows=spec.rows, cols=spec.cols, mines=spec.mines
    )
    if rows * cols > ROOM_CELL_LIMIT:
        raise InvalidBoardError(
            f"a race board has at most {ROOM_CELL_LIMIT:,} cells (such as 50 x 50 or 20 x 125); "
            f"{rows} x {cols} is {rows * cols:,}"
        )
    return {
        "rows": rows,
        "cols": cols,
        "mines": mines,
        "seed": spec.seed if spec.seed is not None else secrets.randbits(63),
        "rule": PlacementRule.NOGUESS.value if spec.no_guess else spec.first_click,
        "mode": spec.mode,
        "on_mine": spec.on_mine,
        "freeze_seconds": spec.freeze_seconds,
        "freeze_penalty": spec.freeze_penalty,
        "max_players": spec.max_players,
        "countdown": COUNTDOWN,
        "public": spec.public,
        "name": spec.name,
    }


def build_race(spec: dict[str, Any], clock: Clock) -> Race:
    """The room's race before any move."""
    settings = RaceSettings(
        mode=RaceMode(spec["mode"]),
        on_mine=OnMine(spec["on_mine"]),
        freeze_seconds=spec["freeze_seconds"],
        freeze_penalty=spec["freeze_penalty"],
        countdown=spec["countdown"],
        max_players=spec["max_players"],
    )
    return Race(
        spec["rows"],
        spec["cols"],
        spec["mines"],
        seed=spec["seed"],
        rule=spec["rule"],
        settings=settings,
        clock=clock,
    )
