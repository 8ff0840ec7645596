"""`MinesEnv`: one `Game` per episode; an action opens or flags a cell; the view is observed."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mines.errors import IllegalMoveError
from mines.game import Game
from mines.gym.encoding import (
    FLAG,
    HIDDEN,
    OBSERVED,
    Mask,
    Observation,
    Options,
    RewardScheme,
    observation_space,
    rewards,
)
from mines.gym.render import Image, draw
from mines.placement import FixedPlacer, PlacementRule, placer_for_rule
from mines.status import GameStatus

RENDER_MODES = ("ansi", "rgb_array")
RESET_OPTIONS = ("layout",)
"""The keys `MinesEnv.reset` takes in `options`; any other is refused."""


class MinesEnv(gymnasium.Env[Observation, np.int64]):
    """Minesweeper as a Gymnasium environment, on the same `Game` every front end uses.

    Observation: a (rows, cols) int8 array, 0-8 for revealed counts, -1 hidden, -3 flagged,
    -2 mines (only in the last observation of a lost episode). Action: `row * cols + col`
    opens that cell; with `flags=True`, `rows * cols + row * cols + col` toggles its flag.
    Rewards: see `RewardScheme`. `action_masks()` and `info["action_mask"]` mark the actions
    that change something. The episode ends when the game is won or lost (terminated) or
    after `max_steps` steps (truncated); either way it is over for the agent: the mask is all
    zero and `step` refuses until `reset`. Nothing in `info` tells where the mines are: the
    game ID, which rebuilds the layout, is given only once the episode is over.

    >>> env = MinesEnv(rows=4, cols=4, mines=2, max_steps=1)
    >>> observation, info = env.reset(seed=3)
    >>> sorted(info)
    ['action_mask', 'status']
    >>> observation, reward, terminated, truncated, info = env.step(0)
    >>> terminated or truncated, int(info["action_mask"].sum())
    (True, 0)
    >>> info["game_id"]  # doctest: +ELLIPSIS
    '4x4n2#...'
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
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
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        placer_for_rule(first_click, 0)  # an unknown rule fails here, with the known ones
        self.rows, self.cols, self.mines = options.rows, options.cols, options.mines
        self.first_click, self.flags = first_click, flags
        self.reward_scheme, self.max_steps = options.reward, options.max_steps
        self.render_mode = render_mode
        self.observation_space = observation_space(self.rows, self.cols)
        self._actions = options.actions
        self.action_space = spaces.Discrete(self._actions)
        self._cells = self.rows * self.cols
        self._game = self._new_game(0)
        self._observe()
        self._steps = 0
        self._truncated = False

    def _new_game(self, seed: int) -> Game:
        placer = placer_for_rule(self.first_click, seed)
        return Game(self.rows, self.cols, self.mines, placer=placer)

    def _game_on(self, layout: Any) -> Game:
        """A game on a given layout of (row, col) mines, checked as `Game` checks any."""
        placer = FixedPlacer(layout)
        placer.place(self.rows, self.cols, self.mines, (0, 0))  # refuses a wrong count or cell
        return Game(self.rows, self.cols, self.mines, placer=placer)

    def _observe(self) -> Observation:
        """Look at the game again; the envs keep the last look, so a step views the game once."""
        self._observation = OBSERVED[self._game.view().array]
        self._observation.setflags(write=False)
        return self._observation

    def action_masks(self) -> Mask:
        """1 for each action that changes the board now (sb3-contrib's `MaskablePPO` reads it)."""
        observation = self._observation.reshape(-1)
        playing = self._game.status is GameStatus.IN_PROGRESS and not self._truncated
        hidden: npt.NDArray[np.bool_] = observation == HIDDEN
        if not self.flags:
            return (hidden & playing).astype(np.int8)
        unopened = hidden | (observation == FLAG)
        return (np.concatenate([hidden, unopened]) & playing).astype(np.int8)

    def _info(self) -> dict[str, Any]:
        status = self._game.status
        info: dict[str, Any] = {"action_mask": self.action_masks(), "status": status.value}
        if status.is_over or self._truncated:
            # Only now: the ID's seed rebuilds the layout, so before the end it gives the game away.
            info["game_id"] = str(self._game.game_id) if self._game.game_id else None
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode: on the layout `seed` deals (by the first-click rule), or, with
        `options={"layout": [(row, col), ...]}`, on exactly those mines, played as given (the
        first click may hit one). Any other option is refused with a `ValueError`."""
        unknown = sorted(set(options or {}) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(
                f"MinesEnv.reset takes the options {list(RESET_OPTIONS)}, got unknown {unknown}"
            )
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**48))
        if options and "layout" in options:
            self._game = self._game_on(options["layout"])
        else:
            self._game = self._new_game(game_seed)
        self._steps = 0
        self._truncated = False
        return self._observe().copy(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._game
        if game.status.is_over or self._truncated:
            raise RuntimeError("the episode is over: call reset() before step()")
        if not self.action_space.contains(np.int64(action)):
            raise ValueError(f"action must be from 0 to {self._actions - 1}, got {action!r}")
        flag, cell = divmod(int(action), self._cells)
        row, col = divmod(cell, self.cols)
        before = self._observation
        changed = True
        try:
            if flag:
                game.toggle_flag(row, col)
            else:
                changed = bool(before[row, col] == HIDDEN)
                game.reveal(row, col)
        except IllegalMoveError:  # a flag on an open cell, an open on a flagged one: no change
            changed = False
        self._steps += 1
        observation = self._observe()
        status = game.status
        won, lost = status is GameStatus.WON, status is GameStatus.LOST
        opened = 0
        if not lost:
            opened = int(np.count_nonzero(observation >= 0)) - int(np.count_nonzero(before >= 0))
        reward = rewards(
            self.reward_scheme,
            opened=np.array(opened),
            safe_cells=self._cells - self.mines,
            won=np.array(won),
            lost=np.array(lost),
            wasted=np.array(not changed),
        )
        terminated = status.is_over
        self._truncated = not terminated and self._steps >= self.max_steps
        return observation.copy(), float(reward), terminated, self._truncated, self._info()

    def render(self) -> str | Image | None:
        if self.render_mode == "ansi":
            game = self._game
            return f"{game.view()}\n{game.status.value}  mines left {game.mines_left}"
        if self.render_mode == "rgb_array":
            return draw(self._game.view().array)
        return None
