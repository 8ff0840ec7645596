"""Short game IDs such as `16x30n99#4242` that start the same board anywhere."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mines.errors import InvalidBoardError
from mines.params import check_board
from mines.placement import FirstClick, placer_for_rule

_GAME_ID = re.compile(r"(\d+)x(\d+)n(\d+)(?::([a-z][a-z0-9_-]*))?#(\d+)")
DEFAULT_RULE = FirstClick.OPENING.value


@dataclass(frozen=True, slots=True)
class GameId:
    """Board size, mine count, placement rule and seed: everything a new game needs.

    Printed as `{rows}x{cols}n{mines}#{seed}`, with `:{rule}` before the `#` when the
    rule is not the default "opening" (for example `9x9n10:safe#7`).
    """

    rows: int
    cols: int
    mines: int
    seed: int
    rule: str = DEFAULT_RULE

    @classmethod
    def parse(cls, text: str) -> GameId:
        match = _GAME_ID.fullmatch(text.strip())
        if match is None:
            raise InvalidBoardError(
                f"cannot read the game ID {text!r}: expected ROWSxCOLSnMINES#SEED, "
                "optionally with :RULE before the # (for example 16x30n99#4242 or 9x9n10:safe#7)"
            )
        rows, cols, mines, rule, seed = match.groups()
        check_board(int(rows), int(cols), int(mines))
        game_id = cls(int(rows), int(cols), int(mines), int(seed), rule or DEFAULT_RULE)
        placer_for_rule(game_id.rule, game_id.seed)  # an unknown rule fails here, with its name
        return game_id

    def __str__(self) -> str:
        rule = "" if self.rule == DEFAULT_RULE else f":{self.rule}"
        return f"{self.rows}x{self.cols}n{self.mines}{rule}#{self.seed}"
