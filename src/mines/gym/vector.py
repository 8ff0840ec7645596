"""`MinesVectorEnv`: N boards stepped together by array operations, Gymnasium's `VectorEnv` API."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mines.gym.batch import IN_PROGRESS, LOST, STATUSES, WON, Boards
from mines.gym.encoding import (
    HIDDEN,
    Mask,
    Options,
    RewardScheme,
    observation_space,
    rewards,
)
from mines.placement import PlacementRule

Observations = npt.NDArray[np.int8]
Actions = npt.NDArray[np.integer[Any]]


class MinesVectorEnv(VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """`num_envs` boards of `MinesEnv`, with the same observations, actions, rewards and options.

    The whole batch is one (num_envs, rows + 2, cols + 2) byte array (`Boards`); a step opens
    or flags one cell on every board with array operations, floods all boards together and
    never loops over boards. Autoreset is Gymnasium's default "next step": the step after a
    board's episode ends resets it, ignoring its action, and returns the new board with
    reward 0 and neither terminated nor truncated. With `autoreset_mode="same-step"` the step
    that ends an episode returns the new board at once, the last observation of the old one
    in `info["final_obs"]` (an (num_envs, rows, cols) array, valid where `_final_obs`) and its
    status in `info["final_info"]`. `info["action_mask"]` is (num_envs, actions) (all zero on
    a board whose episode just ended), `info["status"]` each board's status; nothing in
    `info` tells where mines are. Placement rules: "opening", "safe" or "any".
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": [],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        *,
        preset: str | None = None,
        first_click: str = PlacementRule.OPENING,
        flags: bool = False,
        reward: RewardScheme | str = RewardScheme.PROGRESS,
        max_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ):
        options = Options.check(
            rows,
            cols,
            mines,
            preset=preset,
            first_click=first_click,
            flags=flags,
            reward=reward,
            max_steps=max_steps,
        )
        if render_mode is not None:
            raise ValueError(
                f"the batched env does not render (got render_mode={render_mode!r}); "
                "render a single env: gymnasium.make(..., render_mode='rgb_array')"
            )
        self.rows, self.cols, self.mines = options.rows, options.cols, options.mines
        self.boards = Boards(num_envs, self.rows, self.cols, self.mines, first_click)
        self.num_envs = num_envs
        modes = {mode.value: mode for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)}
        mode = modes.get(getattr(autoreset_mode, "value", autoreset_mode))
        if mode is None:
            allowed = " or ".join(map(repr, modes))
            raise ValueError(f"autoreset_mode must be {allowed}, got {autoreset_mode!r}")
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.flags = flags
        self.reward_scheme, self.max_steps = options.reward, options.max_steps
        self.render_mode = render_mode
        self.single_observation_space = observation_space(self.rows, self.cols)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._actions = options.actions
        self.single_action_space = spaces.Discrete(self._actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._cells = self.rows * self.cols
        self._steps = np.zeros(num_envs, dtype=np.int32)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._everyone = np.ones(num_envs, dtype=bool)

    def action_masks(self) -> Mask:
        """(num_envs, actions): 1 for each action that changes its board now."""
        return self.boards.masks(self.flags)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "_action_mask": self._everyone,
            "status": STATUSES[self.boards.status],
            "_status": self._everyone,
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        super().reset(seed=seed)
        self.boards.clear(self._everyone)
        self._steps[:] = 0
        self._ended[:] = False
        return self.boards.observe(), self._info()

    def step(
        self, actions: Actions
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, one per board, got an array of "
                f"shape {actions.shape} and dtype {actions.dtype}"
            )
        limit = self._actions
        if actions.min() < 0 or actions.max() >= limit:
            raise ValueError(f"every action must be from 0 to {limit - 1}")
        boards = self.boards
        restart = self._ended
        if restart.any():
            boards.clear(restart)
            self._steps[restart] = 0
        opened_before = boards.opened.copy()
        playing = ~restart & (boards.status == IN_PROGRESS)
        flag, cell = np.divmod(actions.astype(np.intp), self._cells)
        rows, cols = np.divmod(cell, self.cols)
        wasted = np.zeros(self.num_envs, dtype=bool)
        opening = np.flatnonzero(playing & (flag == 0))
        wasted[opening] = boards.reveal(opening, rows[opening], cols[opening], self.np_random)
        flagging = np.flatnonzero(playing & (flag == 1))
        wasted[flagging] = boards.toggle_flag(flagging, rows[flagging], cols[flagging])
        self._steps[playing] += 1
        won, lost = boards.status == WON, boards.status == LOST
        reward = rewards(
            self.reward_scheme,
            opened=np.where(lost, 0, boards.opened - opened_before),
            safe_cells=boards.safe_cells,
            won=won,
            lost=lost,
            wasted=wasted,
        )
        terminated = playing & (won | lost)
        truncated = playing & ~terminated & (self._steps >= self.max_steps)
        ended = terminated | truncated
        observations = boards.observe()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._ended = ended
            return observations, reward, terminated, truncated, self._info()
        final = {"status": STATUSES[boards.status], "_status": ended}
        if ended.any():
            boards.clear(ended)
            self._steps[ended] = 0
        info = self._info() | {"final_obs": observations.copy(), "_final_obs": ended}
        info["final_info"] = final
        observations[ended] = HIDDEN
        return observations, reward, terminated, truncated, info
