"""Gym benchmark: the batched env's speed against SyncVectorEnv's, in CPU time, in one run.

Each env plays masked random actions, autoresets included, on Beginner and Expert boards, at
64, 1,024 and 8,192 boards. Rates are board-steps per CPU second of this process (time spent
waiting for a core on a shared machine is not counted), the two envs alternating, --repeats
times each.

Run with `./dev bench gym`. The target is a ratio measured here and now: the batched env steps
1,024 Beginner boards at least 20 times faster than SyncVectorEnv steps 1,024 single envs, in
every repeat. Also printed: the other ratios, the single env's rate and bytes per board.
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

BOARDS = (64, 1024, 8192)
PRESETS = ("beginner", "expert")
SYNC_BOARD_STEPS = 6_000
"""About how many board-steps each SyncVectorEnv measurement takes (its rate per board does
not depend on how many boards it steps); the batched env takes ten times more."""


def single_rate(seconds: float) -> float:
    """Board-steps per CPU second of one `MinesEnv` (resets included), for about `seconds`."""
    env = MinesEnv(preset="beginner")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            action = int(masked_random(rng, info["action_mask"]))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
        steps += 100
    return steps / (time.process_time() - start)


def vector_rate(env: Any, steps: int) -> float:
    """Board-steps per CPU second of a vector env (autoreset included) over `steps` steps."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(3):  # warm up: the first steps of a fresh batch are all first clicks
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    start = time.process_time()
    for _ in range(steps):
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    return float(env.num_envs * steps / (time.process_time() - start))


def make(num_envs: int, preset: str, mode: str) -> Any:
    return gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode=mode, preset=preset)


def bytes_per_board(num_envs: int) -> tuple[float, float]:
    """(state bytes per board, peak bytes per board while stepping, state included)."""
    tracemalloc.start()
    env = make(num_envs, "beginner", "vector_entry_point")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    tracemalloc.reset_peak()
    for _ in range(20):
        _, _, _, _, info = env.step(masked_random(rng, info["action_mask"]))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    unwrapped = env.unwrapped
    state = unwrapped.boards.nbytes + unwrapped._steps.nbytes + unwrapped._ended.nbytes
    return state / num_envs, peak / num_envs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each case")
    args = parser.parse_args()
    checks = Checks()

    single = statistics.median(single_rate(1.0) for _ in range(args.repeats))
    print(f"single env (MinesEnv, Beginner): {single:,.0f} steps per CPU second", flush=True)
    for preset in PRESETS:
        for boards in BOARDS:
            synced, batched = (
                make(boards, preset, "sync"),
                make(boards, preset, "vector_entry_point"),
            )
            sync_steps = max(SYNC_BOARD_STEPS // boards, 2)
            batch_steps = max(10 * SYNC_BOARD_STEPS // boards, 10)
            sync_rates, batch_rates, ratios = [], [], []
            for _ in range(args.repeats):
                sync_rates.append(vector_rate(synced, sync_steps))
                batch_rates.append(vector_rate(batched, batch_steps))
                ratios.append(batch_rates[-1] / sync_rates[-1])
            text = (
                f"{statistics.median(batch_rates):,.0f} vs {statistics.median(sync_rates):,.0f} "
                f"board-steps per CPU second: {min(ratios):.0f}x to {max(ratios):.0f}x "
                f"over {args.repeats} repeats"
            )
            name = f"batched env vs SyncVectorEnv, {boards:,} {preset} boards"
            if (preset, boards) == ("beginner", 1024):
                checks.report(name, min(ratios) >= 20, text + " (target >= 20x in every repeat)")
            else:
                print(f"      {name}: {text}", flush=True)
            synced.close()
    state, peak = bytes_per_board(16_384)
    print(
        f"memory per Beginner board: {state:.0f} bytes of state, "
        f"{peak:.0f} bytes at the peak of a step (state, observation, masks, temporaries)"
    )
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
