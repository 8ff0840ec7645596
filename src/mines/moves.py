"""Moves as short strings (`O3,4` open, `F3,4` flag, `C3,4` chord) and their parser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from mines.errors import InvalidMoveError


class MoveKind(StrEnum):
    """What a move does to its cell; the value is the letter that starts the move's text."""

    OPEN = "O"
    FLAG = "F"
    CHORD = "C"

    @property
    def verb(self) -> str:
        """The word refusals use for this kind of move: reveal, flag or chord."""
        return {"O": "reveal", "F": "flag", "C": "chord"}[self.value]


_MOVE = re.compile(r"\s*([OFCofc])\s*(\d+)\s*[, ]\s*(\d+)\s*")


@dataclass(frozen=True, slots=True)
class Move:
    """One player action on one cell."""

    kind: MoveKind
    row: int
    col: int

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read `O3,4`, `F3,4` or `C3,4` (also lower case or `o 3 4`); raise on anything else."""
        match = _MOVE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(
                f"cannot read the move {text!r}: write O, F or C (open, flag, chord) "
                "then row,col — for example O3,4"
            )
        kind, row, col = match.groups()
        return cls(MoveKind(kind.upper()), int(row), int(col))

    def __str__(self) -> str:
        return f"{self.kind.value}{self.row},{self.col}"

    def __repr__(self) -> str:
        # Python that builds the same move (with Move and MoveKind imported from mines).
        return f"Move(MoveKind.{self.kind.name}, {self.row!r}, {self.col!r})"
