"""Gym benchmark: the batched env's steps per second against SyncVectorEnv's, in one run.

Each env plays masked random actions on Beginner boards.

Run with `./dev bench gym`. The target is a ratio measured here and now: the batched env steps
1,024 boards at least 20 times faster than SyncVectorEnv steps 1,024 single envs, in every
repeat. Also printed: the single env's rate, the batched env at 16,384 boards, bytes per board.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from typing import Any

import gymnasium
import numpy as np

from benchmarks.checks import Checks
from mines.gym import ENV_ID, MinesEnv
from mines.gym.agents import masked_random


def single_rate(seconds: float) -> float:
    """Board-steps per second of one `MinesEnv` (resets included), for about `seconds`."""
    env = MinesEnv(preset="beginner")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            action = int(masked_random(rng, info["action_mask"]))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
        steps += 100
    return steps / (time.perf_counter() - start)


def vector_rate(env: Any, steps: int) -> float:
    """Board-steps per second of a vector env (autoreset included) over `steps` steps."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(3):  # warm up: the first steps of a fresh batch are all first clicks
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    start = time.perf_counter()
    for _ in range(steps):
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    return float(env.num_envs * steps / (time.perf_counter() - start))


def batched(num_envs: int) -> Any:
    return gymnasium.make_vec(
        ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", preset="beginner"
    )


def synced(num_envs: int) -> Any:
    return gymnasium.make_vec(
        ENV_ID, num_envs=num_envs, vectorization_mode="sync", preset="beginner"
    )


def bytes_per_board(num_envs: int) -> tuple[float, float]:
    """(state bytes per board, peak bytes per board while stepping, state included)."""
    tracemalloc.start()
    env = batched(num_envs)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    tracemalloc.reset_peak()
    for _ in range(20):
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    state = env.unwrapped.boards.nbytes + env.unwrapped._steps.nbytes + env.unwrapped._ended.nbytes
    return state / num_envs, peak / num_envs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each case")
    args = parser.parse_args()
    checks = Checks()

    single = statistics.median(single_rate(2.0) for _ in range(args.repeats))
    print(f"single env (MinesEnv, Beginner): {single:,.0f} steps/s", flush=True)

    sync_env, batch_env = synced(1024), batched(1024)
    ratios, sync_rates, batch_rates = [], [], []
    for _ in range(args.repeats):
        sync_rates.append(vector_rate(sync_env, 10))
        batch_rates.append(vector_rate(batch_env, 300))
        ratios.append(batch_rates[-1] / sync_rates[-1])
    checks.report(
        "batched env vs SyncVectorEnv, 1,024 Beginner boards",
        min(ratios) >= 20,
        f"{statistics.median(batch_rates):,.0f} vs {statistics.median(sync_rates):,.0f} "
        f"board-steps/s, {min(ratios):.0f}x to {max(ratios):.0f}x over {args.repeats} repeats "
        "(target >= 20x in every repeat)",
    )

    big = batched(16_384)
    rate = statistics.median(vector_rate(big, 40) for _ in range(args.repeats))
    print(f"batched env, 16,384 Beginner boards: {rate:,.0f} board-steps/s", flush=True)
    state, peak = bytes_per_board(16_384)
    print(
        f"memory per Beginner board: {state:.0f} bytes of state, "
        f"{peak:.0f} bytes at the peak of a step (state, observation, masks, temporaries)"
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
