"""`MinesVecEnv`: the batched env as a stable-baselines3 `VecEnv`, so `MaskablePPO` trains on it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mines.extras import require_extra

require_extra("rl", "mines.gym.sb3")

# Only once stable-baselines3 is known to be there: without it, the line above names the extra.
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402
from stable_baselines3.common.vec_env.base_vec_env import (  # noqa: E402
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from mines.gym.vector import MinesVectorEnv  # noqa: E402
from mines.gym.wrappers import CODES, planes  # noqa: E402
from mines.status import GameStatus  # noqa: E402


class MinesVecEnv(VecEnv):
    """`num_envs` boards of `MinesVectorEnv` behind stable-baselines3's `VecEnv` interface.

    SB3 resets an env within the step that ends it, so the batched env runs with same-step
    autoreset; the info of a board whose episode ended holds its last observation
    (`terminal_observation`), `TimeLimit.truncated` and `is_success` (won), which SB3 logs
    as a success rate. `action_masks` is reachable as sb3-contrib's `MaskablePPO` looks for
    it (`env_method("action_masks")`). Observations are one 0/1 plane per code
    (`mines.gym.wrappers.planes`), or the env's own int8 codes with `one_hot=False`. Other
    keyword arguments are the envs' options.

    >>> from sb3_contrib import MaskablePPO
    >>> env = MinesVecEnv(8, rows=4, cols=4, mines=2)
    >>> model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, seed=0)
    >>> model = model.learn(256)
    >>> env.observation_space.shape, env.action_masks().shape
    ((12, 4, 4), (8, 16))
    """

    def __init__(self, num_envs: int, *, one_hot: bool = True, **options: Any):
        self.env = MinesVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **options)
        self.one_hot = one_hot
        rows, cols = self.env.rows, self.env.cols
        space: gymnasium.Space[Any] = self.env.single_observation_space
        if one_hot:
            space = spaces.Box(0.0, 1.0, (CODES.size, rows, cols), np.float32)
        super().__init__(num_envs, space, self.env.single_action_space)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._masks = self.env.action_masks()

    def _observe(self, observations: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
        return planes(observations) if self.one_hot else observations

    def reset(self) -> VecEnvObs:
        seed = self._seeds[0]
        observations, info = self.env.reset(seed=seed)
        self._reset_seeds()
        self._masks = info["action_mask"]
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._observe(observations)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._masks = info["action_mask"]
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            final = info["final_info"]["status"]
            for board in np.flatnonzero(done).tolist():
                infos[board] = {
                    "terminal_observation": self._observe(info["final_obs"][board]),
                    "TimeLimit.truncated": bool(truncated[board] and not terminated[board]),
                    "is_success": final[board] == GameStatus.WON.value,
                }
        return self._observe(observations), rewards, done, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, actions): which actions each board allows now."""
        masks: npt.NDArray[np.bool_] = self._masks.astype(bool)
        return masks

    def close(self) -> None:
        self.env.close()

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.env, attr_name)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.env, attr_name)] * len(self._boards(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the batched env has no per-board method {method_name!r}")
        return list(self.action_masks()[self._boards(indices)])

    def env_is_wrapped(
        self,
        wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
        indices: VecEnvIndices = None,
    ) -> list[bool]:
        return [False] * len(self._boards(indices))

    def _boards(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices) if isinstance(indices, Iterable) else [int(indices)]
