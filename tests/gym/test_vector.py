"""The batched env: the same games as `Game` move for move, the vector API, autoreset, seeds."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from mines import Game, RandomPlacer  # noqa: E402
from mines.gym import ENV_ID, HIDDEN, MinesEnv, MinesVectorEnv  # noqa: E402
from mines.gym.batch import Boards  # noqa: E402
from mines.gym.encoding import action_count  # noqa: E402
from mines.placement import CoordArray  # noqa: E402


class LayoutPlacer:
    """Gives a `Game` the mines one board of the batched env got, once it checked the first
    click: the same click, and a layout that keeps free what `RandomPlacer`'s rule keeps free."""

    def __init__(self, vector: MinesVectorEnv, board: int, rule: str, clicks: dict[int, int]):
        self.vector, self.board, self.rule, self.clicks = vector, board, rule, clicks

    @property
    def seed(self) -> None:
        return None

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        assert first_click == divmod(self.clicks[self.board], cols)
        positions = self.vector.boards.layout(self.board)
        keep_free = RandomPlacer(0, self.rule).excluded_cells(rows, cols, mines, first_click)
        assert not {(int(r), int(c)) for r, c in positions.tolist()} & set(keep_free)
        return positions


class GameEnv(MinesEnv):
    """The single env, whose `Game`s take their layouts from one board of the batched env."""

    def __init__(self, placer: LayoutPlacer, **options: Any):
        self.placer = placer
        super().__init__(**options)

    def _new_game(self, seed: int) -> Game:
        if not hasattr(self, "placer"):
            return super()._new_game(seed)
        return Game(self.rows, self.cols, self.mines, placer=self.placer)


BOARDS = [
    {"rows": 9, "cols": 9, "mines": 10},
    {"rows": 9, "cols": 9, "mines": 10, "flags": True},
    {"rows": 6, "cols": 6, "mines": 5, "first_click": "safe", "flags": True, "reward": "sparse"},
    {"rows": 4, "cols": 5, "mines": 12, "first_click": "any", "flags": True},
    {"rows": 1, "cols": 12, "mines": 2, "max_steps": 5},
    {"rows": 3, "cols": 3, "mines": 8},  # too dense for an opening: only the click is kept free
    {"rows": 5, "cols": 7, "mines": 0, "first_click": "any", "flags": True},
    {"rows": 16, "cols": 30, "mines": 99, "flags": True, "max_steps": 60},
]


@pytest.mark.parametrize("options", BOARDS, ids=lambda o: "-".join(map(str, o.values())))
def test_batched_boards_play_exactly_as_games(options: dict[str, Any]) -> None:
    boards = 12
    vector = MinesVectorEnv(boards, **options)
    clicks: dict[int, int] = {}
    rule = options.get("first_click", "opening")
    singles = [GameEnv(LayoutPlacer(vector, i, rule, clicks), **options) for i in range(boards)]
    observations, info = vector.reset(seed=5)
    for i, single in enumerate(singles):
        observation, single_info = single.reset()
        assert np.array_equal(observations[i], observation)
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    rng = np.random.default_rng(11)
    ended = np.zeros(boards, dtype=bool)
    episodes_ended = 0
    for _ in range(250):
        mask = info["action_mask"]
        masked = np.argmax(rng.random(mask.shape) * mask, axis=1)
        # One move in five is any action at all, so the moves that change nothing are compared too.
        anything = rng.integers(action_count(vector.rows, vector.cols, vector.flags), size=boards)
        actions = np.where(rng.random(boards) < 0.2, anything, masked)
        clicks.clear()
        clicks.update((i, int(a) % (vector.rows * vector.cols)) for i, a in enumerate(actions))
        observations, rewards, terminated, truncated, info = vector.step(actions)
        for i, single in enumerate(singles):
            if ended[i]:
                observation, single_info = single.reset()
                reward, done, cut = 0.0, False, False
                single_info["status"] = "IN_PROGRESS"
            else:
                observation, given, done, cut, single_info = single.step(int(actions[i]))
                reward = float(given)
            assert np.array_equal(observations[i], observation), f"board {i}"
            assert rewards[i] == reward
            assert (terminated[i], truncated[i]) == (done, cut)
            assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
            assert info["status"][i] == single_info["status"]
        ended = terminated | truncated
        episodes_ended += int(ended.sum())
    assert episodes_ended >= boards  # every kind of end was reached many times, not just once


def test_made_by_id_as_the_vector_entry_point() -> None:
    env = gymnasium.make_vec(
        ENV_ID, num_envs=8, vectorization_mode="vector_entry_point", rows=5, cols=6, mines=4
    )
    assert isinstance(env.unwrapped, MinesVectorEnv)
    assert env.num_envs == 8
    observations, info = env.reset(seed=1)
    assert observations.shape == (8, 5, 6)
    assert observations.dtype == np.int8
    assert env.observation_space.contains(observations)
    assert env.single_action_space == gymnasium.spaces.Discrete(30)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([30] * 8)
    assert info["action_mask"].shape == (8, 30)
    observations, rewards, terminated, truncated, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(observations)
    assert rewards.shape == (8,)
    assert rewards.dtype == np.float32
    assert terminated.dtype == truncated.dtype == np.bool_
    assert terminated.shape == truncated.shape == (8,)
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP


