"""`MinesVectorEnv`: N boards stepped together by array operations, Gymnasium's `VectorEnv` API."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mines.gym.batch import IN_PROGRESS, LOST, WON, Boards, Indices, statuses
from mines.gym.encoding import Mask, Options, RewardScheme, observation_space, rewards
from mines.placement import PlacementRule

Observations = npt.NDArray[np.int8]
Actions = npt.NDArray[np.integer[Any]]
Flags = npt.NDArray[np.bool_]

RESET_OPTIONS = ("reset_mask", "layouts")
"""The keys `MinesVectorEnv.reset` takes in `options`; any other is refused."""
AUTORESET_MODES = {mode.value: mode for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)}


class MinesVectorEnv(VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """`num_envs` boards of `MinesEnv`, with the same observations, actions, rewards and options.

    The whole batch is one (num_envs, rows + 2, cols + 2) byte array (`Boards`); a step opens
    or flags one cell on every board with array operations, floods all boards together and
    never loops over boards. Board `b` draws its layouts from a stream of its own, named by
    its seed, `b` and its episode (`mines.gym.streams`), so its boards never depend on the
    other boards or on the actions taken (except, as the rule promises, the first click's).

    An episode ends when the game is won or lost (terminated) or after `max_steps` steps
    (truncated); either way the board's game is over for the agent: its mask is all zero, and
    the next step autoresets it. Autoreset is Gymnasium's default, "next step": the step after
    an end resets the board, ignores its action, and returns the new board with reward 0.
    With `autoreset_mode="SameStep"` the step that ends an episode returns the new board at
    once, and the ended one in `info["final_obs"]` and `info["final_info"]`, exactly as
    Gymnasium's `SyncVectorEnv` gives them. `reset(options={"reset_mask": mask})` resets only
    the boards `mask` marks. `info` holds each board's `action_mask` and `status`; nothing in
    it tells where mines are. Placement rules: "opening", "safe" or "any".

    >>> env = MinesVectorEnv(3, rows=4, cols=4, mines=2, max_steps=1)
    >>> observations, info = env.reset(seed=7)
    >>> observations.shape, info["action_mask"].shape
    ((3, 4, 4), (3, 16))
    >>> observations, rewards, terminated, truncated, info = env.step(np.array([0, 5, 15]))
    >>> truncated | terminated
    array([ True,  True,  True])
    >>> int(info["action_mask"].sum())
    0
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": [],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        *,
        preset: str | None = None,
        first_click: str = PlacementRule.OPENING,
        flags: bool = False,
        reward: RewardScheme | str = RewardScheme.PROGRESS,
        max_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ):
        options = Options.check(
            rows,
            cols,
            mines,
            preset=preset,
            first_click=first_click,
            flags=flags,
            reward=reward,
            max_steps=max_steps,
        )
        if render_mode is not None:
            raise ValueError(
                f"the batched env does not render (got render_mode={render_mode!r}); "
                "render a single env: gymnasium.make(..., render_mode='rgb_array')"
            )
        self.rows, self.cols, self.mines = options.rows, options.cols, options.mines
        self.boards = Boards(num_envs, self.rows, self.cols, self.mines, first_click)
        self.num_envs = num_envs
        mode = AUTORESET_MODES.get(getattr(autoreset_mode, "value", autoreset_mode))
        if mode is None:
            allowed = " or ".join(map(repr, AUTORESET_MODES))
            raise ValueError(f"autoreset_mode must be {allowed}, got {autoreset_mode!r}")
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.flags = flags
        self.reward_scheme, self.max_steps = options.reward, options.max_steps
        self.render_mode = render_mode
        self.single_observation_space = observation_space(self.rows, self.cols)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._actions = options.actions
        self.single_action_space = spaces.Discrete(self._actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._cells = self.rows * self.cols
        self._steps = np.zeros(num_envs, dtype=np.int32)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._seeded = False
        self._everyone = np.ones(num_envs, dtype=bool)

    def action_masks(self) -> Mask:
        """(num_envs, actions): 1 for each action that changes its board now."""
        playing = (self.boards.status == IN_PROGRESS) & ~self._ended
        return self.boards.masks(self.flags, playing)

    def _info(self, boards: Flags) -> dict[str, Any]:
        """Each board's info, as `SyncVectorEnv` gathers its envs' infos: the values of the
        boards in `boards` (zero or None elsewhere) and, under `_key`, which boards those are."""
        masks, status = self.action_masks(), statuses(self.boards.status)
        if not boards.all():
            masks[~boards] = 0
            status[~boards] = None
        return {
            "action_mask": masks,
            "_action_mask": boards.copy(),
            "status": status,
            "_status": boards.copy(),
        }

    def _start(self, boards: Indices | Flags) -> None:
        """Start the next episode of these boards (their stream's next layout)."""
        self.boards.clear(boards)
        self.boards.episodes[boards] += 1
        self._steps[boards] = 0
        self._ended[boards] = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Start new episodes: on every board, or on those `options["reset_mask"]` marks.

        With a `seed`, the boards reset start their streams again from that seed (board `b`
        then plays the layouts of (seed, b, 0), (seed, b, 1), ...); without one, each goes on
        to its stream's next episode (the first reset of an env never seeded draws a seed).
        `options["layouts"]`, a (num_envs, rows, cols) boolean array of mines, lays each
        reset board's given layout for this episode instead, played as given (the first
        click may hit a mine); later episodes come from the streams again. Any other option
        is refused with a `ValueError`.
        """
        unknown = sorted(set(options or {}) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(
                f"MinesVectorEnv.reset takes the options {list(RESET_OPTIONS)}, "
                f"got unknown {unknown}"
            )
        layouts = self._layouts(options)
        super().reset(seed=seed)
        chosen = self._reset_mask(options)
        if seed is not None or not self._seeded:
            base = seed if seed is not None else int(self.np_random.integers(2**63))
            self.boards.seeds[chosen] = np.uint64(base)
            self.boards.episodes[chosen] = -1
            self._seeded = True
        self._start(chosen)
        if layouts is not None:
            boards = np.flatnonzero(chosen)
            self.boards.lay(boards, layouts[boards])
        return self.boards.observe(), self._info(chosen)

    def _layouts(self, options: dict[str, Any] | None) -> Flags | None:
        """`options["layouts"]`, checked: one layout of `mines` mines per board."""
        if not options or "layouts" not in options:
            return None
        layouts = np.asarray(options["layouts"])
        shape = (self.num_envs, self.rows, self.cols)
        if layouts.shape != shape or layouts.dtype != np.bool_:
            raise ValueError(
                f"`options['layouts']` must be a boolean array of shape {shape} (True for a "
                f"mine), got {layouts.dtype} of shape {layouts.shape}"
            )
        counts = layouts.reshape(self.num_envs, -1).sum(axis=1)
        wrong = np.flatnonzero(counts != self.mines)
        if wrong.size:
            raise ValueError(
                f"every layout must hold the board's {self.mines} mines; board {wrong[0]} "
                f"has {counts[wrong[0]]}"
            )
        return layouts

    def _reset_mask(self, options: dict[str, Any] | None) -> Flags:
        """The boards a reset is for, checked as `SyncVectorEnv` checks `reset_mask`."""
        if not options or "reset_mask" not in options:
            return self._everyone
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
        if mask.shape != (self.num_envs,):
            raise ValueError(
                f"`options['reset_mask']` must have shape `({self.num_envs},)`, got {mask.shape}"
            )
        if mask.dtype != np.bool_:
            raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
        if not mask.any():
            raise ValueError(
                "`options['reset_mask']` must contain a boolean array with at least one True "
                f"value, got reset_mask={mask}"
            )
        return mask.copy()

    def step(
        self, actions: Actions
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, one per board, got an array of "
                f"shape {actions.shape} and dtype {actions.dtype}"
            )
        limit = self._actions
        if actions.min() < 0 or actions.max() >= limit:
            raise ValueError(f"every action must be from 0 to {limit - 1}")
        boards = self.boards
        restart = self._ended.copy()
        if restart.any():
            self._start(restart)
        opened_before = boards.opened.copy()
        playing = ~restart & (boards.status == IN_PROGRESS)
        flag, cell = np.divmod(actions.astype(np.intp), self._cells)
        rows, cols = np.divmod(cell, self.cols)
        wasted = np.zeros(self.num_envs, dtype=bool)
        opening = np.flatnonzero(playing & (flag == 0))
        wasted[opening] = boards.reveal(opening, rows[opening], cols[opening])
        flagging = np.flatnonzero(playing & (flag == 1))
        wasted[flagging] = boards.toggle_flag(flagging, rows[flagging], cols[flagging])
        self._steps[playing] += 1
        won, lost = boards.status == WON, boards.status == LOST
        reward = rewards(
            self.reward_scheme,
            opened=np.where(lost, 0, boards.opened - opened_before),
            safe_cells=boards.safe_cells,
            won=won,
            lost=lost,
            wasted=wasted,
        )
        terminated = playing & (won | lost)
        truncated = playing & ~terminated & (self._steps >= self.max_steps)
        self._ended = terminated | truncated
        observations = boards.observe()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP or not self._ended.any():
            return observations, reward, terminated, truncated, self._info(self._everyone)
        # Same step: what SyncVectorEnv gives, the ended boards' last observation and info
        # (each as its own entry, None for the others), then every board's info as it is now.
        ended = self._ended.copy()
        final_obs = np.full(self.num_envs, None, dtype=object)
        for board, last in zip(np.flatnonzero(ended).tolist(), observations[ended], strict=True):
            final_obs[board] = last  # one object each: numpy would make a list of arrays one array
        final_info = self._info(ended)
        self._start(ended)
        observations[ended] = boards.observe()[ended]
        info = {
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended.copy(),
            **self._info(self._everyone),
        }
        return observations, reward, terminated, truncated, info
