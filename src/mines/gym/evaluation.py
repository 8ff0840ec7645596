"""`evaluate`: any policy on one fixed set of evaluation boards, its win rate and 95% interval."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import stats

from mines.gym.encoding import Mask
from mines.gym.vector import MinesVectorEnv, Observations
from mines.status import GameStatus

Policy = Callable[[Observations, Mask], npt.NDArray[np.integer[Any]]]
"""A batched policy: observations (n, rows, cols) and masks (n, actions) of the boards still
playing, in board order, to one action per board. It sees nothing else, so two policies
evaluated with the same seed play the same boards."""

CONFIDENCE = 0.95


def wilson_interval(
    wins: int, episodes: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval of a win rate: right near 0% and 100% and for few episodes,
    where the normal approximation's p ± 1.96 sqrt(p(1-p)/n) is not.

    >>> low, high = wilson_interval(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    rate = wins / episodes
    scale = 1 + z * z / episodes
    centre = (rate + z * z / (2 * episodes)) / scale
    half = z / scale * np.sqrt(rate * (1 - rate) / episodes + z * z / (4 * episodes * episodes))
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a policy did on the evaluation boards: one episode on each."""

    board: str
    """The boards' size and mines, as in a game ID: `9x9n10`."""
    seed: int
    won: npt.NDArray[np.bool_]
    """Per evaluation board, whether the policy won it: compare two policies board by board."""
    steps: npt.NDArray[np.int64]
    """Per evaluation board, the steps its episode took."""
    rewards: npt.NDArray[np.float64]
    """Per evaluation board, the episode's total reward."""

    @property
    def episodes(self) -> int:
        return int(self.won.size)

    @property
    def wins(self) -> int:
        return int(np.count_nonzero(self.won))

    @property
    def win_rate(self) -> float:
        return self.wins / self.episodes

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% confidence interval (Wilson)."""
        return wilson_interval(self.wins, self.episodes)

    @property
    def mean_steps(self) -> float:
        return float(self.steps.mean())

    @property
    def mean_reward(self) -> float:
        return float(self.rewards.mean())

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.board}, {self.episodes:,} boards (seed {self.seed}): won {self.win_rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}), {self.mean_steps:.1f} steps, "
            f"reward {self.mean_reward:.3f}"
        )


def evaluate(
    policy: Policy,
    *,
    episodes: int = 1000,
    seed: int = 0,
    **options: Any,
) -> Evaluation:
    """Play one episode with `policy` on each of `episodes` evaluation boards.

    Evaluation board `i` is the first episode of the batched env's board `i` under `seed`
    (`mines.gym.streams`): the same boards for every policy, whatever it does, and the first
    `n` boards of a longer evaluation are the boards of a shorter one. Under a first-click
    rule the layout keeps that click's promise, so two policies that open different first
    cells get the board the rule makes from the same keys. `options` are the envs' (`rows`,
    `cols`, `mines` or `preset`, `first_click`, `flags`, `reward`, `max_steps`); Beginner
    by default.

    >>> from mines.gym.agents import RandomPolicy
    >>> result = evaluate(RandomPolicy(seed=1), episodes=200, rows=4, cols=4, mines=2)
    >>> result.episodes, 0.0 < result.win_rate < 1.0
    (200, True)
    >>> low, high = result.interval
    >>> low < result.win_rate < high
    True
    """
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise ValueError(f"episodes must be a positive integer, got {episodes!r}")
    env = MinesVectorEnv(episodes, **options)
    observations, info = env.reset(seed=seed)
    playing = np.ones(episodes, dtype=bool)
    won = np.zeros(episodes, dtype=bool)
    steps = np.zeros(episodes, dtype=np.int64)
    totals = np.zeros(episodes, dtype=np.float64)
    actions = np.zeros(episodes, dtype=np.int64)
    while playing.any():
        boards = np.flatnonzero(playing)
        chosen = np.asarray(policy(observations[boards], info["action_mask"][boards]))
        if chosen.shape != boards.shape or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(
                f"the policy must give one integer action per board ({boards.size}), "
                f"got an array of shape {chosen.shape} and dtype {chosen.dtype}"
            )
        actions[:] = 0  # boards whose episode is over autoreset: what they play is not counted
        actions[boards] = chosen
        observations, gained, terminated, truncated, info = env.step(actions)
        totals[boards] += gained[boards]
        steps[boards] += 1
        ended = (terminated | truncated) & playing
        won |= ended & (info["status"] == GameStatus.WON.value)
        playing &= ~ended
    return Evaluation(f"{env.rows}x{env.cols}n{env.mines}", seed, won, steps, totals)
