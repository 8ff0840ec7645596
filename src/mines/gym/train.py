"""`python -m mines.gym.train RUN`: train a `MineNet` by imitating the solver's exact mine
probabilities on the positions it plays itself (DAgger), resumable, then evaluate it.

Each round plays a few steps on batched boards of every training size, where each move is
the net's (the cell it finds safest) or, with probability `beta`, the solver's safest cell;
every position reached is labelled with the solver's exact probability of a mine under each
hidden cell (`mines.gym.labels`) and kept in a buffer per board size; then the net takes
gradient steps of per-cell binary cross-entropy on batches drawn from the buffers. `beta`
falls from 1 to `beta_floor` over the first half of the run, so the net learns more and
more on the positions its own play leads to. The run checkpoints into RUN (weights, optimiser,
random states, curve) at every evaluation, and started again with the same RUN goes on from
there (the buffers are refilled by play). It writes RUN/mine-net.pt (weights and provenance),
RUN/curve.png (the learning curve) and, unless `--final-episodes 0`, evaluates the last
weights with `mines.gym.evaluate`.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mines.extras import require_extra

require_extra("rl", "mines.gym.train")

# Only once torch is known to be there: without it, the line above names the extra.
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import torch  # noqa: E402
from torch.nn import functional  # noqa: E402

from mines.gym.evaluation import evaluate  # noqa: E402
from mines.gym.labels import OPEN, mine_probabilities  # noqa: E402
from mines.gym.mine_net import DESIGNS, MineNet, NetPlayer, encode, save_net  # noqa: E402
from mines.gym.report import REUSE, board_options  # noqa: E402
from mines.gym.report import main as report  # noqa: E402
from mines.gym.vector import MinesVectorEnv  # noqa: E402
from mines.solver.bot import opening_click  # noqa: E402
from mines.solver.counting import Counter  # noqa: E402

EVAL_SEED = 2026
"""The boards of every learning curve: `evaluate(..., seed=EVAL_SEED)`; the final figures
use other boards (`mines.gym.evaluate`'s default seed)."""


@dataclass
class Source:
    """Boards the run plays to make training positions: a size, a first-click rule, how many
    boards at once, and the batch of positions per gradient step and its share of steps."""

    rows: int
    cols: int
    mines: int
    first_click: str
    boards: int
    batch: int
    share: float

    @property
    def board(self) -> str:
        return f"{self.rows}x{self.cols}n{self.mines}"


def default_sources() -> list[Source]:
    # Batches of about 10,000 cells; the bigger boards get more steps, being harder.
    return [
        Source(6, 6, 5, "opening", 32, 256, 0.10),
        Source(9, 9, 10, "opening", 64, 128, 0.20),
        Source(9, 9, 10, "safe", 16, 128, 0.05),
        Source(16, 16, 40, "opening", 32, 40, 0.25),
        Source(16, 16, 40, "safe", 8, 40, 0.05),
        Source(16, 30, 99, "opening", 32, 24, 0.30),
        Source(16, 30, 99, "safe", 8, 24, 0.05),
    ]


@dataclass
class Recipe:
    """Everything that decides a run but its seed and its budget."""

    design: str = "plain"
    channels: int = 24
    layers: int = 6
    lr: float = 2e-3
    lr_floor: float = 1e-4
    """The learning rate falls from `lr` to this along a cosine over the budget."""
    play_steps: int = 4
    """Steps played on every source's boards per round."""
    updates_per_round: int = 40
    """Gradient steps per round."""
    buffer: int = 40_000
    """Positions kept per board size (the oldest go first)."""
    beta_floor: float = 0.25
    eval_minutes: float = 10.0
    eval_boards: dict[str, int] = field(
        default_factory=lambda: {"6x6n5": 200, "9x9n10": 200, "16x16n40": 100, "16x30n99": 60}
    )
    sources: list[Source] = field(default_factory=default_sources)


@dataclass
class Progress:
    """Where a run stands; kept in its checkpoint."""

    rounds: int = 0
    updates: int = 0
    examples: int = 0
    """Positions drawn into gradient steps (one position counted once per draw)."""
    positions: int = 0
    """Positions played and labelled."""
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    last_eval: float = -1.0
    curve: list[dict[str, Any]] = field(default_factory=list)


def cpu_time() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def git_commit() -> str:
    """The commit of the code that trained, with `+dirty` when it had changes; or `unknown`."""
    here = Path(__file__).parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "."], cwd=here, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