def test_flags_double_the_batched_action_space() -> None:
    env = MinesVectorEnv(3, rows=4, cols=4, mines=2, flags=True)
    _, info = env.reset(seed=0)
    assert env.single_action_space == gymnasium.spaces.Discrete(32)
    assert info["action_mask"].shape == (3, 32)
    observations, rewards, *_ = env.step(np.array([16 + 5, 16 + 5, 16 + 5]))
    assert (observations[:, 1, 1] == -3).all()
    assert (rewards == 0).all()
    _, info = env.reset(seed=0)
    assert info["action_mask"].all()


def test_autoreset_on_the_next_step() -> None:
    env = MinesVectorEnv(64, rows=3, cols=3, mines=7, first_click="any")
    env.reset(seed=3)
    _, rewards, terminated, _, _ = env.step(np.zeros(64, dtype=np.int64))
    assert terminated.any()  # with 7 mines in 9 cells and no promise, some first clicks lose
    lost = np.flatnonzero(rewards == -1)
    assert terminated[lost].all()
    observations, rewards, terminated, truncated, info = env.step(np.full(64, 4))
    assert (observations[lost] == HIDDEN).all()  # a new board, and the action was not played
    assert (rewards[lost] == 0).all()
    assert not terminated[lost].any()
    assert not truncated[lost].any()
    assert info["action_mask"][lost].all()
    assert (info["status"][lost] == "IN_PROGRESS").all()


def test_truncation_then_autoreset() -> None:
    env = MinesVectorEnv(4, rows=9, cols=9, mines=10, flags=True, max_steps=3)
    env.reset(seed=0)
    flag = np.full(4, 81)
    for _ in range(2):
        _, _, terminated, truncated, _ = env.step(flag)
        assert not truncated.any()
    _, _, terminated, truncated, _ = env.step(flag)
    assert truncated.all()
    assert not terminated.any()
    observations, *_ = env.step(flag)
    assert (observations == HIDDEN).all()


def test_the_same_seed_gives_the_same_episodes() -> None:
    def play(seed: int) -> list[np.ndarray[Any, Any]]:
        env = MinesVectorEnv(32, rows=9, cols=9, mines=10)
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen: list[np.ndarray[Any, Any]] = []
        for _ in range(40):
            mask = info["action_mask"]
            observations, rewards, *_, info = env.step(
                np.argmax(rng.random(mask.shape) * mask, axis=1)
            )
            seen += [observations, rewards]
        return seen

    one, two, other = play(7), play(7), play(8)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(one, other, strict=True))


def test_placement_is_uniform_outside_the_kept_free_cells() -> None:
    boards = Boards(6000, 3, 4, 3, "opening")
    click = np.zeros(6000, dtype=np.intp)
    boards.reveal(np.arange(6000), click, click, np.random.default_rng(1))
    frequency = (boards.inner & 0x10).astype(bool).mean(axis=0)
    kept_free = np.zeros((3, 4), dtype=bool)
    kept_free[:2, :2] = True
    assert (frequency[kept_free] == 0).all()
    # 3 mines among the 8 other cells: each holds one 3/8 of the time (sd about 0.006 here).
    assert np.allclose(frequency[~kept_free], 3 / 8, atol=0.03)


def test_bad_options_and_actions() -> None:
    with pytest.raises(ValueError, match="no-guess boards need the single env"):
        MinesVectorEnv(2, first_click="noguess")
    with pytest.raises(ValueError, match="positive integer"):
        MinesVectorEnv(0)
    with pytest.raises(ValueError, match="mines must be from 0 to 80"):
        MinesVectorEnv(2, rows=9, cols=9, mines=81)
    with pytest.raises(ValueError, match="reward must be one of"):
        MinesVectorEnv(2, reward="dense")
    with pytest.raises(ValueError, match="does not render"):
        MinesVectorEnv(2, render_mode="rgb_array")
    env = MinesVectorEnv(2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="2 integers, one per board"):
        env.step(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="from 0 to 80"):
        env.step(np.array([0, 81]))


def test_same_step_autoreset() -> None:
    next_step = MinesVectorEnv(64, rows=3, cols=3, mines=7, first_click="any")
    same_step = MinesVectorEnv(
        64, rows=3, cols=3, mines=7, first_click="any", autoreset_mode="SameStep"
    )
    assert same_step.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    next_step.reset(seed=3)
    same_step.reset(seed=3)
    ended_obs, ended_rewards, ended, _, _ = next_step.step(np.zeros(64, dtype=np.int64))
    observations, rewards, terminated, _, info = same_step.step(np.zeros(64, dtype=np.int64))
    assert terminated.any()
    assert np.array_equal(terminated, ended)
    assert np.array_equal(rewards, ended_rewards)
    assert np.array_equal(info["_final_obs"], ended)
    assert np.array_equal(info["final_obs"][ended], ended_obs[ended])
    assert (info["final_info"]["status"][ended] != "IN_PROGRESS").all()
    assert (observations[ended] == HIDDEN).all()  # already the next board
    assert np.array_equal(observations[~ended], ended_obs[~ended])
    assert info["action_mask"][ended].all()
    assert (info["status"][ended] == "IN_PROGRESS").all()
    _, rewards, terminated, *_ = same_step.step(np.full(64, 4))
    assert (rewards[ended] != 0).all()  # the action was played on the new board at once
    with pytest.raises(ValueError, match="autoreset_mode must be 'NextStep' or 'SameStep'"):
        MinesVectorEnv(2, autoreset_mode="disabled")
