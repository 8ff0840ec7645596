"""PPO on the batched env in one file, in the style of CleanRL: the whole algorithm in view.

    python examples/ppo_batched.py --total-steps 300000      # 6x6 boards with 5 mines

The env is `MinesVectorEnv` itself (no wrapper, same-step autoreset); the agent is a small
fully convolutional network whose logits are masked by `info["action_mask"]`. At the end the
greedy policy plays `mines.gym.evaluate`'s evaluation boards, the ones any other policy gets.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

from mines.gym import MinesVectorEnv, evaluate
from mines.gym.wrappers import CODES, planes


class Agent(nn.Module):
    """One logit per cell from 3x3 convolutions, and a value from their mean over the board."""

    def __init__(self, channels: int = 32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(CODES.size, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
        )
        self.actor = nn.Conv2d(channels, 1, 1)
        self.critic = nn.Linear(channels, 1)

    def forward(self, inputs: torch.Tensor, allowed: torch.Tensor) -> tuple[torch.Tensor, ...]:
        features = self.body(inputs)
        logits = self.actor(features).flatten(1).masked_fill(~allowed, -1e9)
        return torch.log_softmax(logits, dim=1), self.critic(features.mean((2, 3))).squeeze(1)

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            log_probs, _ = self(torch.from_numpy(planes(observations)), torch.from_numpy(masks > 0))
        actions: np.ndarray = log_probs.argmax(1).numpy()
        return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", type=int, nargs=3, default=[6, 6, 5], help="rows cols mines")
    parser.add_argument("--total-steps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=128)
    parser.add_argument("--steps", type=int, default=32, help="rollout length per update")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=0.9)
    parser.add_argument("--lam", type=float, default=0.9)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-episodes", type=int, default=1000)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rows, cols, mines = args.board
    n, t = args.envs, args.steps
    env = MinesVectorEnv(n, rows, cols, mines, autoreset_mode=AutoresetMode.SAME_STEP)
    agent = Agent()
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((t, n, CODES.size, rows, cols))
    mask_buf = torch.zeros((t, n, rows * cols), dtype=torch.bool)
    act_buf = torch.zeros((t, n), dtype=torch.int64)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t, n)) for _ in range(4))
    observations, info = env.reset(seed=args.seed)
    start, global_step = time.time(), 0
    while global_step < args.total_steps:
        for step in range(t):  # the rollout
            obs_buf[step] = torch.from_numpy(planes(observations))
            mask_buf[step] = torch.from_numpy(info["action_mask"] > 0)
            with torch.no_grad():
                log_probs, val_buf[step] = agent(obs_buf[step], mask_buf[step])
            act_buf[step] = torch.multinomial(log_probs.exp(), 1).squeeze(1)
            logp_buf[step] = log_probs.gather(1, act_buf[step, :, None]).squeeze(1)
            observations, reward, terminated, truncated, info = env.step(act_buf[step].numpy())
            rew_buf[step] = torch.from_numpy(reward)
            done_buf[step] = torch.from_numpy(terminated | truncated).float()
        global_step += n * t
        with torch.no_grad():  # generalised advantage estimation
            _, next_value = agent(
                torch.from_numpy(planes(observations)), torch.from_numpy(info["action_mask"] > 0)
            )
            advantages, running = torch.zeros((t, n)), torch.zeros(n)
            for step in reversed(range(t)):
                alive = 1.0 - done_buf[step]
                following = next_value if step == t - 1 else val_buf[step + 1]
                delta = rew_buf[step] + args.gamma * following * alive - val_buf[step]
                running = delta + args.gamma * args.lam * alive * running
                advantages[step] = running
            returns = advantages + val_buf
        b_obs, b_mask = obs_buf.flatten(0, 1), mask_buf.flatten(0, 1)
        b_act, b_logp = act_buf.flatten(), logp_buf.flatten()
        b_adv, b_ret = advantages.flatten(), returns.flatten()
        size = n * t
        for _ in range(args.epochs):  # the clipped surrogate objective
            order, part = torch.randperm(size), size // args.minibatches
            for batch in (order[start : start + part] for start in range(0, size, part)):
                log_probs, value = agent(b_obs[batch], b_mask[batch])
                ratio = (log_probs.gather(1, b_act[batch, None]).squeeze(1) - b_logp[batch]).exp()
                adv = (b_adv[batch] - b_adv[batch].mean()) / (b_adv[batch].std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
                policy_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                value_loss = 0.5 * ((value - b_ret[batch]) ** 2).mean()
                entropy = -(log_probs.exp() * log_probs).sum(1).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        print(f"{global_step:>9,} steps, {time.time() - start:6.0f} s, loss {loss.item():.3f}")
    board = {"rows": rows, "cols": cols, "mines": mines}
    print(evaluate(agent.act, episodes=args.eval_episodes, seed=0, **board))


if __name__ == "__main__":
    main()
