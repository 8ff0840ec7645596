"""`OneHotObservation`: observations as one 0/1 plane per code, for small networks."""

from __future__ import annotations

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mines.gym.encoding import FLAG, Observation

CODES = np.arange(FLAG, 9, dtype=np.int8)
"""Every observation code in order (-3 flag, -2 mine, -1 hidden, 0-8), one plane each."""

Planes = npt.NDArray[np.float32]


def planes(observation: Observation) -> Planes:
    """An observation (..., rows, cols) as planes (..., 12, rows, cols), one per code."""
    one_hot: Planes = (observation[..., None, :, :] == CODES[:, None, None]).astype(np.float32)
    return one_hot


class OneHotObservation(gymnasium.ObservationWrapper[Planes, np.int64, Observation]):
    """A `MinesEnv` whose observations are `planes`: a code is a category, not a quantity.

    `action_masks()` stays reachable through the wrapper (`get_wrapper_attr`), as sb3-contrib
    looks for it.
    """

    def __init__(self, env: gymnasium.Env[Observation, np.int64]):
        super().__init__(env)
        rows, cols = env.observation_space.shape or (0, 0)
        self.observation_space = spaces.Box(0.0, 1.0, (CODES.size, rows, cols), np.float32)

    def observation(self, observation: Observation) -> Planes:
        return planes(observation)
