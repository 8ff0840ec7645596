"""A Gymnasium environment for reinforcement learning on `mines` games."""

from mines.extras import require_extra

require_extra("gym", "mines.gym")

import gymnasium  # noqa: E402 (only once it is known to be there)

from mines.gym.env import MinesEnv  # noqa: E402

ENV_ID = "mines/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="mines.gym.env:MinesEnv")

__all__ = ["ENV_ID", "MinesEnv"]
