"""What an agent sees and does: observation codes, the action layout, spaces and reward schemes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mines.presets import board_size
from mines.symbols import Cell

HIDDEN = -1
"""The observation of an unrevealed, unflagged cell."""
MINE = -2
"""The observation of a mine, seen only in the last observation of a lost episode."""
FLAG = -3
"""The observation of a flagged cell (only with `flags=True`)."""

WIN_REWARD = 1.0
LOSS_REWARD = -1.0
WASTED_MOVE_REWARD = -0.05
"""Progress scheme: a move that changes nothing (opening an open or flagged cell, flagging an
open one) costs this, so that an agent does not learn to stall."""

Observation = npt.NDArray[np.int8]
Mask = npt.NDArray[np.int8]

OBSERVED = np.full(256, HIDDEN, dtype=np.int8)
"""The observation code of each `Cell` symbol, indexed by its ASCII code."""
for _digit in range(9):
    OBSERVED[ord(str(_digit))] = _digit
OBSERVED[[ord(Cell.MINE.value), ord(Cell.EXPLODED.value)]] = MINE
# A wrong flag shows only after a loss; it stays a flag so the last frame keeps the agent's marks.
OBSERVED[[ord(Cell.FLAG.value), ord(Cell.WRONG_FLAG.value)]] = FLAG

SYMBOL_OF = {code: Cell.from_count(code) for code in range(9)} | {
    HIDDEN: Cell.HIDDEN,
    FLAG: Cell.FLAG,
    MINE: Cell.MINE,
}
"""The symbol an observation code stands for (a mine shows as `M`, exploded or not)."""


class RewardScheme(StrEnum):
    """How a move is rewarded; both envs take the scheme's name as `reward`."""

    PROGRESS = "progress"
    """The share of the safe cells a move opens, +1 more for the win, -1 for a loss,
    -0.05 for a move that changes nothing, 0 for placing or lifting a flag."""
    SPARSE = "sparse"
    """+1 for the win, -1 for a loss, 0 for every other move."""


def reward_scheme(name: RewardScheme | str) -> RewardScheme:
    try:
        return RewardScheme(name)
    except ValueError:
        allowed = ", ".join(repr(s.value) for s in RewardScheme)
        raise ValueError(f"reward must be one of {allowed}, got {name!r}") from None


def rewards(
    scheme: RewardScheme,
    *,
    opened: npt.NDArray[np.integer],
    safe_cells: int,
    won: npt.NDArray[np.bool_],
    lost: npt.NDArray[np.bool_],
    wasted: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float32]:
    """The rewards of a batch of moves, from what each did (one home for both envs)."""
    if scheme is RewardScheme.SPARSE:
        return (won.astype(np.float32) * WIN_REWARD + lost.astype(np.float32) * LOSS_REWARD).astype(
            np.float32
        )
    share = opened.astype(np.float32) / np.float32(safe_cells)
    reward = np.where(wasted, np.float32(WASTED_MOVE_REWARD), share)
    reward = np.where(lost, np.float32(LOSS_REWARD), reward + won * np.float32(WIN_REWARD))
    return reward.astype(np.float32)


def observation_space(rows: int, cols: int) -> spaces.Box[np.int8]:
    return spaces.Box(FLAG, 8, shape=(rows, cols), dtype=np.int8)


def action_count(rows: int, cols: int, flags: bool) -> int:
    """Actions `0 .. rows*cols - 1` open cell `row * cols + col`; with flags, the next
    `rows*cols` actions toggle the flag on the same cells."""
    return rows * cols * (2 if flags else 1)


def step_limit(rows: int, cols: int, max_steps: int | None, flags: bool) -> int:
    """The episode's step limit: `max_steps`, or by default one step per action."""
    if not isinstance(flags, bool):
        raise ValueError(f"flags must be True or False, got {flags!r}")
    if max_steps is None:
        return action_count(rows, cols, flags)
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
    return max_steps


@dataclass(frozen=True, slots=True)
class Options:
    """The options both envs take, checked once: the board, its rule, actions, rewards, limit."""

    rows: int
    cols: int
    mines: int
    first_click: str
    flags: bool
    reward: RewardScheme
    max_steps: int

    @classmethod
    def check(
        cls,
        rows: int | None,
        cols: int | None,
        mines: int | None,
        *,
        preset: str | None,
        first_click: str,
        flags: bool,
        reward: RewardScheme | str,
        max_steps: int | None,
    ) -> Options:
        rows, cols, mines = board_size(
            preset=preset, rows=rows, cols=cols, mines=mines, default="beginner"
        )
        limit = step_limit(rows, cols, max_steps, flags)
        return cls(rows, cols, mines, first_click, flags, reward_scheme(reward), limit)

    @property
    def actions(self) -> int:
        return action_count(self.rows, self.cols, self.flags)
