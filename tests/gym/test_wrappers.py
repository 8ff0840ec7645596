"""The one-hot observation wrapper: one plane per code, and the mask still reachable."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from mines.gym import FLAG, HIDDEN, MinesEnv
from mines.gym.wrappers import CODES, OneHotObservation, planes


def test_one_plane_per_code() -> None:
    observation = np.array([[HIDDEN, 0], [8, FLAG]], dtype=np.int8)
    one_hot = planes(observation)
    assert one_hot.shape == (12, 2, 2)
    assert (one_hot.sum(axis=0) == 1).all()
    for code, (row, col) in ((HIDDEN, (0, 0)), (0, (0, 1)), (8, (1, 0)), (FLAG, (1, 1))):
        assert one_hot[CODES.tolist().index(code), row, col] == 1
    assert planes(np.stack([observation, observation])).shape == (2, 12, 2, 2)


def test_the_wrapped_env_keeps_its_mask() -> None:
    env = OneHotObservation(MinesEnv(4, 4, 2, flags=True))
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    observation, *_ = env.step(np.int64(5))
    assert env.observation_space.contains(observation)
