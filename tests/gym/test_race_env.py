"""The PettingZoo race env: PettingZoo's API test, scores as rewards, mines, freezes, the end."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the gym extra is not installed")

from pettingzoo.test import parallel_api_test

from mines.gym import HIDDEN, MINE
from mines.gym.race import RaceEnv


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"mode": "duel", "players": 3},
        {"on_mine": "freeze", "flags": True, "freeze_steps": 2},
        {"rows": 1, "cols": 10, "mines": 3, "max_steps": 4},
    ],
    ids=["shared", "duel", "freeze-flags", "truncated"],
)
def test_pettingzoos_parallel_api_test_passes(options: dict[str, Any]) -> None:
    board = {"rows": 6, "cols": 6, "mines": 5} | options
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(RaceEnv(**board), num_cycles=300)
    assert not [str(w.message) for w in caught if "pettingzoo" in w.filename]


def _mines(env: RaceEnv) -> list[tuple[int, int]]:
    layout = env.race._shared.record().layout
    assert layout is not None
    return list(layout)


def test_scores_are_rewards_and_a_mine_puts_a_player_out() -> None:
    env = RaceEnv(rows=6, cols=6, mines=5)
    observations, _ = env.reset(seed=4)
    assert all((o["observation"] == HIDDEN).all() for o in observations.values())
    observations, rewards, terminated, _, infos = env.step({"player_0": 14, "player_1": 14})
    opened = int((observations["player_0"]["observation"] >= 0).sum())
    scores = [infos[a]["score"] for a in env.possible_agents]
    assert sorted(scores) == [0, opened]  # whoever moved first opened it all
    assert sum(rewards.values()) == pytest.approx(opened / 31)
    assert not (observations["player_1"]["observation"] == MINE).any()
    mine = _mines(env)[0]
    safe = int(np.flatnonzero(observations["player_1"]["action_mask"])[0])
    observations, rewards, terminated, _, _ = env.step(
        {"player_0": mine[0] * 6 + mine[1], "player_1": safe}
    )
    assert terminated["player_0"]
    assert rewards["player_0"] == pytest.approx(-1.0)
    assert env.agents == ["player_1"]
    assert observations["player_1"]["observation"][mine] == MINE  # a hit mine shows to all
    assert not observations["player_0"]["action_mask"].any()


def test_a_frozen_player_waits_and_the_race_ends_with_a_winner() -> None:
    env = RaceEnv(rows=6, cols=6, mines=5, on_mine="freeze", freeze_steps=2, freeze_penalty=3)
    env.reset(seed=4)
    env.step({"player_0": 14, "player_1": 14})
    (r0, c0), (r1, c1) = _mines(env)[:2]
    observations, *_ = env.step({"player_0": r0 * 6 + c0, "player_1": r1 * 6 + c1})
    assert all(not o["action_mask"].any() for o in observations.values())  # both frozen
    observations, *_ = env.step({"player_0": 0, "player_1": 0})
    assert all(not o["action_mask"].any() for o in observations.values())
    observations, *_ = env.step({"player_0": 0, "player_1": 0})
    assert all(o["action_mask"].any() for o in observations.values())  # 2 steps later
    rewards: dict[str, float] = {}
    terminated = {"player_0": False}
    while not terminated["player_0"]:
        mask = observations["player_0"]["action_mask"]
        actions = {
            agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
            for agent in env.agents
        }
        safe = [a for a in np.flatnonzero(mask) if divmod(int(a), 6) not in _mines(env)]
        actions["player_0"] = int(safe[0])
        actions["player_1"] = int(safe[-1])
        observations, rewards, terminated, _, infos = env.step(actions)
    assert env.agents == []
    winner = infos["player_0"]["winner"]
    assert rewards[winner] > 0.5
    assert env.won(winner)
    loser = next(a for a in env.possible_agents if a != winner)
    assert rewards[loser] < 0
    assert not env.won(loser)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="freeze_steps must be from 1 to 59"):
        RaceEnv(freeze_steps=0)
    with pytest.raises(ValueError, match="2 to 8 players"):
        RaceEnv(players=9)
    with pytest.raises(ValueError, match="a race needs a safe first click"):
        RaceEnv(first_click="any")
    env = RaceEnv(rows=3, cols=3, mines=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="from 0 to 8"):
        env.step({"player_0": 9, "player_1": 0})
