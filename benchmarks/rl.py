"""RL: PPO's curves over seeds; the imitation policy against issue 47's targets.

`targets` checks the imitation policy (`mines.gym.mine_net`) against issue 47's targets.

Run with `./dev bench rl train --seed S` (one training run; CPU-heavy: on a shared machine
run it under `nice -n 19`), then `./dev bench rl report` (the curves over every seed with 95%
intervals, and the evaluation of the Bot, masked random and the best run on the same boards).
A run checkpoints into --runs/NAME-seedS at every evaluation and goes on from there when it
is started again with the same arguments, so it can be stopped at any time. The recipe (and
its curriculum, --stage BOARD:STEPS) is written next to the checkpoint.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from scipy import stats

from mines.gym import MinesVectorEnv, evaluate
from mines.gym.policy import ConvPolicy, save
from mines.gym.wrappers import planes

EVAL_SEED = 2026
"""The evaluation boards of every curve: `evaluate(..., seed=EVAL_SEED)`."""
EVAL_BOARDS = ("6x6n5", "9x9n10")


@dataclass
class Stage:
    """A part of the curriculum: a board (`6x6n5`), trained on until `until` steps in all."""

    board: str
    until: int

    @property
    def size(self) -> tuple[int, int, int]:
        return parse_board(self.board)


@dataclass
class Recipe:
    """Everything that decides a training run, but its seed."""

    stages: list[Stage]
    envs: int = 256
    steps: int = 32
    epochs: int = 3
    minibatches: int = 4
    lr: float = 1e-3
    gamma: float = 0.9
    lam: float = 0.9
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    channels: int = 32
    layers: int = 4
    eval_every: int = 150_000
    eval_episodes: int = 500


@dataclass
class Progress:
    """Where a run stands; kept in its checkpoint."""

    steps: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    curve: list[dict[str, Any]] = field(default_factory=list)


def parse_board(text: str) -> tuple[int, int, int]:
    size, mines = text.split("n")
    rows, cols = size.split("x")
    return int(rows), int(cols), int(mines)


def cpu_time() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def stage_at(recipe: Recipe, steps: int) -> Stage:
    return next((s for s in recipe.stages if steps < s.until), recipe.stages[-1])


def masked_log_probs(logits: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits, dim=1)


class Trainer:
    """PPO (clipped, GAE, advantage normalisation) on `MinesVectorEnv`, as in CleanRL."""

    def __init__(self, recipe: Recipe, seed: int, run: Path):
        self.recipe, self.seed, self.run = recipe, seed, run
        torch.manual_seed(seed)
        self.policy = ConvPolicy(channels=recipe.channels, layers=recipe.layers)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=recipe.lr, eps=1e-5)
        self.progress = Progress()
        self.checkpoint = run / "checkpoint.pt"
        if self.checkpoint.exists():
            saved = torch.load(self.checkpoint, weights_only=False)
            self.policy.load_state_dict(saved["policy"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self.progress = Progress(**saved["progress"])
            torch.set_rng_state(saved["torch_rng"])
            print(f"resumed {run} at {self.progress.steps:,} steps", flush=True)
        run.mkdir(parents=True, exist_ok=True)
        (run / "recipe.json").write_text(json.dumps(asdict(recipe), indent=1) + "\n")

    def evaluate(self) -> None:
        progress = self.progress
        self.policy.eval()
        point: dict[str, Any] = {"steps": progress.steps}
        for board in EVAL_BOARDS:
            rows, cols, mines = parse_board(board)
            result = evaluate(
                self.policy.act,
                episodes=self.recipe.eval_episodes,
                seed=EVAL_SEED,
                rows=rows,
                cols=cols,
                mines=mines,
            )
            point[board] = round(result.win_rate, 4)
        self.policy.train()
        point["cpu"] = round(progress.cpu_seconds, 1)
        point["wall"] = round(progress.wall_seconds, 1)
        progress.curve.append(point)
        print(json.dumps(point), flush=True)
        torch.save(
            {
                "policy": self.policy.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "progress": asdict(progress),
                "torch_rng": torch.get_rng_state(),
            },
            self.checkpoint,
        )
        save(self.policy, self.run / f"policy-{progress.steps}.pt", steps=progress.steps)

    def train(self, budget: int) -> None:
        recipe, progress = self.recipe, self.progress
        cpu0 = cpu_time() - progress.cpu_seconds
        wall0 = time.monotonic() - progress.wall_seconds
        stage: Stage | None = None
        env = observations = info = None
        next_eval = 0 if not progress.curve else progress.curve[-1]["steps"] + recipe.eval_every
        while progress.steps < budget:
            if progress.steps >= next_eval:
                progress.cpu_seconds, progress.wall_seconds = (
                    cpu_time() - cpu0,
                    time.monotonic() - wall0,
                )
                self.evaluate()
                next_eval = progress.steps + recipe.eval_every
            if stage_at(recipe, progress.steps) != stage:
                stage = stage_at(recipe, progress.steps)
                env = MinesVectorEnv(
                    recipe.envs, *stage.size, autoreset_mode=AutoresetMode.SAME_STEP
                )
                observations, info = env.reset(seed=self.seed * 1_000_003 + progress.steps)
            assert env is not None
            assert observations is not None
            assert info is not None
            observations, info = self.update(env, observations, info)
            progress.steps += recipe.envs * recipe.steps
        progress.cpu_seconds, progress.wall_seconds = cpu_time() - cpu0, time.monotonic() - wall0
        self.evaluate()

    def update(
        self, env: MinesVectorEnv, observations: Any, info: dict[str, Any]
    ) -> tuple[Any, dict[str, Any]]:
        """One rollout of `steps` steps on every board, then the PPO epochs over it."""
        recipe, policy = self.recipe, self.policy
        t, n, rows, cols = recipe.steps, recipe.envs, env.rows, env.cols
        cells = rows * cols
        seen = np.zeros((t, n, rows, cols), dtype=np.int8)
        masks = np.zeros((t, n, cells), dtype=bool)
        actions = torch.zeros((t, n), dtype=torch.int64)
        old_log_probs = torch.zeros((t, n))
        values = torch.zeros((t + 1, n))
        rewards = torch.zeros((t, n))
        dones = torch.zeros((t, n))
        with torch.no_grad():
            for step in range(t):
                seen[step], masks[step] = observations, info["action_mask"]
                logits, values[step] = policy.masked(observations, info["action_mask"])
                log_probs = masked_log_probs(logits)
                actions[step] = torch.multinomial(log_probs.exp(), 1).squeeze(1)
                old_log_probs[step] = log_probs.gather(1, actions[step, :, None]).squeeze(1)
                observations, reward, terminated, truncated, info = env.step(actions[step].numpy())
                rewards[step] = torch.from_numpy(reward)
                dones[step] = torch.from_numpy((terminated | truncated).astype(np.float32))
            _, values[t] = policy.masked(observations, info["action_mask"])
        advantages = torch.zeros((t, n))
        running = torch.zeros(n)
        for step in reversed(range(t)):
            alive = 1.0 - dones[step]
            delta = rewards[step] + recipe.gamma * values[step + 1] * alive - values[step]
            running = delta + recipe.gamma * recipe.lam * alive * running
            advantages[step] = running
        returns = (advantages + values[:t]).reshape(-1)
        inputs = torch.from_numpy(planes(seen.reshape(t * n, rows, cols)))
        allowed = torch.from_numpy(masks.reshape(t * n, cells))
        taken, old, gains = actions.reshape(-1), old_log_probs.reshape(-1), advantages.reshape(-1)
        size = t * n
        batch = size // recipe.minibatches
        for _ in range(recipe.epochs):
            order = torch.randperm(size)
            for start in range(0, size, batch):
                chosen = order[start : start + batch]
                logits, value = policy(inputs[chosen])
                log_probs = masked_log_probs(logits.masked_fill(~allowed[chosen], -1e9))
                new = log_probs.gather(1, taken[chosen, None]).squeeze(1)
                ratio = (new - old[chosen]).exp()
                gain = gains[chosen]
                gain = (gain - gain.mean()) / (gain.std() + 1e-8)
                clipped = ratio.clamp(1 - recipe.clip, 1 + recipe.clip)
                policy_loss = torch.max(-gain * ratio, -gain * clipped).mean()
                value_loss = 0.5 * ((value - returns[chosen]) ** 2).mean()
                entropy = -(log_probs.exp() * log_probs).sum(dim=1).mean()
                loss = policy_loss + recipe.value_coef * value_loss - recipe.entropy * entropy
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                self.optimizer.step()
        return observations, info


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean over training seeds and its 95% Student-t interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = (
        float(stats.t.ppf(0.975, len(values) - 1)) * statistics.stdev(values) / len(values) ** 0.5
    )
    return mean, mean - half, mean + half


def report(runs: list[Path], plot: Path, episodes: int) -> None:
    """Curves over the runs' seeds (mean and 95% interval at every evaluated step), and the
    last policies, the Bot and masked random on the same `episodes` evaluation boards."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    from mines.gym.agents import BotPolicy, RandomPolicy
    from mines.gym.policy import load

    curves = [torch.load(r / "checkpoint.pt", weights_only=False)["progress"] for r in runs]
    figure, axes = pyplot.subplots(1, len(EVAL_BOARDS), figsize=(11, 4), dpi=100)
    for axis, board in zip(axes, EVAL_BOARDS, strict=True):
        steps = sorted(set.intersection(*({p["steps"] for p in c["curve"]} for c in curves)))
        table = [
            [next(p[board] for p in c["curve"] if p["steps"] == s) for c in curves] for s in steps
        ]
        mean, low, high = (np.array(v) * 100 for v in zip(*map(mean_interval, table), strict=True))
        for curve, run in zip(curves, runs, strict=True):
            axis.plot(
                [p["steps"] for p in curve["curve"]],
                [100 * p[board] for p in curve["curve"]],
                linewidth=0.7,
                alpha=0.5,
                label=run.name,
            )
        axis.plot(steps, mean, color="black", label=f"mean of {len(runs)} seeds")
        axis.fill_between(steps, low, high, color="black", alpha=0.15, label="95% interval")
        stages = json.loads((runs[0] / "recipe.json").read_text())["stages"]
        for stage, following in itertools.pairwise(stages):
            axis.axvline(stage["until"], color="grey", linestyle="--", linewidth=0.8)
            axis.text(stage["until"], 3, f" {following['board']} from here", fontsize=7)
        axis.set_title(f"{board} (first click opens)")
        axis.set_xlabel("training steps")
        axis.set_ylabel("evaluation boards won (%)")
        axis.set_ylim(0, 100)
        axis.grid(alpha=0.3)
        axis.legend(loc="lower right", fontsize=7)
        for step, m, lo, hi in zip(steps, mean, low, high, strict=True):
            print(f"{board} {step:>9,} steps: {m:5.1f}% (95% CI over seeds {lo:5.1f}-{hi:5.1f})")
    figure.tight_layout()
    figure.savefig(plot)
    print(f"curves: {plot}")
    for curve, run in zip(curves, runs, strict=True):
        print(
            f"{run.name}: {curve['steps']:,} steps, {curve['cpu_seconds'] / 60:.1f} CPU min, "
            f"{curve['wall_seconds'] / 60:.1f} wall min"
        )
    for board in EVAL_BOARDS:
        rows, cols, mines = parse_board(board)
        options: dict[str, Any] = {"episodes": episodes, "seed": 1, "rows": rows, "cols": cols}
        options["mines"] = mines
        print(f"masked random: {evaluate(RandomPolicy(0), **options)}", flush=True)
        for run in runs:
            last = max(run.glob("policy-*.pt"), key=lambda p: int(p.stem.split("-")[1]))
            print(f"{run.name} ({last.name}): {evaluate(load(last).act, **options)}", flush=True)
        print(f"the Bot: {evaluate(BotPolicy(mines), **options)}", flush=True)


