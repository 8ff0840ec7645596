"""A Gymnasium environment for reinforcement learning on `mines` games."""

import gymnasium

from mines.gym.env import MinesEnv

ENV_ID = "mines/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="mines.gym.env:MinesEnv")

__all__ = ["ENV_ID", "MinesEnv"]
