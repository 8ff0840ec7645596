"""`Cell`: what a player sees in one cell, and the symbol text views show for it.

`GameStatus` lived here before it had a module of its own; it is still re-exported for code
written against the old path, but its home is `mines.status` (or `mines` itself), and the
tree imports it only from there (tests/test_architecture.py checks).
"""

from enum import StrEnum

from mines.status import GameStatus

__all__ = ["Cell", "GameStatus"]


class Cell(StrEnum):
    """What a player sees in one cell; the value is the symbol used in text views."""

    HIDDEN = "H"
    FLAG = "F"
    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    MINE = "M"
    """An unflagged mine, shown once the game is lost."""
    EXPLODED = "X"
    """A mine the player revealed: the move that lost the game."""
    WRONG_FLAG = "W"
    """A flag on a safe cell, shown once the game is lost."""

    @property
    def number(self) -> int | None:
        """The number shown on a revealed safe cell, or None for any other symbol."""
        return int(self.value) if self.value.isdigit() else None

    @property
    def is_revealed_number(self) -> bool:
        return self.value.isdigit()

    @classmethod
    def from_count(cls, count: int) -> "Cell":
        return cls(str(count))
