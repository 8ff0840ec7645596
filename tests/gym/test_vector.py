"""The batched env: the same games as `Game` move for move, the vector API, autoreset, seeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed")

from mines import Game, RandomPlacer  # noqa: E402
from mines.gym import ENV_ID, HIDDEN, MinesEnv, MinesVectorEnv  # noqa: E402
from mines.gym.batch import Boards, Indices  # noqa: E402
from mines.gym.encoding import action_count  # noqa: E402
from mines.placement import CoordArray  # noqa: E402


class RecordingBoards(Boards):
    """The batched env's boards as they are, keeping the last layout each board was dealt."""

    def __init__(self, vector: MinesVectorEnv, rule: str):
        super().__init__(vector.num_envs, vector.rows, vector.cols, vector.mines, rule)
        self.laid: dict[int, CoordArray] = {}

    def lay(self, boards: Indices, layout: np.ndarray[Any, Any]) -> None:
        super().lay(boards, layout)
        for j, board in enumerate(boards.tolist()):
            self.laid[board] = np.argwhere(layout[j]).astype(np.int64)


class LayoutPlacer:
    """Gives a `Game` the mines one board of the batched env got, once it checked the first
    click: the same click, and a layout that keeps free what `RandomPlacer`'s rule keeps free."""

    def __init__(self, boards: RecordingBoards, board: int, rule: str, clicks: dict[int, int]):
        self.boards, self.board, self.rule, self.clicks = boards, board, rule, clicks

    @property
    def seed(self) -> None:
        return None

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        assert first_click == divmod(self.clicks[self.board], cols)
        positions = self.boards.laid.pop(self.board)
        keep_free = RandomPlacer(0, self.rule).excluded_cells(rows, cols, mines, first_click)
        assert not {(int(r), int(c)) for r, c in positions.tolist()} & set(keep_free)
        return positions


def recorded(vector: MinesVectorEnv, rule: str) -> RecordingBoards:
    """Let the batched env record its layouts; returns its boards."""
    vector.boards = RecordingBoards(vector, rule)
    return vector.boards


class GameEnv(MinesEnv):
    """The single env, whose `Game`s take their layouts from one board of the batched env."""

    def __init__(self, placer: LayoutPlacer, **options: Any):
        self.placer = placer
        super().__init__(**options)

    def _new_game(self, seed: int) -> Game:
        if not hasattr(self, "placer"):
            return super()._new_game(seed)
        return Game(self.rows, self.cols, self.mines, placer=self.placer)


