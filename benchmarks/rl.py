"""RL benchmark: MaskablePPO learns 6x6 boards with 5 mines within a time budget.

Measured against the masked random agent and the solver's Bot on the same env.

Run with `./dev bench rl` once the training stack is installed (it is not in `./dev test`):
`.venv/bin/pip install torch==2.13.0` (a CPU build; elsewhere take one from
https://download.pytorch.org/whl/cpu), then `.venv/bin/pip install -e '.[rl]'`.
Training is CPU-heavy: on a shared machine run it under `nice -n 10`. It prints the figures and
draws the learning curve to docs/rl-learning-curve.png.
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from mines.gym import MinesEnv, MinesVectorEnv
from mines.gym.agents import BotAgent, EpisodeStats, RandomAgent, evaluate
from mines.gym.encoding import Observation
from mines.gym.wrappers import OneHotObservation, Planes, planes

MISSING = """the training stack is not installed; it stays out of ./dev test because torch is large:
  .venv/bin/pip install torch==2.13.0      # a CPU build (elsewhere: --index-url https://download.pytorch.org/whl/cpu)
  .venv/bin/pip install -e '.[rl]'         # sb3-contrib, stable-baselines3, matplotlib"""


def batched_vec_env(vec_env: Any, num_envs: int, board: tuple[int, int, int], seed: int) -> Any:
    """`MinesVectorEnv` as a stable-baselines3 `VecEnv`, with one-hot observations.

    SB3 resets a finished env within the step that ends it, so the batched env runs with
    same-step autoreset; SB3 also wants one dict of info per env, which only the boards whose
    episode ended fill (with their last observation).
    """

    class MinesVecEnv(vec_env.VecEnv):  # type: ignore[misc]  # SB3 is loaded by name
        def __init__(self) -> None:
            self.env = MinesVectorEnv(num_envs, *board, autoreset_mode=AutoresetMode.SAME_STEP)
            single = OneHotObservation(MinesEnv(*board)).observation_space
            super().__init__(num_envs, single, self.env.single_action_space)
            self._seed: int | None = seed
            self._actions = np.zeros(num_envs, dtype=np.int64)
            self._masks = np.ones((num_envs, board[0] * board[1]), dtype=np.int8)

        def reset(self) -> Planes:
            observations, info = self.env.reset(seed=self._seed)
            self._seed = None
            self._masks = info["action_mask"]
            return planes(observations)

        def step_async(self, actions: npt.NDArray[np.int64]) -> None:
            self._actions = np.asarray(actions, dtype=np.int64)

        def step_wait(self) -> tuple[Planes, Any, Any, list[dict[str, Any]]]:
            observations, rewards, terminated, truncated, info = self.env.step(self._actions)
            self._masks = info["action_mask"]
            done = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
            for board in np.flatnonzero(done).tolist():
                infos[board] = {
                    "terminal_observation": planes(info["final_obs"][board]),
                    "TimeLimit.truncated": bool(truncated[board] and not terminated[board]),
                }
            return planes(observations), rewards, done, infos

        def _chosen(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

        def has_attr(self, attr_name: str) -> bool:
            return attr_name == "action_masks" or hasattr(self.env, attr_name)

        def env_method(self, name: str, *args: Any, indices: Any = None, **kw: Any) -> list[Any]:
            if name != "action_masks":
                raise AttributeError(f"the batched env has no per-board method {name!r}")
            return list(self._masks[self._chosen(indices)])

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(self.env, attr_name)] * len(self._chosen(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self.env, attr_name, value)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * len(self._chosen(indices))

        def close(self) -> None:
            self.env.close()

    return MinesVecEnv()


class PolicyAgent:
    """A trained policy as an `Agent` of `mines.gym.agents`: the likeliest allowed action."""

    def __init__(self, model: Any):
        self.model = model

    def reset(self) -> None:
        pass

    def act(self, observation: Observation, info: dict[str, Any]) -> int:
        action, _ = self.model.predict(
            planes(observation), action_masks=info["action_mask"].astype(bool), deterministic=True
        )
        return int(action)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=12.0, help="training time budget")
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--cols", type=int, default=6)
    parser.add_argument("--mines", type=int, default=5)
    parser.add_argument("--envs", type=int, default=64, help="boards stepped side by side")
    parser.add_argument(
        "--single",
        action="store_true",
        help="train on --envs single envs in SB3's DummyVecEnv instead of the batched env",
    )
    parser.add_argument("--eval-every", type=int, default=25_000, help="timesteps between evals")
    parser.add_argument("--eval-episodes", type=int, default=500)
    parser.add_argument("--final-episodes", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path("docs/rl-learning-curve.png"))
    args = parser.parse_args()
    try:
        # Loaded by name: the training stack is optional, and mypy --strict should give the same
        # answer whether it is installed or not.
        sb3 = importlib.import_module("sb3_contrib")
        vec_env = importlib.import_module("stable_baselines3.common.vec_env")
        torch = importlib.import_module("torch")
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        print(MISSING)
        return 2
    matplotlib.use("Agg")
    pyplot = importlib.import_module("matplotlib.pyplot")
    torch.set_num_threads(args.threads)
    board = {"rows": args.rows, "cols": args.cols, "mines": args.mines}
    label = f"{args.rows}x{args.cols}, {args.mines} mines"

    random_stats = evaluate(MinesEnv(**board), RandomAgent(args.seed), args.final_episodes)
    print(f"masked random agent, {label}: {random_stats}", flush=True)
    bot_stats = evaluate(MinesEnv(**board), BotAgent(args.mines), args.final_episodes)
    print(f"solver's Bot, {label}: {bot_stats}", flush=True)

    if args.single:
        envs = vec_env.DummyVecEnv(
            [lambda: OneHotObservation(MinesEnv(**board)) for _ in range(args.envs)]
        )
    else:
        envs = batched_vec_env(vec_env, args.envs, (args.rows, args.cols, args.mines), args.seed)
    model = sb3.MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=max(4096 // args.envs, 16),  # about 4,096 steps per update
        batch_size=512,
        n_epochs=5,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    curve: list[tuple[int, float, float]] = []
    start = time.monotonic()
    deadline = start + args.minutes * 60
    next_eval = 0

    def measure(timesteps: int, episodes: int) -> EpisodeStats:
        stats = evaluate(MinesEnv(**board), PolicyAgent(model), episodes, seed=10_000 + timesteps)
        curve.append((timesteps, stats.win_rate, stats.mean_reward))
        minutes = (time.monotonic() - start) / 60
        print(f"{timesteps:>9,} steps, {minutes:5.1f} min: {stats}", flush=True)
        return stats

    def on_step(local: dict[str, Any], _: dict[str, Any]) -> bool:
        nonlocal next_eval
        timesteps = int(local["self"].num_timesteps)
        if timesteps >= next_eval:
            measure(timesteps, args.eval_episodes)
            next_eval = timesteps + args.eval_every
        return bool(time.monotonic() < deadline)

    model.learn(total_timesteps=10**9, callback=on_step)
    final = measure(int(model.num_timesteps), args.final_episodes)
    minutes = (time.monotonic() - start) / 60
    print(
        f"MaskablePPO after {model.num_timesteps:,} steps in {minutes:.1f} min: {final}\n"
        f"random: {random_stats.win_rate:.1%} won, Bot: {bot_stats.win_rate:.1%} won",
        flush=True,
    )

    figure, axis = pyplot.subplots(figsize=(7, 4), dpi=100)
    steps, wins = [c[0] for c in curve], [100 * c[1] for c in curve]
    axis.plot(steps, wins, marker="o", markersize=3, label="MaskablePPO (greedy, masked)")
    axis.axhline(100 * bot_stats.win_rate, color="green", linestyle="--", label="solver's Bot")
    axis.axhline(100 * random_stats.win_rate, color="red", linestyle=":", label="masked random")
    axis.set_xlabel("training steps")
    axis.set_ylabel("games won (%)")
    axis.set_ylim(0, 100)
    axis.set_title(f"mines/Minesweeper-v0, {label}, first click opens")
    axis.legend(loc="center right")
    axis.grid(alpha=0.3)
    figure.tight_layout()
    args.plot.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.plot)
    print(f"learning curve: {args.plot}")
    return 0 if final.win_rate > random_stats.win_rate else 1


if __name__ == "__main__":
    raise SystemExit(main())
