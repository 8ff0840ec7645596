"""`GameStatus`: where a game stands, `IN_PROGRESS` until it is `WON` or `LOST` for good."""

from enum import StrEnum


class GameStatus(StrEnum):
    """Where a game stands; `WON` and `LOST` are terminal and never change again."""

    IN_PROGRESS = "IN_PROGRESS"
    WON = "WON"
    LOST = "LOST"

    @property
    def is_over(self) -> bool:
        return self is not GameStatus.IN_PROGRESS
