"""`MinesEnv`: one game per episode; an action opens a cell; the view is the observation."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mines.game import Game
from mines.placement import PlacementRule, placer_for_rule
from mines.symbols import Cell, GameStatus

HIDDEN = -1
"""The observation of an unrevealed cell."""
MINE = -2
"""The observation of a mine, seen only in the last observation of a lost episode."""

WIN_REWARD = 1.0
LOSS_REWARD = -1.0
WASTED_MOVE_REWARD = -0.05
"""For opening a cell that is already open: nothing happens but time passes."""

Observation = npt.NDArray[np.int8]

_OBSERVED = np.full(256, HIDDEN, dtype=np.int8)
for _digit in range(9):
    _OBSERVED[ord(str(_digit))] = _digit
_OBSERVED[[ord(Cell.MINE.value), ord(Cell.EXPLODED.value)]] = MINE


class MinesEnv(gymnasium.Env[Observation, np.int64]):
    """Minesweeper as a Gymnasium environment, on the same `Game` every front end uses.

    Observation: a (rows, cols) int8 array, 0-8 for revealed counts, -1 hidden, -2 mines
    (only once lost). Action: `row * cols + col`, the cell to open. Reward: the share of
    safe cells the move opened, +1 for a win, -1 for a loss, -0.05 for an open cell.
    `info["action_mask"]` marks the cells worth opening.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rows: int = 9,
        cols: int = 9,
        mines: int = 10,
        *,
        first_click: str = PlacementRule.OPENING,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ):
        Game(rows, cols, mines)  # checks the board before any space is built on it
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        placer_for_rule(first_click, 0)
        self.rows, self.cols, self.mines = rows, cols, mines
        self.first_click = first_click
        self.max_steps = max_steps if max_steps is not None else rows * cols
        self.render_mode = render_mode
        self.observation_space = spaces.Box(MINE, 8, shape=(rows, cols), dtype=np.int8)
        self.action_space = spaces.Discrete(rows * cols)
        self.game = self._new_game(0)
        self._steps = 0

    def _new_game(self, seed: int) -> Game:
        placer = placer_for_rule(self.first_click, seed)
        return Game(self.rows, self.cols, self.mines, placer=placer)

    def _observe(self) -> Observation:
        return _OBSERVED[self.game.view().array]

    def _info(self, observation: Observation) -> dict[str, Any]:
        playing = self.game.status is GameStatus.IN_PROGRESS
        mask = (observation.reshape(-1) == HIDDEN) & playing
        return {"action_mask": mask.astype(np.int8), "game_id": str(self.game.game_id)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.game = self._new_game(int(self.np_random.integers(2**48)))
        self._steps = 0
        observation = self._observe()
        return observation, self._info(observation)

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game.status.is_over:
            raise RuntimeError("the episode is over: call reset() before step()")
        row, col = divmod(int(action), self.cols)
        before = self.game.view().array
        self.game.reveal(row, col)
        self._steps += 1
        observation = self._observe()
        status = self.game.status
        if status is GameStatus.LOST:
            reward = LOSS_REWARD
        else:
            newly_open = int(np.count_nonzero(observation >= 0)) - int(
                np.count_nonzero(_OBSERVED[before] >= 0)
            )
            safe_cells = self.rows * self.cols - self.mines
            reward = newly_open / safe_cells if newly_open else WASTED_MOVE_REWARD
            if status is GameStatus.WON:
                reward += WIN_REWARD
        terminated = status.is_over
        truncated = not terminated and self._steps >= self.max_steps
        return observation, reward, terminated, truncated, self._info(observation)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.game.view()}\n{self.game.status.value}  mines left {self.game.mines_left}"
