"""Baseline players, masked random and the solver's `Bot`: single-env agents, batched policies."""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from mines.gym.encoding import FLAG, MINE, OBSERVED, SYMBOL_OF, Mask, Observation
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
    """The `BoardView` a player sees behind an observation of a game in progress.

    A mine shown while the game goes on (in a race, one another player hit) becomes a flag:
    a known mine, which the solver, like a flag, keeps among the unknown cells.
    """
    rows, cols = observation.shape
    observation = np.where(observation == MINE, FLAG, observation)
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


class RandomPolicy:
    """A batched policy (`mines.gym.evaluation.Policy`): a uniformly random allowed action on
    each board."""

    def __init__(self, seed: int = 0):
        self._rng = np.random.default_rng(seed)

    def __call__(self, observations: Observation, masks: Mask) -> npt.NDArray[np.int64]:
        return masked_random(self._rng, masks)


class BotPolicy:
    """A batched policy: the solver's `Bot` on each board, seeing only its observation. It
    opens the first cell the Bot proves safe, or the Bot's guess; it never flags, and keeps
    nothing from one call to the next. Where the Bot names no allowed move (a race's mine it
    took for a flag), it plays a random allowed one."""

    def __init__(self, mines: int, seed: int = 0):
        self.mines = mines
        self._bot = Bot(seed)
        self._rng = np.random.default_rng(seed)

    def __call__(self, observations: Observation, masks: Mask) -> npt.NDArray[np.int64]:
        cols = observations.shape[2]
        actions = np.zeros(len(observations), dtype=np.int64)
        for board, observation in enumerate(observations):
            moves = (r * cols + c for r, c in self._bot.moves(view_of(observation, self.mines)))
            allowed = [move for move in moves if masks[board, move]]
            actions[board] = allowed[0] if allowed else masked_random(self._rng, masks[board])
        return actions
