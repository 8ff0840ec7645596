"""The Gymnasium environment: Gymnasium's own checker, seeds, masks, rewards and the end."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from mines import FixedPlacer, Game  # noqa: E402
from mines.gym import ENV_ID, MinesEnv  # noqa: E402
from mines.gym.env import HIDDEN, LOSS_REWARD, MINE, WASTED_MOVE_REWARD, WIN_REWARD  # noqa: E402


def test_gymnasium_checker_passes() -> None:
    check_env(gymnasium.make(ENV_ID, render_mode="ansi").unwrapped, skip_render_check=False)


def test_registered_and_made_by_id() -> None:
    env = gymnasium.make(ENV_ID, rows=5, cols=6, mines=4)
    observation, _ = env.reset(seed=1)
    assert observation.shape == (5, 6)


def test_same_seed_same_episode() -> None:
    one, two = MinesEnv(), MinesEnv()
    first, info = one.reset(seed=42)
    second, _ = two.reset(seed=42)
    assert (first == HIDDEN).all()
    assert np.array_equal(first, second)
    assert info["game_id"] == str(two.game.game_id)
    a = one.step(40)
    b = two.step(40)
    assert np.array_equal(a[0], b[0])
    assert a[1] == b[1]


def test_rewards_mask_and_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    env = MinesEnv(rows=1, cols=3, mines=1)
    monkeypatch.setattr(env, "_new_game", lambda seed: Game(1, 3, 1, placer=FixedPlacer([(0, 1)])))
    env.reset(seed=0)
    mine, safe = 1, [0, 2]
    _, reward, terminated, truncated, info = env.step(safe[0])
    assert not terminated
    assert not truncated
    assert reward == pytest.approx(0.5)
    assert info["action_mask"][safe[0]] == 0
    _, wasted, *_ = env.step(safe[0])
    assert wasted == WASTED_MOVE_REWARD
    observation, reward, terminated, _, info = env.step(safe[1])
    assert (observation >= 0).sum() == 2
    assert terminated
    assert reward == pytest.approx(0.5 + WIN_REWARD)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(mine)


def test_a_loss_shows_the_mines() -> None:
    env = MinesEnv(rows=2, cols=2, mines=3, first_click="any")
    for seed in range(50):
        env.reset(seed=seed)
        observation, reward, terminated, _, _ = env.step(0)
        if reward == LOSS_REWARD:
            assert terminated
            assert (observation == MINE).sum() == 3
            return
    pytest.fail("no seed put a mine under the first click")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="mines must be from 0 to 3"):
        MinesEnv(rows=2, cols=2, mines=4)
    with pytest.raises(ValueError, match="render_mode"):
        MinesEnv(render_mode="human")


def test_render_ansi() -> None:
    env = MinesEnv(render_mode="ansi")
    env.reset(seed=3)
    env.step(40)
    text = env.render()
    assert text is not None
    assert "mines left 10" in text
