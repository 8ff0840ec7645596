"""`GameRecord`: a game's parameters, layout and timed moves, as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mines.errors import InvalidBoardError
from mines.moves import Move
from mines.params import check_board
from mines.status import GameStatus

RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class TimedMove:
    """A move and when it was made, in seconds after the first reveal (0 before it)."""

    move: Move
    time: float


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to rebuild a game exactly, move by move."""

    rows: int
    cols: int
    mines: int
    rule: str
    seed: int | None
    layout: tuple[tuple[int, int], ...] | None
    moves: tuple[TimedMove, ...]
    status: GameStatus
    elapsed: float
    revealed_at_start: tuple[tuple[int, int], ...] = field(default=())
    flagged_at_start: tuple[tuple[int, int], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": RECORD_VERSION,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "rule": self.rule,
            "seed": self.seed,
            "layout": None if self.layout is None else [list(p) for p in self.layout],
            "moves": [[str(m.move), m.time] for m in self.moves],
            "status": self.status.value,
            "elapsed": self.elapsed,
        }
        if self.revealed_at_start or self.flagged_at_start:
            data["revealed_at_start"] = [list(p) for p in self.revealed_at_start]
            data["flagged_at_start"] = [list(p) for p in self.flagged_at_start]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        try:
            if data.get("version") != RECORD_VERSION:
                raise InvalidBoardError(
                    f"unsupported record version {data.get('version')!r}; "
                    f"this version reads {RECORD_VERSION}"
                )
            rows, cols, mines = check_board(data["rows"], data["cols"], data["mines"])
            layout = data["layout"]
            return cls(
                rows=rows,
                cols=cols,
                mines=mines,
                rule=str(data["rule"]),
                seed=None if data["seed"] is None else int(data["seed"]),
                layout=None if layout is None else tuple((int(r), int(c)) for r, c in layout),
                moves=tuple(TimedMove(Move.parse(m), float(t)) for m, t in data["moves"]),
                status=GameStatus(data["status"]),
                elapsed=float(data["elapsed"]),
                revealed_at_start=_pairs(data.get("revealed_at_start", [])),
                flagged_at_start=_pairs(data.get("flagged_at_start", [])),
            )
        except KeyError as error:
            raise InvalidBoardError(
                f"not a valid game record: the field {error.args[0]!r} is missing"
            ) from None
        except (TypeError, ValueError) as error:
            if isinstance(error, InvalidBoardError):
                raise
            # In words, without the exception's name: the player reads this.
            raise InvalidBoardError(
                f"not a valid game record: a field has the wrong type or value ({error})"
            ) from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidBoardError(f"a game record must be JSON: {error}") from None
        if not isinstance(data, dict):
            raise InvalidBoardError("a game record must be a JSON object")
        return cls.from_dict(data)


def _pairs(items: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(r), int(c)) for r, c in items)
