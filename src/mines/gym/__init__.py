"""Gymnasium environments for reinforcement learning on `mines` games: one board, or N at once."""

from mines.extras import require_extra

require_extra("gym", "mines.gym")

# Only once Gymnasium is known to be there: without it, the line above names the extra.
import gymnasium  # noqa: E402

from mines.gym.encoding import FLAG, HIDDEN, MINE, RewardScheme  # noqa: E402
from mines.gym.env import MinesEnv  # noqa: E402
from mines.gym.evaluation import Evaluation, Policy, evaluate  # noqa: E402
from mines.gym.vector import MinesVectorEnv  # noqa: E402

ENV_ID = "mines/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="mines.gym.env:MinesEnv",
        vector_entry_point="mines.gym.vector:MinesVectorEnv",
    )

__all__ = [
    "ENV_ID",
    "FLAG",
    "HIDDEN",
    "MINE",
    "Evaluation",
    "MinesEnv",
    "MinesVectorEnv",
    "Policy",
    "RewardScheme",
    "evaluate",
]
