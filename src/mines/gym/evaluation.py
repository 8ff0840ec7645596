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
    episodes: int | None = None,
    seed: int = 0,
    layouts: npt.ArrayLike | None = None,
    **options: Any,
) -> Evaluation:
    """Play one episode with `policy` on each of `episodes` evaluation boards (1,000 unless
    told), or on each of the given `layouts`.

    Evaluation board `i` is the first episode of the batched env's board `i` under `seed`
    (`mines.gym.streams`): the same boards for every policy, whatever it does, and the first
    `n` boards of a longer evaluation are the boards of a shorter one. Under a first-click
    rule the layout keeps that click's promise, so two policies that open different first
    cells get the board the rule makes from the same keys. `options` are the envs' (`rows`,
    `cols`, `mines` or `preset`, `first_click`, `flags`, `reward`, `max_steps`); Beginner
    by default.

    `layouts`, a (boards, rows, cols) boolean array (True for a mine), fixes the boards
    instead: board `i` is played on `layouts[i]` exactly as given, whatever the first click
    (it may hit a mine), as a `Game` with a `mines.placement.FixedPlacer` of those mines
    plays it; `episodes` is then their number.

    >>> from mines.gym.agents import RandomPolicy
    >>> result = evaluate(RandomPolicy(seed=1), episodes=200, rows=4, cols=4, mines=2)
    >>> result.episodes, 0.0 < result.win_rate < 1.0
    (200, True)
    >>> low, high = result.interval
    >>> low < result.win_rate < high
    True
    """
    reset: dict[str, Any] = {}
    if layouts is not None:
        given = np.asarray(layouts)
        if given.ndim != 3 or len(given) < 1:
            raise ValueError(
                f"layouts must be a (boards, rows, cols) boolean array, got shape {given.shape}"
            )
        if episodes is not None and episodes != len(given):
            raise ValueError(f"{len(given)} layouts given but episodes={episodes}")
        episodes = len(given)
        options = {"rows": given.shape[1], "cols": given.shape[2], **options}
        options.setdefault("mines", int(given[0].sum()))
        reset["layouts"] = given
    episodes = 1000 if episodes is None else episodes
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise ValueError(f"episodes must be a positive integer, got {episodes!r}")
    env = MinesVectorEnv(episodes, **options)
    observations, info = env.reset(seed=seed, options=reset)
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


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two evaluations of the same boards, board by board (a 2x2 table of paired outcomes)."""

    first: Evaluation
    second: Evaluation

    def __post_init__(self) -> None:
        a, b = self.first, self.second
        if (a.board, a.seed, a.episodes) != (b.board, b.seed, b.episodes):
            raise ValueError(
                "a paired comparison needs evaluations of the same boards: got "
                f"{a.board} seed {a.seed} x{a.episodes} and {b.board} seed {b.seed} x{b.episodes}"
            )

    @property
    def table(self) -> tuple[int, int, int, int]:
        """Boards both won, only the first won, only the second won, neither won."""
        a, b = self.first.won, self.second.won
        return (
            int(np.count_nonzero(a & b)),
            int(np.count_nonzero(a & ~b)),
            int(np.count_nonzero(~a & b)),
            int(np.count_nonzero(~a & ~b)),
        )

    @property
    def difference(self) -> float:
        """The first's win rate less the second's."""
        return self.first.win_rate - self.second.win_rate

    @property
    def interval(self) -> tuple[float, float]:
        """The difference's 95% interval for paired outcomes: Newcombe's (1998) method 10,
        from the two Wilson intervals and the outcomes' correlation.

        >>> won = np.array([True] * 80 + [False] * 20)
        >>> other = np.array([True] * 70 + [False] * 10 + [True] * 5 + [False] * 15)
        >>> pair = Comparison(Evaluation("9x9n10", 0, won, won * 0, won * 0.0),
        ...                   Evaluation("9x9n10", 0, other, won * 0, won * 0.0))
        >>> pair.table, round(pair.difference, 2)
        ((70, 10, 5, 15), 0.05)
        >>> [round(x, 3) for x in pair.interval]
        [-0.029, 0.129]
        """
        both, first, second, neither = self.table
        n = self.first.episodes
        p1, p2 = self.first.win_rate, self.second.win_rate
        l1, u1 = self.first.interval
        l2, u2 = self.second.interval
        spread = (both + first) * (second + neither) * (both + second) * (first + neither)
        # The correlation of the paired outcomes, shrunk towards 0 as Newcombe does (Altman
        # et al., Statistics with Confidence, 2000, p. 52): a positive one by n / 2.
        product = both * neither - first * second
        cross = max(0.0, product - n / 2) if product > 0 else float(product)
        phi = cross / np.sqrt(spread) if spread else 0.0
        delta = p1 - p2
        low = delta - np.sqrt(
            max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
        )
        high = delta + np.sqrt(
            max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
        )
        return max(-1.0, float(low)), min(1.0, float(high))

    @property
    def p_value(self) -> float:
        """McNemar's exact test: the two-sided chance of boards won by one only splitting at
        least this unevenly if both players were equally good."""
        _, first, second, _ = self.table
        if first + second == 0:
            return 1.0
        return float(stats.binomtest(first, first + second, 0.5).pvalue)

    def __str__(self) -> str:
        low, high = self.interval
        _, first, second, _ = self.table
        return (
            f"difference {self.difference:+.1%} (95% CI {low:+.1%} to {high:+.1%}); won by the "
            f"first only {first}, by the second only {second}: McNemar p = {self.p_value:.3g}"
        )
