"""The baseline agents: masked random play on both envs, the solver's Bot through observations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from mines.gym import MinesEnv, evaluate
from mines.gym.agents import BotAgent, BotPolicy, RandomAgent, RandomPolicy, masked_random, view_of
from mines.gym.evaluation import wilson_interval


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
    result = evaluate(BotPolicy(10), episodes=60, seed=1, preset="beginner")
    assert result.episodes == 60
    assert result.win_rate >= 0.85  # it wins about 97% when it plays the Game directly
    assert result.mean_reward > 1.5
    assert "won" in str(result)


def test_random_play_agrees_on_both_envs() -> None:
    """Masked random play: the single env's episodes (real `Game`s) and the evaluation boards
    of the batched env agree in distribution."""
    env, agent = MinesEnv(4, 4, 2), RandomAgent(3)
    wins, lengths = 0, []
    for episode in range(3000):
        observation, info = env.reset(seed=2 if episode == 0 else None)
        length, done = 0, False
        while not done:
            observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
            length, done = length + 1, terminated or truncated
        wins += info["status"] == "WON"
        lengths.append(length)
    batched = evaluate(RandomPolicy(3), episodes=3000, seed=2, rows=4, cols=4, mines=2)
    assert 0.1 < wins / 3000 < 0.9
    assert abs(wins / 3000 - batched.win_rate) < 0.05
    assert abs(np.mean(lengths) - batched.mean_steps) < 0.3


def test_evaluate_gives_every_policy_the_same_boards() -> None:
    """Two different policies that open the same first cell see the same board after it, on
    every evaluation board; and a shorter evaluation's boards begin a longer one's."""
    seen: dict[str, list[np.ndarray]] = {"random": [], "bot": []}

    def recording(name: str, policy: Any) -> Any:
        def play(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            if (observations == -1).all():  # the first move: both open the centre
                return np.full(len(observations), 2 * 5 + 2)
            if not seen[name]:
                seen[name].append(observations.copy())  # the boards after the first click
            return np.asarray(policy(observations, masks))

        return play

    options: dict[str, Any] = {"episodes": 300, "seed": 8, "rows": 5, "cols": 5, "mines": 4}
    one = evaluate(recording("random", RandomPolicy(1)), **options)
    two = evaluate(recording("bot", BotPolicy(4)), **options)
    assert np.array_equal(seen["random"][0], seen["bot"][0])
    assert len({board.tobytes() for board in seen["random"][0]}) > 250  # and they differ
    assert two.win_rate > one.win_rate
    shorter = evaluate(BotPolicy(4), **{**options, "episodes": 100})
    assert np.array_equal(shorter.won, two.won[:100])


def test_wilson_interval() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson_interval(500, 1000)
    assert low == pytest.approx(0.469, abs=1e-3)
    assert high == pytest.approx(0.531, abs=1e-3)
    with pytest.raises(ValueError, match="at least 1"):
        wilson_interval(0, 0)


def test_evaluate_refuses_a_policy_that_does_not_answer_per_board() -> None:
    with pytest.raises(ValueError, match="one integer action per board"):
        evaluate(lambda o, m: np.zeros(1, dtype=np.int64), episodes=4, rows=3, cols=3, mines=1)
    with pytest.raises(ValueError, match="episodes must be a positive integer"):
        evaluate(RandomPolicy(), episodes=0)


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