class GameBoards(Boards):
    """The batched env's boards, each laid as the `Game` of one single env lays its own (by
    `RandomPlacer` and the rule), once checked against the cells the batched env's own rule
    keeps free for that click."""

    def __init__(
        self, singles: Sequence[MinesEnv], clicks: dict[int, int], vector: MinesVectorEnv, rule: str
    ):
        super().__init__(vector.num_envs, vector.rows, vector.cols, vector.mines, rule)
        self.singles, self.clicks = singles, clicks

    def draw(self, boards: Indices, excluded: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        layouts = np.zeros(excluded.shape, dtype=bool)
        for j, board in enumerate(boards.tolist()):
            click = divmod(self.clicks[board], self.cols)
            game = self.singles[board]._game
            positions = game.placer.place(self.rows, self.cols, self.mines, click)
            layouts[j][tuple(positions.T)] = True
            assert not (layouts[j] & excluded[j]).any(), f"board {board}: a mine kept free"
        return layouts


BOARDS = [
    {"rows": 9, "cols": 9, "mines": 10},
    {"rows": 9, "cols": 9, "mines": 10, "flags": True},
    {"rows": 6, "cols": 6, "mines": 5, "first_click": "safe", "flags": True, "reward": "sparse"},
    {"rows": 5, "cols": 5, "mines": 12, "first_click": "safe"},
    {"rows": 4, "cols": 5, "mines": 12, "first_click": "any", "flags": True},
    {"rows": 1, "cols": 12, "mines": 2, "max_steps": 5},
    {"rows": 3, "cols": 3, "mines": 8},  # too dense for an opening: only the click is kept free
    {"rows": 5, "cols": 7, "mines": 0, "first_click": "any", "flags": True},
    {"rows": 16, "cols": 30, "mines": 99, "flags": True, "max_steps": 60},
]
"""Every first-click rule, flags or not, both reward schemes, truncation, dense and empty."""


@pytest.mark.parametrize("direction", ["batched-to-game", "game-to-batched"])
@pytest.mark.parametrize("options", BOARDS, ids=lambda o: "-".join(map(str, o.values())))
def test_batched_boards_play_exactly_as_games(options: dict[str, Any], direction: str) -> None:
    """Both ways: the batched env's own layouts replayed through `Game`s, whose placer checks
    them against `RandomPlacer`'s rule; and `Game`s' layouts (drawn by `RandomPlacer`) laid
    on the batched boards, checked against the batched env's rule. Then the same actions on
    both, compared in everything an agent sees."""
    boards = 12
    vector = MinesVectorEnv(boards, **options)
    clicks: dict[int, int] = {}
    rule = options.get("first_click", "opening")
    singles: list[MinesEnv]
    if direction == "batched-to-game":
        laid = recorded(vector, rule)
        singles = [GameEnv(LayoutPlacer(laid, i, rule, clicks), **options) for i in range(boards)]
    else:
        singles = [MinesEnv(**options) for _ in range(boards)]
        vector.boards = GameBoards(singles, clicks, vector, rule)
    observations, info = vector.reset(seed=5)
    for i, single in enumerate(singles):
        observation, single_info = single.reset(seed=100 + i)
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


def test_truncation_ends_the_game_for_the_agent() -> None:
    env = MinesVectorEnv(4, rows=9, cols=9, mines=10, flags=True, max_steps=3)
    env.reset(seed=0)
    flag = np.full(4, 81)
    for _ in range(2):
        _, _, terminated, truncated, info = env.step(flag)
        assert not truncated.any()
        assert (info["action_mask"].sum(axis=1) >= 161).all()  # all but opening a flag
    _, _, terminated, truncated, info = env.step(flag)
    assert truncated.all()
    assert not terminated.any()
    assert not info["action_mask"].any()  # over for the agent: nothing is allowed any more
    assert (info["status"] == "IN_PROGRESS").all()  # neither won nor lost
    observations, rewards, terminated, truncated, info = env.step(flag)  # the autoreset step
    assert (observations == HIDDEN).all()
    assert not rewards.any()
    assert not terminated.any()
    assert not truncated.any()
    assert info["action_mask"].all()


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
    boards.seeds[:] = 1
    click = np.zeros(6000, dtype=np.intp)
    boards.reveal(np.arange(6000), click, click)
    frequency = (boards.inner & 0x10).astype(bool).mean(axis=0)
    kept_free = np.zeros((3, 4), dtype=bool)
    kept_free[:2, :2] = True
    assert (frequency[kept_free] == 0).all()
    # 3 mines among the 8 other cells: each holds one 3/8 of the time (sd about 0.006 here).
    assert np.allclose(frequency[~kept_free], 3 / 8, atol=0.03)


def _layouts_of_board_three(num_envs: int, others_seed: int) -> list[list[tuple[int, int]]]:
    """Board 3's layouts over its first episodes, its own actions fixed, the others' random
    (so it is placed alone or among others, first or later among them)."""
    env = MinesVectorEnv(num_envs, rows=6, cols=6, mines=5)
    _, info = env.reset(seed=21)
    mine, others = np.random.default_rng(0), np.random.default_rng(others_seed)
    layouts: list[list[tuple[int, int]]] = []
    while len(layouts) < 8:
        mask = info["action_mask"]
        actions = np.argmax(others.random(mask.shape) * mask, axis=1)
        actions[3] = np.argmax(mine.random(mask.shape[1]) * mask[3])
        _, _, terminated, truncated, info = env.step(actions)
        if terminated[3] or truncated[3]:
            layouts.append([(int(r), int(c)) for r, c in env.boards.layout(3).tolist()])
    return layouts


def test_each_board_draws_its_layouts_from_its_own_stream() -> None:
    alone = _layouts_of_board_three(4, 0)
    assert len({tuple(layout) for layout in alone}) == 8
    assert _layouts_of_board_three(16, 1) == alone  # whatever the other boards do,
    assert _layouts_of_board_three(16, 2) == alone
    assert _layouts_of_board_three(5, 3) == alone  # and however many there are
    other_seed = MinesVectorEnv(4, rows=6, cols=6, mines=5)
    other_seed.reset(seed=22)
    other_seed.step(np.zeros(4, dtype=np.int64))
    assert other_seed.boards.layout(3).tolist() != alone[0]


def test_a_reset_without_a_seed_goes_on_to_each_boards_next_episode() -> None:
    first, second = MinesVectorEnv(3, rows=5, cols=5, mines=4), MinesVectorEnv(3, 5, 5, 4)
    first.reset(seed=9)
    second.reset(seed=9)
    first.step(np.zeros(3, dtype=np.int64))
    first.reset()  # each board's second episode, as an autoreset would start it
    assert (first.boards.episodes == 1).all()
    second.step(np.zeros(3, dtype=np.int64))
    second.reset(options={"reset_mask": np.array([True, False, True])})
    assert second.boards.episodes.tolist() == [1, 0, 1]
    first.step(np.zeros(3, dtype=np.int64))
    second.step(np.zeros(3, dtype=np.int64))
    for board in (0, 2):
        assert np.array_equal(first.boards.layout(board), second.boards.layout(board))


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
    assert np.array_equal(np.stack(info["final_obs"][ended]), ended_obs[ended])
    assert (info["final_obs"][~ended] == None).all()  # noqa: E711  (an object array)
    assert np.array_equal(info["_final_info"], ended)
    assert not info["final_info"]["action_mask"].any()
    assert (info["final_info"]["status"][ended] != "IN_PROGRESS").all()
    assert (observations[ended] == HIDDEN).all()  # already the next board
    assert np.array_equal(observations[~ended], ended_obs[~ended])
    assert info["action_mask"][ended].all()
    assert (info["status"][ended] == "IN_PROGRESS").all()
    _, rewards, terminated, *_ = same_step.step(np.full(64, 4))
    assert (rewards[ended] != 0).all()  # the action was played on the new board at once
    with pytest.raises(ValueError, match="autoreset_mode must be 'NextStep' or 'SameStep'"):
        MinesVectorEnv(2, autoreset_mode="disabled")


def _same(batched: Any, synced: Any, where: str) -> None:
    """Equal as `SyncVectorEnv` gives it: the same keys, dtypes, shapes and values."""
    if isinstance(synced, dict):
        # A batched board has no game ID (its layout comes from its stream, not from a seed).
        synced = {k: v for k, v in synced.items() if k not in ("game_id", "_game_id")}
        assert sorted(batched) == sorted(synced), where
        for key in synced:
            _same(batched[key], synced[key], f"{where}[{key!r}]")
        return
    assert isinstance(batched, np.ndarray), where
    assert (batched.dtype, batched.shape) == (synced.dtype, synced.shape), where
    if synced.dtype == object:
        for one, other in zip(batched, synced, strict=True):
            assert (one is None) == (other is None), where
            assert one is None or np.array_equal(one, other), where
    else:
        assert np.array_equal(batched, synced), where


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_autoreset_info_is_what_sync_vector_env_gives(mode: str) -> None:
    """The same boards in `SyncVectorEnv` (single envs on the batched env's layouts) and in the
    batched env, the same actions and masked resets: the same observations, rewards, ends and
    info, `final_obs`, `final_info` and `_final_info` included, key for key."""
    options: dict[str, Any] = {"rows": 3, "cols": 4, "mines": 4, "flags": True, "max_steps": 4}
    options["first_click"] = "any"
    boards = 8
    vector = MinesVectorEnv(boards, **options, autoreset_mode=mode)
    clicks: dict[int, int] = {}
    laid = recorded(vector, "any")

    def single(i: int) -> Any:
        return lambda: GameEnv(LayoutPlacer(laid, i, "any", clicks), **options)

    synced = gymnasium.vector.SyncVectorEnv(
        [single(i) for i in range(boards)], autoreset_mode=gymnasium.vector.AutoresetMode(mode)
    )
    got, want = vector.reset(seed=3), synced.reset(seed=3)
    _same(got[0], want[0], "reset observations")
    _same(got[1], want[1], "reset info")
    rng = np.random.default_rng(5)
    ends = 0
    for step in range(120):
        if step % 17 == 16:
            reset_mask = rng.random(boards) < 0.5
            reset_mask[0] = True
            got, want = (
                env.reset(options={"reset_mask": reset_mask.copy()}) for env in (vector, synced)
            )
            _same(got[0], want[0], f"observations after a masked reset, step {step}")
            _same(got[1], want[1], f"info after a masked reset, step {step}")
        actions = rng.integers(2 * 12, size=boards)
        clicks.clear()
        clicks.update((i, int(a) % 12) for i, a in enumerate(actions))
        got_step, want_step = vector.step(actions), synced.step(actions)
        names = ("observations", "rewards", "terminated", "truncated")
        for name, one, other in zip(names, got_step[:4], want_step[:4], strict=True):
            assert np.array_equal(np.asarray(one), np.asarray(other)), f"{name}, step {step}"
        _same(got_step[4], want_step[4], f"info, step {step}")
        ends += int((got_step[2] | got_step[3]).sum())
    assert ends > 50


def test_reset_mask_resets_only_the_boards_it_marks() -> None:
    env = MinesVectorEnv(4, rows=5, cols=5, mines=3)
    env.reset(seed=0)
    before, *_ = env.step(np.array([12, 12, 12, 12]))
    mask = np.array([False, True, False, True])
    observations, info = env.reset(options={"reset_mask": mask})
    assert np.array_equal(observations[~mask], before[~mask])
    assert (observations[mask] == HIDDEN).all()
    assert np.array_equal(info["_action_mask"], mask)
    assert not info["action_mask"][~mask].any()
    assert info["action_mask"][mask].all()
    assert info["status"].tolist() == [None, "IN_PROGRESS", None, "IN_PROGRESS"]
    for bad, error, match in [
        ([True] * 4, TypeError, "must be a numpy array"),
        (np.ones(3, dtype=bool), ValueError, "must have shape"),
        (np.ones(4, dtype=np.int8), TypeError, "dtype=np.bool_"),
        (np.zeros(4, dtype=bool), ValueError, "at least one True"),
    ]:
        with pytest.raises(error, match=match):
            env.reset(options={"reset_mask": bad})


def test_reset_refuses_unknown_options() -> None:
    env = MinesVectorEnv(2, rows=4, cols=4, mines=2)
    with pytest.raises(ValueError, match=r"got unknown \['layout'\]"):
        env.reset(options={"layout": [(0, 0)]})


def test_reset_lays_given_layouts_for_one_episode() -> None:
    env = MinesVectorEnv(2, rows=3, cols=3, mines=2)
    layouts = np.zeros((2, 3, 3), dtype=bool)
    layouts[:, 0, 0] = layouts[:, 2, 2] = True
    env.reset(seed=0, options={"layouts": layouts})
    assert [env.boards.layout(b).tolist() for b in (0, 1)] == [[[0, 0], [2, 2]]] * 2
    _, _, terminated, _, info = env.step(np.array([0, 2]))
    assert terminated.tolist() == [True, False]
    assert info["status"].tolist() == ["LOST", "IN_PROGRESS"]
    env.step(np.array([0, 1]))  # board 0 autoresets: its next layout comes from its stream
    assert not env.boards.started[0]
