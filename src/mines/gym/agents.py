"""Baseline agents over the envs (masked random moves, the solver's `Bot`) and episode stats."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from mines.gym.encoding import FLAG, OBSERVED, SYMBOL_OF, Mask, Observation
from mines.gym.env import MinesEnv
from mines.gym.vector import MinesVectorEnv
from mines.solver.bot import Bot
from mines.status import GameStatus
from mines.view import BoardView

_SYMBOLS = np.zeros(256, dtype=np.uint8)
"""The ASCII code of the `Cell` symbol each observation code stands for, indexed by code + 3."""
for _code, _cell in SYMBOL_OF.items():
    _SYMBOLS[_code - FLAG] = ord(_cell.value)
    assert OBSERVED[ord(_cell.value)] == _code  # the two tables are each other's inverse


def masked_random(rng: np.random.Generator, masks: Mask) -> npt.NDArray[np.int64]:
    """One uniformly random allowed action per row of `masks` (action 0 where none is allowed)."""
    keys = rng.random(masks.shape) * masks
    actions: npt.NDArray[np.int64] = np.argmax(keys, axis=-1).astype(np.int64)
    return actions


def view_of(observation: Observation, mines: int) -> BoardView:
    """The `BoardView` a player sees behind an observation of a game in progress."""
    rows, cols = observation.shape
    flags = int(np.count_nonzero(observation == FLAG))
    return BoardView.from_symbols(
        _SYMBOLS[observation.astype(np.intp) - FLAG],
        rows=rows,
        cols=cols,
        status=GameStatus.IN_PROGRESS,
        mines_left=mines - flags,
    )


class Agent(Protocol):
    """Chooses one action of a single env from what the env gives it."""

    def reset(self) -> None: ...

    def act(self, observation: Observation, info: dict[str, Any]) -> int: ...


class RandomAgent:
    """Plays a uniformly random action among those `info["action_mask"]` allows."""

    def __init__(self, seed: int = 0):
        self._rng = np.random.default_rng(seed)

    def reset(self) -> None:
        pass

    def act(self, observation: Observation, info: dict[str, Any]) -> int:
        return int(masked_random(self._rng, info["action_mask"]))


class BotAgent:
    """The solver's `Bot`, seeing only the observation: it opens the cells it finds safe, one
    action at a time, and guesses when it must. It never flags."""

    def __init__(self, mines: int, seed: int = 0):
        self.mines = mines
        self._bot = Bot(seed)
        self._queue: deque[tuple[int, int]] = deque()

    def reset(self) -> None:
        self._queue.clear()

    def act(self, observation: Observation, info: dict[str, Any]) -> int:
        cols = observation.shape[1]
        while self._queue:  # a flood may have opened the cells still queued
            row, col = self._queue.popleft()
            if observation[row, col] < 0 and observation[row, col] != FLAG:
                return int(row * cols + col)
        self._queue.extend(self._bot.moves(view_of(observation, self.mines)))
        row, col = self._queue.popleft()
        return int(row * cols + col)


@dataclass(frozen=True, slots=True)
class EpisodeStats:
    """How a number of finished episodes went."""

    episodes: int
    wins: int
    mean_reward: float
    mean_length: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.episodes if self.episodes else 0.0

    def __str__(self) -> str:
        return (
            f"{self.episodes:,} episodes: win rate {self.win_rate:.1%}, mean reward "
            f"{self.mean_reward:.3f}, mean length {self.mean_length:.1f} steps"
        )


def evaluate(env: MinesEnv, agent: Agent, episodes: int, *, seed: int = 0) -> EpisodeStats:
    """Play `episodes` episodes of one env with an agent, the first seeded with `seed`."""
    wins = 0
    rewards: list[float] = []
    lengths: list[int] = []
    for episode in range(episodes):
        observation, info = env.reset(seed=seed if episode == 0 else None)
        agent.reset()
        total, length = 0.0, 0
        while True:
            observation, reward, terminated, truncated, info = env.step(
                agent.act(observation, info)
            )
            total += float(reward)
            length += 1
            if terminated or truncated:
                break
        wins += info["status"] == GameStatus.WON.value
        rewards.append(total)
        lengths.append(length)
    return EpisodeStats(episodes, wins, float(np.mean(rewards)), float(np.mean(lengths)))


def evaluate_random_batched(env: MinesVectorEnv, episodes: int, *, seed: int = 0) -> EpisodeStats:
    """Masked random play on every board of a batched env until `episodes` episodes ended."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    totals = np.zeros(env.num_envs, dtype=np.float64)
    lengths = np.zeros(env.num_envs, dtype=np.int64)
    wins = 0
    rewards: list[float] = []
    steps: list[int] = []
    while len(rewards) < episodes:
        _, reward, terminated, truncated, info = env.step(masked_random(rng, info["action_mask"]))
        totals += reward
        lengths += 1
        ended = np.flatnonzero(terminated | truncated)
        wins += int(np.count_nonzero(info["status"][ended] == GameStatus.WON.value))
        rewards.extend(totals[ended].tolist())
        steps.extend(lengths[ended].tolist())
        # The step after an end only resets the board: it adds nothing to the next episode.
        totals[ended] = 0.0
        lengths[ended] = -1
    return EpisodeStats(len(rewards), wins, float(np.mean(rewards)), float(np.mean(steps)))
