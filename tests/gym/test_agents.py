"""The baseline agents: masked random play on both envs, the solver's Bot through observations."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from mines.gym import MinesEnv, MinesVectorEnv
from mines.gym.agents import (
    BotAgent,
    RandomAgent,
    evaluate,
    evaluate_random_batched,
    masked_random,
    view_of,
)


def test_masked_random_picks_only_allowed_actions() -> None:
    rng = np.random.default_rng(0)
    masks = np.zeros((500, 10), dtype=np.int8)
    masks[:, [2, 7]] = 1
    actions = masked_random(rng, masks)
    assert set(actions.tolist()) == {2, 7}
    assert masked_random(rng, np.zeros((1, 10), dtype=np.int8)).tolist() == [0]


def test_the_bot_sees_what_the_game_shows() -> None:
    env = MinesEnv(flags=True)
    observation, _ = env.reset(seed=4)
    for action in (40, 81 + 0, 81 + 80):
        observation, *_ = env.step(action)
        assert view_of(observation, 10).to_strings() == env._game.view().to_strings()
        assert view_of(observation, 10).mines_left == env._game.mines_left


def test_the_bot_wins_most_beginner_games_through_the_env() -> None:
    stats = evaluate(MinesEnv(preset="beginner"), BotAgent(10), 60, seed=1)
    assert stats.episodes == 60
    assert stats.win_rate >= 0.85  # it wins about 97% when it plays the Game directly
    assert stats.mean_reward > 1.5


def test_random_play_agrees_on_both_envs() -> None:
    single = evaluate(MinesEnv(4, 4, 2), RandomAgent(3), 3000, seed=2)
    batched = evaluate_random_batched(MinesVectorEnv(200, 4, 4, 2), 3000, seed=2)
    assert batched.episodes >= 3000
    assert 0.1 < single.win_rate < 0.9
    assert abs(single.win_rate - batched.win_rate) < 0.05
    assert abs(single.mean_length - batched.mean_length) < 0.3
    assert abs(single.mean_reward - batched.mean_reward) < 0.1
    assert "win rate" in str(single)


def test_the_bot_only_plays_allowed_actions() -> None:
    env = MinesEnv(preset="beginner")
    agent = BotAgent(10)
    for seed in range(5):
        observation, info = env.reset(seed=seed)
        agent.reset()
        done = False
        while not done:
            action = agent.act(observation, info)
            # A cell a flood already opened is never played again from the bot's queue.
            assert info["action_mask"][action] == 1
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