TARGETS = {"beginner": 0.90, "intermediate": 0.70, "expert": 0.30}
"""Issue 47: the share of fresh boards (first click opens) the learned policy must win."""


def targets(weights: str | None, episodes: int, seed: int) -> int:
    """The shipped (or given) `MineNet` and the Bot on the same fresh boards of each preset;
    PASS where the policy's win rate reaches the target. Returns 1 if any fails."""
    from mines.gym.agents import BotPolicy
    from mines.gym.evaluation import Comparison
    from mines.gym.mine_net import NetPlayer, load_net
    from mines.gym.report import REUSE, board_options

    net = load_net(weights)
    failed = False
    for preset, target in TARGETS.items():
        options: dict[str, Any] = {"episodes": episodes, "seed": seed, **board_options(preset)}
        learned = evaluate(NetPlayer(net, options["mines"], reuse=REUSE), **options)
        bot = evaluate(BotPolicy(options["mines"]), **options)
        passed = learned.win_rate >= target
        failed |= not passed
        low, high = learned.interval
        print(
            f"{'PASS' if passed else 'FAIL'} {preset}: won {learned.win_rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}), target {target:.0%}; the Bot on the same boards "
            f"{bot.win_rate:.1%}; learned - Bot: {Comparison(learned, bot)}",
            flush=True,
        )
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("targets", help="the imitation policy against issue 47's targets")
    check.add_argument("--weights", help="a MineNet weights file (default: the shipped one)")
    check.add_argument("--episodes", type=int, default=2000)
    check.add_argument("--seed", type=int, default=7919)
    train = commands.add_parser("train", help="one training run (resumable)")
    train.add_argument("--name", default="conv")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument(
        "--stage",
        action="append",
        default=[],
        help="BOARD:STEPS, such as 6x6n5:1200000, in order (default: 6x6n5 throughout)",
    )
    train.add_argument("--budget", type=int, default=1_200_000, help="training steps in all")
    train.add_argument("--runs", type=Path, default=Path("runs"))
    train.add_argument("--threads", type=int, default=1, help="torch threads")
    for name in ("envs", "steps", "epochs", "minibatches", "channels", "layers"):
        train.add_argument("--" + name, type=int)
    for name in ("eval_every", "eval_episodes"):
        train.add_argument("--" + name.replace("_", "-"), dest=name, type=int)
    for name in ("lr", "gamma", "lam", "entropy"):
        train.add_argument("--" + name, type=float)
    show = commands.add_parser("report", help="curves over seeds and the final evaluation")
    show.add_argument("runs", type=Path, nargs="+", help="run folders, one per seed")
    show.add_argument("--plot", type=Path, default=Path("docs/rl-learning-curve.png"))
    show.add_argument("--episodes", type=int, default=2000)
    args = parser.parse_args()
    if args.command == "targets":
        torch.set_num_threads(1)
        return targets(args.weights, args.episodes, args.seed)
    if args.command == "report":
        torch.set_num_threads(1)
        report(args.runs, args.plot, args.episodes)
        return 0
    torch.set_num_threads(args.threads)
    stages = [Stage(s.split(":")[0], int(s.split(":")[1])) for s in args.stage]
    recipe = Recipe(stages=stages or [Stage("6x6n5", 0)])
    recipe.stages[-1].until = 2**62  # the last stage runs to the budget
    for name, value in vars(args).items():
        if hasattr(recipe, name) and name != "stages" and value is not None:
            setattr(recipe, name, value)
    Trainer(recipe, args.seed, args.runs / f"{args.name}-seed{args.seed}").train(args.budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
