"""The convolutional policy: any board size, masks obeyed, saved and loaded, shipped weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the rl extra is not installed")

import torch

from mines.gym import evaluate
from mines.gym.agents import RandomPolicy
from mines.gym.policy import WEIGHTS, ConvPolicy, load, save


def test_one_network_plays_every_board_size_and_obeys_the_mask() -> None:
    torch.manual_seed(0)
    policy = ConvPolicy(channels=8, layers=2, flags=True)
    for rows, cols in ((1, 5), (6, 6), (16, 30)):
        observations = np.full((3, rows, cols), -1, dtype=np.int8)
        masks = np.zeros((3, 2 * rows * cols), dtype=np.int8)
        allowed = [0, rows * cols + 1, 2 * rows * cols - 1]
        for board, action in enumerate(allowed):
            masks[board, action] = 1
        logits, values = policy.masked(observations, masks)
        assert logits.shape == (3, 2 * rows * cols)
        assert values.shape == (3,)
        assert policy.act(observations, masks).tolist() == allowed


def test_saved_weights_load_as_the_same_policy(tmp_path: Path) -> None:
    policy = ConvPolicy(channels=4, layers=3)
    save(policy, tmp_path / "p.pt", steps=7)
    again = load(tmp_path / "p.pt")
    assert again.config == {"channels": 4, "layers": 3, "flags": False}
    observations = np.random.default_rng(0).integers(-1, 3, size=(5, 4, 4)).astype(np.int8)
    masks = (observations == -1).reshape(5, -1).astype(np.int8)
    assert np.array_equal(policy.act(observations, masks), again.act(observations, masks))


def test_the_shipped_weights_win_far_more_than_random_play() -> None:
    assert (WEIGHTS / "conv.pt").stat().st_size < 1_000_000  # small enough to ship
    policy = load()
    for board in ({"rows": 6, "cols": 6, "mines": 5}, {"rows": 9, "cols": 9, "mines": 10}):
        trained = evaluate(policy.act, episodes=300, seed=11, **board)
        random = evaluate(RandomPolicy(0), episodes=300, seed=11, **board)
        assert trained.interval[0] > random.interval[1], (trained, random)
        assert trained.win_rate > 0.3
