"""`python -m mines.gym.report [WEIGHTS]`: a `MineNet`'s win rates per board and first-click
rule with Wilson intervals, the solver's Bot on the same boards, paired comparisons."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from mines.extras import require_extra

require_extra("rl", "mines.gym.report")

# Only once torch is known to be there: without it, the line above names the extra.
import torch  # noqa: E402

from mines.errors import MinesError  # noqa: E402
from mines.gameid import GameId  # noqa: E402
from mines.gym.agents import BotPolicy  # noqa: E402
from mines.gym.evaluation import Comparison, Evaluation, Policy, evaluate  # noqa: E402
from mines.gym.mine_net import NetPlayer, load_net, read_weights  # noqa: E402
from mines.presets import board_size  # noqa: E402

SEED = 7919
"""The default evaluation boards: `evaluate(..., seed=7919)`. Training never plays them (its
boards come from other seeds of the batched env: `mines.gym.train`)."""
BOARDS = ("6x6n5", "beginner", "intermediate", "expert")
RULES = ("opening", "safe", "any")
REUSE = 0.01
"""The player opens a cell its last look found at most this likely a mine without a new
look (`NetPlayer`'s `reuse`)."""


def board_options(name: str) -> dict[str, int]:
    """A preset's name (`beginner`) or a board as a game ID writes it (`6x6n5`) -> the envs'
    rows, cols and mines; `InvalidBoardError` for anything else."""
    if name[:1].isdigit():
        game = GameId.parse(f"{name}#0")
        return {"rows": game.rows, "cols": game.cols, "mines": game.mines}
    rows, cols, mines = board_size(preset=name)
    return {"rows": rows, "cols": cols, "mines": mines}


def rate(result: Evaluation) -> str:
    low, high = result.interval
    return f"{result.win_rate:.1%} ({low:.1%}-{high:.1%})"


def figures(result: Evaluation) -> dict[str, Any]:
    low, high = result.interval
    return {
        "episodes": result.episodes,
        "wins": result.wins,
        "win_rate": round(result.win_rate, 4),
        "interval": [round(low, 4), round(high, 4)],
        "seed": result.seed,
    }


def record(weights: Path | str, seed: int, table: dict[str, Any]) -> None:
    """Add the figures of `table` (board/rule -> results) to the weights' provenance, beside
    those of earlier reports on the same seed's boards."""
    saved = read_weights(weights)
    evaluation = saved["provenance"]["evaluation"]
    if evaluation.get("seed") != seed:
        evaluation = {"seed": seed, "results": {}}
    evaluation["results"].update(table)
    saved["provenance"]["evaluation"] = evaluation
    torch.save(saved, weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mines.gym.report", description=__doc__)
    parser.add_argument("weights", nargs="?", help="a MineNet weights file (default: shipped)")
    parser.add_argument("--against", help="a second weights file, compared board by board")
    parser.add_argument("--episodes", type=int, default=2000, help="boards per board and rule")
    parser.add_argument(
        "--rule-episodes",
        type=int,
        help="boards per board under the rules other than opening (default: --episodes)",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--boards", default=",".join(BOARDS), help="comma-separated")
    parser.add_argument("--rules", default=",".join(RULES), help="comma-separated")
    parser.add_argument("--no-bot", action="store_true", help="leave the solver's Bot out")
    parser.add_argument("--record", action="store_true", help="write the figures into WEIGHTS")
    parser.add_argument("--json", type=Path, help="write every figure to this file as well")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    try:
        boards = {name: board_options(name) for name in args.boards.split(",")}
    except (MinesError, ValueError) as error:
        parser.error(f"--boards: {error}")
    rules = args.rules.split(",")
    unknown = sorted(set(rules) - set(RULES))
    if unknown:
        parser.error(f"--rules takes {', '.join(RULES)}; got {', '.join(unknown)}")
    nets = {"net": load_net(args.weights)}
    if args.against:
        nets["other"] = load_net(args.against)
    table: dict[str, Any] = {}
    print("| board | first click | boards | " + " | ".join(nets) + " | Bot | paired |")
    print("|---|---|---|" + "---|" * (len(nets) + 2))
    for name, options in boards.items():
        for rule in rules:
            episodes = args.episodes if rule == "opening" else args.rule_episodes or args.episodes
            common = {"episodes": episodes, "seed": args.seed, "first_click": rule, **options}
            started = time.process_time()
            players: dict[str, Policy] = {
                label: NetPlayer(net, options["mines"], reuse=REUSE) for label, net in nets.items()
            }
            if not args.no_bot:
                players["Bot"] = BotPolicy(options["mines"])
            results = {label: evaluate(player, **common) for label, player in players.items()}
            pairs = [("net", other) for other in results if other != "net"]
            compared = {f"{a} vs {b}": Comparison(results[a], results[b]) for a, b in pairs}
            table[f"{name}/{rule}"] = {
                **{label: figures(result) for label, result in results.items()},
                **{
                    pair: {
                        "table": c.table,
                        "difference": round(c.difference, 4),
                        "interval": [round(x, 4) for x in c.interval],
                        "mcnemar_p": c.p_value,
                    }
                    for pair, c in compared.items()
                },
            }
            shown = " | ".join(rate(results[label]) for label in nets)
            bot = "—" if args.no_bot else rate(results["Bot"])
            paired = "; ".join(f"{pair}: {c}" for pair, c in compared.items())
            seconds = time.process_time() - started
            print(
                f"| {name} | {rule} | {episodes:,} | {shown} | {bot} | {paired} |"
                f" <!-- {seconds:.0f} CPU s -->",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n")
    if args.record:
        if not args.weights:
            parser.error("--record writes into the WEIGHTS given, not the shipped file")
        record(args.weights, args.seed, table)
        print(f"recorded in {args.weights}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
