"""The JSON bodies of the HTTP API, as pydantic models (and so the OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from mines.placement import FirstClick
from mines.server.common.errors import InvalidNameError
from mines.server.services.games import SEED_LIMIT
from mines.server.services.names import NAME_PATTERN, player_name

COORDINATE_LIMIT = 10**9
"""Board coordinates and sizes beyond this are refused before they reach the game."""

Size = Annotated[int, Field(strict=True, ge=1, le=COORDINATE_LIMIT)]
Coordinate = Annotated[int, Field(strict=True, ge=0, le=COORDINATE_LIMIT)]
PresetName = Literal["beginner", "intermediate", "expert"]
Status = Literal["IN_PROGRESS", "WON", "LOST"]


def _player_name(value: object) -> object:
    if not isinstance(value, str):
        return value  # the str type refuses it
    try:
        return player_name(value)
    except InvalidNameError as refused:
        raise ValueError(str(refused)) from None


PlayerName = Annotated[str, BeforeValidator(_player_name), Field(pattern=NAME_PATTERN)]
"""A game's or a race's player name, by the one name rule
(`mines.server.services.names.player_name`, which /api/meta publishes for the page)."""


class NewGame(BaseModel):
    """A preset, or rows, cols and mines; optionally a seed, first-click rule and no-guess."""

    model_config = ConfigDict(extra="forbid")

    preset: PresetName | None = None
    rows: Size | None = None
    cols: Size | None = None
    mines: Annotated[int, Field(strict=True, ge=0, le=10**18)] | None = None
    seed: Annotated[int, Field(strict=True, ge=0, le=SEED_LIMIT)] | None = None
    first_click: Annotated[
        FirstClick | None,
        Field(
            description='"opening" (the default): the first reveal opens an area; "safe": only '
            'the first revealed cell is mine-free; "any": no promise'
        ),
    ] = None
    no_guess: Annotated[bool, Field(strict=True)] = False
    player: PlayerName | None = None
    daily: Annotated[
        PresetName | None,
        Field(
            description="today's daily board of this preset (UTC), the same for everyone; "
            'with "no_guess": true its no-guess one'
        ),
    ] = None


class MoveTarget(BaseModel):
    """The cell a move acts on."""

    model_config = ConfigDict(extra="forbid")

    row: Coordinate
    col: Coordinate


class FlagTarget(MoveTarget):
    """The cell a flag move acts on and, optionally, the state it should end in."""

    flagged: Annotated[bool, Field(strict=True)] | None = Field(
        None,
        description="true flags the cell, false unflags it, and either changes nothing when "
        "the cell already is so (a retried request is safe); left out, the move toggles",
    )


class ViewHead(BaseModel):
    """A view without its cells: where the window is and how the game stands."""

    rows: int
    cols: int
    status: Status
    mines_left: int
    elapsed: float
    top: int
    left: int
    height: int
    width: int
    version: int
    """The stored moves this view shows: a client orders views and WebSocket frames by it."""


class View(ViewHead):
    """What the player sees: one string per row of the window, in the core's symbols."""

    cells: list[str]


class BoardOut(BaseModel):
    """The board a game is played on."""

    rows: int
    cols: int
    mines: int
    preset: PresetName | None
    """The preset of this size, or null."""
    no_guess: bool


class GameOut(BaseModel):
    id: str
    view: View
    board: BoardOut
    ranks: bool
    """Whether a win would enter the leaderboard: a ranked kind of game, no help so far."""


class CreatedOut(GameOut):
    token: str
    """The game's bearer token for moves; it is shown only in this answer."""


class MoveOut(BaseModel):
    view: View | ViewHead
    """Without `cells` when the move was asked with `?cells=changed` and `changed` is complete."""
    changed: list[tuple[int, int, str]]
    """[row, col, symbol] for each cell the move changed inside the view's window."""
    changed_complete: bool
    """False when the list was cut at the server's limit: redraw from `view` instead."""


class LeaderboardEntry(BaseModel):
    rank: int
    player: str
    time: float
    three_bv: int
    three_bv_per_second: float | None
    efficiency: float | None
    """3BV per click, in percent."""
    game_id: str | None
    """Null on a daily board until its day is over (the game's record shows the board)."""
    finished_at: float


class LeaderboardOut(BaseModel):
    preset: PresetName
    no_guess: bool
    no_flags: bool
    """No-flag wins only."""
    board: Literal["day", "week", "month", "year", "all", "daily"]
    period: str
    """The board's period: `2026-12-07` (a day, or a daily board's), `2026-W50` (an ISO week),
    `2026-12`, `2026`, or `all`."""
    measure: Literal["time", "three_bv_per_second", "efficiency"]
    day: str | None = None
    """The daily board's day (`board=daily`), or null for a board by period."""
    entries: list[LeaderboardEntry]


class DailyBoard(BaseModel):
    preset: PresetName
    no_guess: bool
    seed: int | None
    """Shown once the day is over (null before, or when nobody played it)."""


class DailyOut(BaseModel):
    day: str
    over: bool
    ends_at: float
    """When the day ends (UTC midnight), in seconds since the epoch."""
    boards: list[DailyBoard]


class FieldProblem(BaseModel):
    field: str
    """Where the problem is: `body.rows`, `query.top`, ..."""
    problem: str


class ErrorOut(BaseModel):
    code: str
    """A stable snake_case code; the table in docs/server.md lists them all."""
    detail: str
    """What was wrong, in words a person can read."""
    errors: list[FieldProblem] | None = None
    """Validation errors only: the first few problems."""
    error_count: int | None = None
    """Validation errors only: how many problems there were in all."""


CheckState = Literal["ok", "timeout", "error"]
"""A dependency's state in a readiness probe: it answered, it did not within the timeout, or
it answered with an error."""


class HealthOut(BaseModel):
    status: Literal["ok"]


class ReadyOut(BaseModel):
    status: Literal["ready"]
    failing: list[str]
    """Empty: every dependency the process needs answered."""
    degraded: list[str]
    """Dependencies that failed but that the process can do without (Redis)."""
    checks: dict[str, CheckState]
    """Each dependency checked (`database`, and `redis` with `--redis`) and its state."""


class UnreadyOut(BaseModel):
    code: Literal["unready"]
    detail: str
    """Which dependencies failed and how, in words a person can read."""
    status: Literal["unready"]
    failing: list[str]
    """The dependencies that did not answer, or answered with an error."""
    checks: dict[str, CheckState]


class ImportedBoardOut(BaseModel):
    preset: PresetName
    no_guess: bool
    games: int
    wins: int
    best_streak: int
    best_time: float | None
    best_three_bv_per_second: float | None


class ImportedOut(BaseModel):
    """A browser's statistics an account took: shown apart from its games, never ranked."""

    imported_at: float
    verified: bool
    """Always false: the browser counted them itself, and nothing can check them."""
    boards: list[ImportedBoardOut]