class Buffer:
    """The last `capacity` labelled positions of one board size."""

    def __init__(self, capacity: int, rows: int, cols: int, mines: int):
        self.mines = mines
        self.observations = np.zeros((capacity, rows, cols), dtype=np.int8)
        self.labels = np.zeros((capacity, rows, cols), dtype=np.float16)
        self.size = 0
        self.next = 0

    def add(self, observation: npt.NDArray[np.int8], labels: npt.NDArray[np.float32]) -> None:
        self.observations[self.next] = observation
        self.labels[self.next] = labels
        self.next = (self.next + 1) % len(self.observations)
        self.size = min(self.size + 1, len(self.observations))

    def sample(
        self, rng: np.random.Generator, count: int
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float16]]:
        chosen = rng.integers(self.size, size=count)
        return self.observations[chosen], self.labels[chosen]


class Trainer:
    """One run: its recipe, seed, folder, net, optimiser, buffers and progress."""

    def __init__(self, recipe: Recipe, seed: int, run: Path):
        self.recipe, self.seed, self.run = recipe, seed, run
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.net = MineNet(channels=recipe.channels, layers=recipe.layers, design=recipe.design)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=recipe.lr)
        self.progress = Progress()
        self.checkpoint = run / "checkpoint.pt"
        if self.checkpoint.exists():
            saved = torch.load(self.checkpoint, weights_only=True)
            if saved["recipe"] != asdict(recipe) or saved["seed"] != seed:
                raise SystemExit(
                    f"{run} holds a run of another recipe or seed: give a new RUN folder, "
                    "or the same options as the run it holds"
                )
            self.net.load_state_dict(saved["net"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self.progress = Progress(**saved["progress"])
            torch.set_rng_state(saved["torch_rng"])
            self.rng.bit_generator.state = saved["numpy_rng"]
            print(f"resumed {run} at round {self.progress.rounds:,}", flush=True)
        run.mkdir(parents=True, exist_ok=True)
        (run / "recipe.json").write_text(json.dumps(asdict(recipe), indent=1) + "\n")
        self.commit = git_commit()
        """The code that trains: read once at the start, not at each save."""
        self.counter = Counter(native=True)
        self.buffers: dict[str, Buffer] = {}
        self.envs: list[tuple[Source, MinesVectorEnv, npt.NDArray[np.int8]]] = []
        for number, source in enumerate(recipe.sources):
            if source.board not in self.buffers:
                size = (source.rows, source.cols, source.mines)
                self.buffers[source.board] = Buffer(recipe.buffer, *size)
            env = MinesVectorEnv(
                source.boards,
                source.rows,
                source.cols,
                source.mines,
                first_click=source.first_click,
            )
            # A resumed run plays new boards: the seed moves on with the rounds played.
            observations, _ = env.reset(seed=seed * 1_000 + number + 97 * self.progress.rounds)
            self.envs.append((source, env, observations))

    def fraction(self, budget_updates: int | None, budget_minutes: float | None) -> float:
        """How much of the budget is spent, from 0 to 1."""
        parts = [0.0]
        if budget_updates:
            parts.append(self.progress.updates / budget_updates)
        if budget_minutes:
            parts.append(self.progress.wall_seconds / 60 / budget_minutes)
        return min(1.0, max(parts))

    def beta(self, fraction: float) -> float:
        """The chance that a move played is the solver's, not the net's."""
        return max(self.recipe.beta_floor, 1.0 - 2 * fraction * (1.0 - self.recipe.beta_floor))

    def play(self, beta: float) -> None:
        """A few steps on every source's boards; every position with a cell open is labelled."""
        self.net.eval()
        for number, (source, env, observations) in enumerate(self.envs):
            buffer = self.buffers[source.board]
            for _ in range(self.recipe.play_steps):
                n = len(observations)
                flat = observations.reshape(n, -1)
                # A board whose episode just ended shows its mines: no position to learn from.
                playing = env.action_masks().any(axis=1)
                started = (flat >= 0).any(axis=1) & playing
                risk = np.full(flat.shape, np.inf)
                for board in np.flatnonzero(started):
                    labels = mine_probabilities(observations[board], source.mines, self.counter)
                    buffer.add(observations[board], labels)
                    # Random tie-breaks: equally safe cells are all played, not only the first.
                    noise = self.rng.random(labels.size) * 1e-6
                    risk[board] = np.where(labels.reshape(-1) == OPEN, np.inf, labels.reshape(-1))
                    risk[board] += noise
                self.progress.positions += int(started.sum())
                net_moves = NetPlayer(self.net, source.mines)(
                    observations, (flat == -1).astype(np.int8)
                )
                solver = started & (self.rng.random(n) < beta)
                actions = np.where(solver, risk.argmin(axis=1), net_moves)
                row, col = opening_click(source.rows, source.cols, source.mines)
                actions[~started] = row * source.cols + col  # ended boards: ignored anyway
                observations, *_ = env.step(actions.astype(np.int64))
            self.envs[number] = (source, env, observations)

    def learn(self, lr: float) -> float:
        """The round's gradient steps; returns their mean loss."""
        self.net.train()
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        sources = self.recipe.sources
        shares = np.array([s.share for s in sources])
        picks = self.rng.choice(
            len(sources), size=self.recipe.updates_per_round, p=shares / shares.sum()
        )
        losses = []
        for pick in picks:
            source = sources[pick]
            buffer = self.buffers[source.board]
            if buffer.size == 0:
                continue
            observations, labels = buffer.sample(self.rng, source.batch)
            target = torch.from_numpy(labels.astype(np.float32))
            hidden = target >= 0
            logits = self.net(encode(observations, source.mines))
            loss = functional.binary_cross_entropy_with_logits(logits[hidden], target[hidden])
            self.optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            self.optimizer.step()
            losses.append(loss.item())
            self.progress.updates += 1
            self.progress.examples += source.batch
        return float(np.mean(losses)) if losses else math.nan

    def evaluate(self, loss: float) -> None:
        """Win rates on the curve's fixed boards (first click opens); then a checkpoint."""
        self.net.eval()
        point: dict[str, Any] = {
            "updates": self.progress.updates,
            "examples": self.progress.examples,
            "wall_minutes": self.progress.wall_seconds / 60,
            "cpu_minutes": self.progress.cpu_seconds / 60,
            "loss": loss,
        }
        for board, episodes in self.recipe.eval_boards.items():
            options = board_options(board)
            player = NetPlayer(self.net, options["mines"], reuse=REUSE)
            result = evaluate(player, episodes=episodes, seed=EVAL_SEED, **options)
            point[board] = result.win_rate
        self.progress.curve.append(point)
        self.progress.last_eval = self.progress.wall_seconds
        shown = "  ".join(f"{b} {point[b]:.1%}" for b in self.recipe.eval_boards)
        print(f"  evaluation at {self.progress.updates:,} updates: {shown}", flush=True)
        self.save()

    def save(self) -> None:
        torch.save(
            {
                "recipe": asdict(self.recipe),
                "seed": self.seed,
                "net": self.net.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "progress": asdict(self.progress),
                "torch_rng": torch.get_rng_state(),
                "numpy_rng": self.rng.bit_generator.state,
            },
            self.checkpoint,
        )
        save_net(self.net, self.run / "mine-net.pt", self.provenance())
        draw_curve(self.progress.curve, self.run / "curve.png", self.recipe.design)

    def provenance(self) -> dict[str, Any]:
        progress = self.progress
        return {
            "seed": self.seed,
            "recipe": asdict(self.recipe),
            "commit": self.commit,
            "torch": str(torch.__version__),
            "method": "DAgger imitation of the solver's exact mine probabilities",
            "examples": progress.examples,
            "positions": progress.positions,
            "updates": progress.updates,
            "cpu_minutes": round(progress.cpu_seconds / 60, 2),
            "wall_minutes": round(progress.wall_seconds / 60, 2),
            "curve": progress.curve,
            "evaluation": {},
        }

    def train(self, updates: int | None, minutes: float | None) -> None:
        """Rounds of play and learning until the budget (updates, wall minutes) is spent."""
        if not updates and not minutes:
            raise SystemExit("give a budget: --updates, --minutes or both")
        progress = self.progress
        started_wall, started_cpu = time.monotonic(), cpu_time()
        wall0, cpu0 = progress.wall_seconds, progress.cpu_seconds
        loss = math.nan
        if not progress.curve:
            self.evaluate(loss)  # the curve starts from the untrained net
        while (fraction := self.fraction(updates, minutes)) < 1.0:
            cosine = 0.5 * (1 + math.cos(math.pi * fraction))
            lr = self.recipe.lr_floor + (self.recipe.lr - self.recipe.lr_floor) * cosine
            beta = self.beta(fraction)
            self.play(beta)
            loss = self.learn(lr)
            progress.rounds += 1
            progress.wall_seconds = wall0 + time.monotonic() - started_wall
            progress.cpu_seconds = cpu0 + cpu_time() - started_cpu
            if progress.rounds % 10 == 0:
                print(
                    f"[{fraction:6.1%}] round {progress.rounds:,}  updates {progress.updates:,}"
                    f"  examples {progress.examples:,}  loss {loss:.4f}  lr {lr:.1e}"
                    f"  beta {beta:.2f}  {progress.wall_seconds / 60:.1f} wall min"
                    f"  {progress.cpu_seconds / 60:.1f} CPU min",
                    flush=True,
                )
            if progress.wall_seconds - progress.last_eval >= self.recipe.eval_minutes * 60:
                self.evaluate(loss)
        if progress.curve[-1]["updates"] != progress.updates:
            self.evaluate(loss)
        print(f"weights: {self.run / 'mine-net.pt'}  curve: {self.run / 'curve.png'}", flush=True)


def draw_curve(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """The win rate on each evaluation size, and the loss, against gradient steps."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, (wins, losses) = pyplot.subplots(1, 2, figsize=(10, 4), dpi=90)
    steps = [point["updates"] for point in curve]
    boards = [key for key in curve[0] if "x" in key and "n" in key]
    for board in boards:
        wins.plot(steps, [100 * point[board] for point in curve], marker="o", label=board)
    wins.set_xlabel("gradient steps")
    wins.set_ylabel(f"evaluation boards won (%), seed {EVAL_SEED}")
    wins.set_ylim(0, 100)
    wins.grid(alpha=0.3)
    wins.legend(loc="lower right", fontsize=8)
    wins.set_title(f"MineNet ({title}): win rate, first click opens")
    losses.plot(steps[1:], [point["loss"] for point in curve[1:]], marker="o")
    losses.set_xlabel("gradient steps")
    losses.set_ylabel("per-cell cross-entropy (last round)")
    losses.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


OVERRIDES: dict[str, type] = {
    "channels": int,
    "layers": int,
    "updates_per_round": int,
    "buffer": int,
    "play_steps": int,
    "lr": float,
    "beta_floor": float,
    "eval_minutes": float,
}
"""The recipe's settings the command line can change."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mines.gym.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("run", type=Path, help="the run's folder (resumed if it exists)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--design", choices=sorted(DESIGNS), default="plain")
    parser.add_argument("--minutes", type=float, help="wall-clock budget of the training")
    parser.add_argument("--updates", type=int, help="gradient-step budget of the training")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument(
        "--final-episodes",
        type=int,
        default=2000,
        help="boards per preset and rule of the final evaluation (0: none)",
    )
    parser.add_argument(
        "--final-boards",
        default="6x6n5,beginner,intermediate,expert",
        help="boards of the final evaluation, comma-separated",
    )
    parser.add_argument("--tiny", action="store_true", help="a tiny recipe, for a smoke test")
    for name, kind in OVERRIDES.items():
        parser.add_argument("--" + name.replace("_", "-"), dest=name, type=kind)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    recipe = Recipe(design=args.design)
    if args.tiny:
        recipe = Recipe(
            design=args.design,
            channels=8,
            layers=3,
            updates_per_round=4,
            buffer=500,
            play_steps=2,
            eval_boards={"6x6n5": 20, "9x9n10": 10},
            sources=[Source(6, 6, 5, "opening", 4, 16, 0.5), Source(9, 9, 10, "safe", 4, 8, 0.5)],
        )
    for name in OVERRIDES:
        if getattr(args, name) is not None:
            setattr(recipe, name, getattr(args, name))
    trainer = Trainer(recipe, args.seed, args.run)
    trainer.train(args.updates, args.minutes)
    if args.final_episodes:
        weights = str(args.run / "mine-net.pt")
        episodes = str(args.final_episodes)
        return report([weights, "--episodes", episodes, "--boards", args.final_boards, "--record"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
