"""Gymnasium environments for reinforcement learning on `mines` games: one board, or N at once."""

import gymnasium

from mines.gym.encoding import FLAG, HIDDEN, MINE, RewardScheme
from mines.gym.env import MinesEnv
from mines.gym.vector import MinesVectorEnv

ENV_ID = "mines/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="mines.gym.env:MinesEnv",
        vector_entry_point="mines.gym.vector:MinesVectorEnv",
    )

__all__ = ["ENV_ID", "FLAG", "HIDDEN", "MINE", "MinesEnv", "MinesVectorEnv", "RewardScheme"]
