"""Decision-level evaluation: each candidate guess's chance to win, over layouts the view allows.

A whole-game comparison of two bots spends almost all its noise on games where they never
disagree; here a single decision is measured where it is made. For a position and a few
candidate cells, layouts are drawn exactly from what the position shows (uniformly among
those that fit it, `mines.solver.posterior`), each candidate is opened in each layout and
the current `Bot` plays the game to its end. Every candidate sees the same layouts and the
same bot seed (common random numbers), so their difference is much tighter than either.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.solver.analysis import Position, solve
from mines.solver.bot import Bot
from mines.solver.counting import Counter
from mines.solver.posterior import LayoutSampler
from mines.solver.rules import UNKNOWN
from mines.status import GameStatus
from mines.view import BoardView

Coord = tuple[int, int]
Finisher = Callable[[int], Bot]
"""Makes the bot that plays a continuation to its end, from the continuation's seed."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate's wins over the draws, as a rate with its standard error."""

    cell: Coord
    wins: int
    draws: int

    @property
    def rate(self) -> float:
        return self.wins / self.draws

    @property
    def stderr(self) -> float:
        p = self.rate
        return math.sqrt(p * (1 - p) / self.draws)


@dataclass(frozen=True, slots=True)
class Decision:
    """Every candidate of one position, played out on the same draws: `won[i][j]` says
    whether candidate i won on draw j, `guesses[i][j]` how many guesses the bot made after
    it (None when the candidate was a mine there)."""

    cells: tuple[Coord, ...]
    won: tuple[tuple[bool, ...], ...]
    guesses: tuple[tuple[int | None, ...], ...]

    @property
    def estimates(self) -> tuple[Estimate, ...]:
        pairs = zip(self.cells, self.won, strict=True)
        return tuple(Estimate(cell, sum(won), len(won)) for cell, won in pairs)

    def difference(self, a: int = 0, b: int = 1) -> tuple[float, float]:
        """Candidate a's win rate minus candidate b's, and its standard error, paired by draw."""
        diffs = [int(x) - int(y) for x, y in zip(self.won[a], self.won[b], strict=True)]
        return mean_and_stderr(diffs)

    def guess_difference(self, a: int = 0, b: int = 1) -> tuple[int, float, float]:
        """Over the draws where both candidates were safe: how many, and the guesses the
        bot made after a minus those after b, with its standard error."""
        both = [
            x - y
            for x, y in zip(self.guesses[a], self.guesses[b], strict=True)
            if x is not None and y is not None
        ]
        return (len(both), *mean_and_stderr(both)) if both else (0, 0.0, 0.0)


def mean_and_stderr(values: Sequence[float]) -> tuple[float, float]:
    """The mean of independent values and its standard error (0 with fewer than two)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def draw_rng(seed: int, draw: int) -> random.Random:
    """The random numbers of one draw: the same for every candidate, and for any run that
    reaches that draw, so a stopped evaluation can resume where it was."""
    return random.Random(f"mines.evaluate/{seed}/{draw}")


def evaluate(
    view: BoardView,
    cells: Sequence[Coord],
    *,
    draws: int,
    seed: int = 0,
    first: int = 0,
    mines: int | None = None,
    finisher: Finisher = Bot,
) -> Decision:
    """Play `draws` continuations of every candidate in `cells` from `view` (the mine total
    is the view's unless `mines` is given), on the same layouts and bot seeds for all:
    draws `first` to `first + draws - 1` of `seed`, so runs of consecutive ranges add up to
    one run of them all."""
    if draws < 1:
        raise InvalidBoardError(f"draws must be at least 1, got {draws}")
    if first < 0:
        raise InvalidBoardError(f"the first draw must be 0 or more, got {first}")
    position = Position.from_view(view, mines)
    cols = position.cols
    values = position.values
    candidates = candidate_cells(position, cells)
    sampler = LayoutSampler(solve(position, Counter()))
    revealed = [divmod(c, cols) for c, value in enumerate(values) if value != UNKNOWN]
    won: list[list[bool]] = [[] for _ in candidates]
    guesses: list[list[int | None]] = [[] for _ in candidates]
    for draw in range(first, first + draws):
        layout = sampler.draw(draw_rng(seed, draw))
        mines_at = [divmod(c, cols) for c in layout]
        taken = set(mines_at)
        for i, cell in enumerate(candidates):
            if cell in taken:
                won[i].append(False)
                guesses[i].append(None)
                continue
            bot = finisher(draw)
            won[i].append(play_out(position, mines_at, revealed, cell, bot))
            guesses[i].append(bot.guesses)
    return Decision(tuple(candidates), tuple(map(tuple, won)), tuple(map(tuple, guesses)))


def candidate_cells(position: Position, cells: Sequence[Coord]) -> list[Coord]:
    """The candidates as (row, col) pairs of ints; each must be an unrevealed cell."""
    cols = position.cols
    hidden = {divmod(c, cols) for c, value in enumerate(position.values) if value == UNKNOWN}
    candidates = [(int(row), int(col)) for row, col in cells]
    for cell in candidates:
        if cell not in hidden:
            raise InvalidBoardError(f"candidate {cell} is not an unrevealed cell")
    if not candidates:
        raise InvalidBoardError("give at least one candidate cell")
    return candidates


def play_out(
    position: Position, mines: list[Coord], revealed: list[Coord], cell: Coord, bot: Bot
) -> bool:
    """Open `cell` (safe in this layout) and let `bot` finish the game; True when it is won."""
    game = Game.from_position(position.rows, position.cols, mines, revealed=revealed)
    status = game.reveal(*cell)
    if not status.is_over:
        status = bot.play(game)
    return status is GameStatus.WON
