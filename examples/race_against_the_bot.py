"""A race on one board: a trained policy against the solver's Bot, or against itself.

    python examples/race_against_the_bot.py --races 50               # the policy vs the Bot
    python examples/race_against_the_bot.py --races 50 --self-play   # the policy vs itself

`RaceEnv` is a PettingZoo `ParallelEnv`: every player moves at each step, the race takes the
moves in a random order, and whoever opens a cell scores it; a mine puts its player out. The
policy is the shipped convolutional one (`mines.gym.policy.load()`, the `rl` extra); it plays
any board size as it is, and here, as every seat, it sees only its own observation and mask.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
import torch

from mines.gym.agents import BotPolicy
from mines.gym.evaluation import wilson_interval
from mines.gym.policy import load
from mines.gym.race import RaceEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--board", type=int, nargs=3, default=[9, 9, 10], help="rows cols mines")
    parser.add_argument("--self-play", action="store_true", help="the policy in both seats")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows, cols, mines = args.board
    policy = load()
    seats = {"player_0": policy.act, "player_1": policy.act if args.self_play else BotPolicy(mines)}
    env = RaceEnv(rows, cols, mines)
    wins: Counter[str] = Counter()
    scores: dict[str, list[int]] = {agent: [] for agent in seats}
    observations, infos = env.reset(seed=args.seed)
    for _ in range(args.races):
        while env.agents:
            actions = {
                agent: int(
                    seats[agent](
                        observations[agent]["observation"][None],
                        observations[agent]["action_mask"][None],
                    )[0]
                )
                for agent in env.agents
            }
            observations, _, _, _, infos = env.step(actions)
        winner = next(info["winner"] for info in infos.values() if "winner" in info)
        wins[winner] += 1
        for agent in seats:
            scores[agent].append(env.race.players[env.possible_agents.index(agent)].score)
        observations, infos = env.reset()
    for agent, play in seats.items():
        name = "the Bot" if isinstance(play, BotPolicy) else "the policy"
        low, high = wilson_interval(wins[agent], args.races)
        print(
            f"{agent} ({name}): won {wins[agent]} of {args.races} races "
            f"(95% CI {low:.0%}-{high:.0%}), mean score {np.mean(scores[agent]):.1f} cells"
        )


if __name__ == "__main__":
    main()
