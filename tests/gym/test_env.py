"""The single env: Gymnasium's checker, options, seeds, masks, rewards, no leaks, pictures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from mines import FixedPlacer, Game, InvalidBoardError  # noqa: E402
from mines.gym import ENV_ID, FLAG, HIDDEN, MINE, MinesEnv, MinesVectorEnv  # noqa: E402
from mines.gym.encoding import LOSS_REWARD, WASTED_MOVE_REWARD, WIN_REWARD  # noqa: E402
from mines.gym.render import TILE, TILES  # noqa: E402


class FixedEnv(MinesEnv):
    """The single env on one fixed layout."""

    def __init__(self, mines: list[tuple[int, int]], **options: Any):
        self.layout = mines
        super().__init__(mines=len(mines), **options)

    def _new_game(self, seed: int) -> Game:
        return Game(self.rows, self.cols, self.mines, placer=FixedPlacer(self.layout))


@pytest.mark.parametrize(
    "options",
    [
        {"render_mode": "ansi"},
        {"render_mode": "rgb_array", "flags": True},
        {"reward": "sparse", "first_click": "noguess", "rows": 6, "cols": 6, "mines": 5},
    ],
)
def test_gymnasium_checker_passes(options: dict[str, Any]) -> None:
    check_env(gymnasium.make(ENV_ID, **options).unwrapped, skip_render_check=False)


def test_registered_and_made_by_id() -> None:
    env = gymnasium.make(ENV_ID, rows=5, cols=6, mines=4)
    observation, _ = env.reset(seed=1)
    assert observation.shape == (5, 6)
    expert = gymnasium.make(ENV_ID, preset="expert")
    assert expert.observation_space.shape == (16, 30)


def test_same_seed_same_episode() -> None:
    one, two = MinesEnv(), MinesEnv()
    first, _ = one.reset(seed=42)
    second, _ = two.reset(seed=42)
    assert (first == HIDDEN).all()
    assert np.array_equal(first, second)
    a = one.step(40)
    b = two.step(40)
    assert np.array_equal(a[0], b[0])
    assert a[1] == b[1]


def test_rewards_mask_and_the_end() -> None:
    env = FixedEnv([(0, 1)], rows=1, cols=3)
    _, info = env.reset(seed=0)
    assert np.array_equal(env.action_masks(), info["action_mask"])
    mine, safe = 1, [0, 2]
    _, reward, terminated, truncated, info = env.step(safe[0])
    assert not terminated
    assert not truncated
    assert reward == pytest.approx(0.5)
    assert info["action_mask"].tolist() == [0, 1, 1]
    _, wasted, *_ = env.step(safe[0])
    assert wasted == pytest.approx(WASTED_MOVE_REWARD)
    observation, reward, terminated, _, info = env.step(safe[1])
    assert (observation >= 0).sum() == 2
    assert terminated
    assert reward == pytest.approx(0.5 + WIN_REWARD)
    assert not info["action_mask"].any()
    assert info["status"] == "WON"
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(mine)


def test_sparse_rewards() -> None:
    env = FixedEnv([(0, 1)], rows=1, cols=3, reward="sparse")
    env.reset(seed=0)
    assert env.step(0)[1] == 0.0
    assert env.step(0)[1] == 0.0  # a wasted move costs nothing either
    assert env.step(2)[1] == pytest.approx(WIN_REWARD)
    env.reset(seed=0)
    env.step(0)
    assert env.step(1)[1] == pytest.approx(LOSS_REWARD)


def test_flags_double_the_action_space() -> None:
    env = FixedEnv([(0, 1)], rows=1, cols=3, flags=True)
    assert env.action_space == gymnasium.spaces.Discrete(6)
    _, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [1, 1, 1, 1, 1, 1]
    observation, reward, *_, info = env.step(3 + 2)  # flag (0, 2)
    assert observation.tolist() == [[HIDDEN, HIDDEN, FLAG]]
    assert reward == 0.0
    assert info["action_mask"].tolist() == [1, 1, 0, 1, 1, 1]  # a flagged cell cannot be opened
    _, reward, *_ = env.step(2)  # opening it anyway changes nothing
    assert reward == pytest.approx(WASTED_MOVE_REWARD)
    env.step(0)
    observation, *_, info = env.step(3 + 2)  # unflag
    assert observation.tolist() == [[1, HIDDEN, HIDDEN]]
    assert info["action_mask"].tolist() == [0, 1, 1, 0, 1, 1]  # an open cell cannot be flagged
    _, reward, *_ = env.step(3 + 0)
    assert reward == pytest.approx(WASTED_MOVE_REWARD)


def test_a_flood_stops_at_flags() -> None:
    env = FixedEnv([(0, 4)], rows=1, cols=5, flags=True)
    env.reset(seed=0)
    env.step(5 + 1)  # flag (0, 1)
    observation, reward, *_ = env.step(0)
    assert observation.tolist() == [[0, FLAG, HIDDEN, HIDDEN, HIDDEN]]
    assert reward == pytest.approx(1 / 4)


def test_truncation_ends_the_game_for_the_agent() -> None:
    env = MinesEnv(flags=True, max_steps=3)
    env.reset(seed=0)
    for _ in range(2):
        *_, truncated, info = env.step(81)
        assert not truncated
        assert "game_id" not in info
        assert info["action_mask"].sum() >= 161
    *_, terminated, truncated, info = env.step(81)
    assert truncated
    assert not terminated
    assert not info["action_mask"].any()
    assert not env.action_masks().any()
    assert info["status"] == "IN_PROGRESS"  # neither won nor lost
    assert info["game_id"].startswith("9x9n10#")  # only now
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(40)  # the game is over for the agent: nothing more is played on it
    _, info = env.reset()
    assert info["action_mask"].all()


def test_a_loss_shows_the_mines() -> None:
    env = FixedEnv([(0, 0), (0, 1), (1, 2)], rows=2, cols=3, first_click="any")
    env.reset(seed=0)
    observation, reward, terminated, _, info = env.step(3)
    assert observation.tolist() == [[HIDDEN, HIDDEN, HIDDEN], [2, HIDDEN, HIDDEN]]
    observation, reward, terminated, _, info = env.step(0)
    assert reward == pytest.approx(LOSS_REWARD)
    assert terminated
    assert observation.tolist() == [[MINE, MINE, HIDDEN], [2, HIDDEN, MINE]]
    assert info["status"] == "LOST"


class IdEnv(MinesEnv):
    """The single env on the game a game ID stands for."""

    def __init__(self, game_id: str, **options: Any):
        self.game_id = game_id
        super().__init__(**options)

    def _new_game(self, seed: int) -> Game:
        return Game.from_id(self.game_id)


def _play(env: MinesEnv, seed: int) -> tuple[list[int], np.ndarray, dict[str, Any]]:
    """A masked random episode; returns its actions, last observation and last info."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    actions: list[int] = []
    while True:
        assert "game_id" not in info
        assert set(info) == {"action_mask", "status"}
        assert not (observation == MINE).any()
        # The mask is a function of the observation alone, so it cannot carry mine knowledge.
        hidden = (observation == HIDDEN).reshape(-1)
        assert np.array_equal(info["action_mask"][: hidden.size], hidden)
        actions.append(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        observation, _, terminated, truncated, info = env.step(actions[-1])
        if terminated or truncated:
            return actions, observation, info


@pytest.mark.parametrize("flags", [False, True])
def test_no_mine_information_before_the_end(flags: bool) -> None:
    env = MinesEnv(flags=flags)
    for seed in range(30):
        actions, observation, info = _play(env, seed)
        # At the end the ID is given, and it is the real one: it replays to the same board.
        replayed = IdEnv(info["game_id"], flags=flags)
        replayed.reset()
        for action in actions:
            last, *_ = replayed.step(action)
        assert np.array_equal(last, observation)


def test_the_batched_env_shows_no_mines_before_the_end() -> None:
    env = MinesVectorEnv(64, flags=True)
    observations, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(100):
        assert set(info) == {"action_mask", "_action_mask", "status", "_status"}
        mask = info["action_mask"]
        observations, _, terminated, _, info = env.step(
            np.argmax(rng.random(mask.shape) * mask, axis=1)
        )
        shows_mines = (observations == MINE).any(axis=(1, 2))
        assert np.array_equal(shows_mines, info["status"] == "LOST")
        assert terminated[shows_mines].all()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="mines must be from 0 to 3"):
        MinesEnv(rows=2, cols=2, mines=4)
    with pytest.raises(ValueError, match="render_mode"):
        MinesEnv(render_mode="human")
    with pytest.raises(ValueError, match="unknown placement rule 'lucky'"):
        MinesEnv(first_click="lucky")
    with pytest.raises(ValueError, match="reward must be one of 'progress', 'sparse'"):
        MinesEnv(reward="dense")
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        MinesEnv(max_steps=0)
    with pytest.raises(ValueError, match="flags must be True or False"):
        MinesEnv(flags=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown preset"):
        MinesEnv(preset="huge")
    env = MinesEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be from 0 to 80"):
        env.step(81)


def test_render_ansi() -> None:
    env = MinesEnv(render_mode="ansi")
    env.reset(seed=3)
    env.step(40)
    text = env.render()
    assert isinstance(text, str)
    assert "mines left 10" in text
    assert MinesEnv().render() is None


def _tile_at(image: np.ndarray, row: int, col: int) -> np.ndarray:
    return image[row * TILE : (row + 1) * TILE, col * TILE : (col + 1) * TILE]


def test_render_rgb_array_draws_each_cell() -> None:
    env = FixedEnv([(0, 0), (0, 2)], rows=2, cols=3, flags=True, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(6 + 2)  # flag (0, 2)
    env.step(4)  # open (1, 1): a 2
    env.step(3)  # open (1, 0): a 1
    env.step(1)  # open (0, 1): a 2... then lose on (0, 0)
    env.step(0)
    image = env.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (2 * TILE, 3 * TILE, 3)
    assert image.dtype == np.uint8
    expected = {(0, 0): "X", (0, 1): "2", (0, 2): "F", (1, 0): "1", (1, 1): "2", (1, 2): "H"}
    for (row, col), symbol in expected.items():
        assert np.array_equal(_tile_at(image, row, col), TILES[ord(symbol)]), (row, col)
    assert len({TILES[ord(s)].tobytes() for s in "HFWMX012345678"}) == 14


def test_a_preset_and_a_size_together_are_refused_as_everywhere() -> None:
    with pytest.raises(InvalidBoardError, match="not both"):
        MinesEnv(16, 30, 99, preset="expert")
    with pytest.raises(InvalidBoardError, match="mines is missing"):
        MinesVectorEnv(2, rows=9, cols=9)
    assert MinesEnv(preset="expert").rows == 16
    assert (MinesEnv().rows, MinesEnv().mines) == (9, 10)


def test_reset_refuses_unknown_options() -> None:
    env = MinesEnv(rows=4, cols=4, mines=2)
    with pytest.raises(ValueError, match=r"takes the options \['layout'\], got unknown \['seed'\]"):
        env.reset(options={"seed": 3})
    env.reset(options={})  # Gymnasium's checker passes an empty dict


def test_reset_plays_a_given_layout_as_given() -> None:
    env = MinesEnv(rows=3, cols=3, mines=2)
    env.reset(seed=1, options={"layout": [(0, 0), (2, 2)]})
    *_, info = env.step(0)  # the first click may hit a given mine: no first-click rule here
    assert info["status"] == "LOST"
    env.reset(options={"layout": [(0, 0), (2, 2)]})
    _, _, _, _, info = env.step(2)
    assert info["status"] == "IN_PROGRESS"
    with pytest.raises(InvalidBoardError, match="has 1 mines but the game has 2"):
        env.reset(options={"layout": [(0, 0)]})
