"""The stable-baselines3 adapter: SB3's own checks, the info it needs, and MaskablePPO learning."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from mines.gym import HIDDEN, evaluate
from mines.gym.agents import RandomPolicy
from mines.gym.sb3 import MinesVecEnv
from mines.gym.wrappers import planes


def test_the_info_sb3_reads_at_an_episode_end() -> None:
    env = MinesVecEnv(64, rows=3, cols=3, mines=2, first_click="any", max_steps=2)
    env.seed(3)
    first = np.asarray(env.reset())
    assert first.shape == (64, 12, 3, 3)
    assert env.observation_space.contains(first[0])
    stepped, rewards, dones, infos = env.step(np.zeros(64, dtype=np.int64))
    observations = np.asarray(stepped)
    assert dones.any()  # with no promise for the first click, some lose (and some win)
    for board in np.flatnonzero(dones):
        info = infos[board]
        assert info["is_success"] is bool(rewards[board] > 0)
        assert info["TimeLimit.truncated"] is False
        assert info["terminal_observation"].shape == (12, 3, 3)
        assert np.array_equal(observations[board], planes(np.full((3, 3), HIDDEN, np.int8)))
    assert all(not infos[board] for board in np.flatnonzero(~dones))
    assert env.action_masks()[dones].all()  # already the next boards
    _, _, dones, infos = env.step(np.full(64, 4))
    cut = [info for info in infos if info.get("TimeLimit.truncated")]
    assert cut  # boards that lived two steps ran out of steps
    assert np.stack(env.env_method("action_masks", indices=[0, 1])).shape == (2, 9)
    assert env.has_attr("action_masks")
    assert env.get_attr("rows") == [3] * 64


def test_maskable_ppo_learns_on_the_batched_env() -> None:
    """A few thousand steps of sb3-contrib's MaskablePPO, unchanged, through the adapter:
    the greedy policy wins far more of the same evaluation boards than masked random play."""
    torch.set_num_threads(1)
    board: dict[str, Any] = {"rows": 1, "cols": 8, "mines": 2}
    env = VecMonitor(MinesVecEnv(16, **board))
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=4, learning_rate=3e-3, gamma=0.9
    )
    model.set_random_seed(0)
    model.learn(6000)

    def greedy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(
            planes(observations), action_masks=masks.astype(bool), deterministic=True
        )
        return actions

    trained = evaluate(greedy, episodes=1000, seed=1, **board)
    random = evaluate(RandomPolicy(1), episodes=1000, seed=1, **board)
    assert trained.interval[0] > random.interval[1] + 0.2, (trained, random)
