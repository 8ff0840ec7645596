"""`mines bench winrate|decide|nog`, `mines hint`, `mines solve`: the solver on the command line."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from mines.errors import InvalidBoardError
from mines.placement import FirstClick
from mines.presets import PRESETS, preset
from mines.view import BoardView

if TYPE_CHECKING:
    from mines.clock import Clock
    from mines.solver.bench import Generation, WinRate

POSITION_HELP = (
    "Reads the position on standard input, one row per line in view symbols: "
    "H hidden, F flag, 0-8 revealed numbers (spaces are ignored). Flags are not trusted "
    "as mines. Give the total number of mines on the whole board, flagged ones included, "
    "with --mines N."
)


DECIDE_HELP = (
    "Estimates each candidate cell's chance to win the game from a position: layouts are "
    "drawn exactly from what the position shows (uniformly among those that fit the numbers "
    "and the mine total), the candidate is opened and the bot plays on to the end. Every "
    "candidate sees the same layouts, so their differences are tight. With --positions, two "
    "policies' choices are compared on every position, overall and by kind of position."
)


def _add_run_options(command: Any, block: str) -> None:
    command.add_argument(
        "--results",
        help=f"keep each finished {block} in this file; run again with it to resume",
    )
    command.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only on a terminal anyway)",
    )


def register(subparsers: Any) -> None:
    bench = subparsers.add_parser("bench", help="measure the solver's strength and speed")
    kinds = bench.add_subparsers(dest="bench", required=True, metavar="WHAT")
    # Not `solver`, its old name: `./dev bench solver` is another benchmark (the speed targets).
    solver = kinds.add_parser("winrate", help="bot win rate with its 95%% interval, games/s")
    solver.add_argument("--preset", choices=sorted(PRESETS), default="expert")
    solver.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    solver.add_argument(
        "--first-click",
        choices=(FirstClick.OPENING, FirstClick.SAFE),
        default=FirstClick.OPENING,
        help="opening: the first click opens an area, at (3, 3) on expert and (2, 2) on the "
        "sparser presets; safe: only the first click, "
        "in the corner (0, 0), is safe",
    )
    solver.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    solver.add_argument("--jobs", type=int, default=1, help="processes to play on (default 1)")
    solver.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="spread the blocks over Dask workers: 'local' for a local cluster of --jobs "
        "processes, or a scheduler's address such as tcp://10.0.0.1:8786 (needs "
        "mines[cluster]); the totals are the same however the games are spread",
    )
    _add_run_options(solver, "block")
    solver.add_argument(
        "--block", type=int, default=200, help="games per block of seeds kept (default 200)"
    )
    solver.set_defaults(handler=run_bench_solver)
    decide = kinds.add_parser(
        "decide",
        help="each candidate guess's chance to win from a position, on the same drawn layouts",
        description=DECIDE_HELP,
    )
    decide.add_argument(
        "--positions",
        help="a JSON-lines file of positions and two policies' choices (else one position "
        "on standard input, with --mines and --cell)",
    )
    decide.add_argument("--mines", type=int, help="with a position on stdin: total mines")
    decide.add_argument(
        "--cell",
        action="append",
        default=[],
        metavar="ROW,COL",
        help="with a position on stdin: a candidate cell (repeat for each)",
    )
    decide.add_argument(
        "--a", default="jsm_choice", help="the first policy's field (default jsm_choice)"
    )
    decide.add_argument(
        "--b", default="mines_choice", help="the second policy's field (default mines_choice)"
    )
    decide.add_argument(
        "--condition", help="only the positions of this condition (the field `condition`)"
    )
    decide.add_argument(
        "--sample", type=int, help="evaluate this many positions drawn at random (default all)"
    )
    decide.add_argument(
        "--draws", type=int, default=100, help="layouts drawn per position (default 100)"
    )
    decide.add_argument("--seed", type=int, default=0, help="seed of the draws (default 0)")
    decide.add_argument("--jobs", type=int, default=1, help="processes to play on (default 1)")
    _add_run_options(decide, "position (or, for one position, block of draws)")
    decide.add_argument(
        "--block",
        type=int,
        default=200,
        help="for one position: draws per block kept in --results (default 200)",
    )
    decide.set_defaults(handler=run_bench_decide)
    nog = kinds.add_parser("nog", help="no-guess board generation times, each board verified")
    nog.add_argument("--preset", choices=sorted(PRESETS), help="board size (default expert)")
    nog.add_argument("--rows", type=int, help="custom board height")
    nog.add_argument("--cols", type=int, help="custom board width")
    nog.add_argument("--mines", type=int, help="custom mine count")
    nog.add_argument("--boards", type=int, default=100, help="boards to make (default 100)")
    nog.add_argument("--seed", type=int, default=0, help="seed of the first board (default 0)")
    nog.set_defaults(handler=run_bench_nog)
    for name, helptext, handler in (
        ("hint", "the next move for a position read from stdin", run_hint),
        ("solve", "every hidden cell's status and mine chance, for a position on stdin", run_solve),
    ):
        command = subparsers.add_parser(name, help=helptext, description=POSITION_HELP)
        command.add_argument(
            "--mines", type=int, required=True, help="total mines on the board, flags included"
        )
        if name == "solve":
            command.add_argument(
                "--exact", action="store_true", help="also list every chance as a fraction"
            )
        command.set_defaults(handler=handler)


def _positive(name: str, value: int) -> int:
    if value < 1:
        raise InvalidBoardError(f"--{name} must be at least 1, got {value}")
    return value


def run_bench_solver(args: argparse.Namespace) -> int:
    measure_win_rate(args)
    return 0


def measure_win_rate(args: argparse.Namespace) -> WinRate:
    """Play the games `mines bench winrate` was asked for, print the result and return it."""
    from mines.solver.bench import first_click, win_rate

    p = preset(args.preset)
    result = win_rate(
        p.rows,
        p.cols,
        p.mines,
        condition=args.first_click,
        games=_positive("games", args.games),
        seed=args.seed,
        jobs=_positive("jobs", args.jobs),
        block=_positive("block", args.block),
        results=args.results,
        progress=False if args.no_progress else None,
        cluster=args.cluster,
    )
    low, high = result.interval()
    at = first_click(args.first_click, p.rows, p.cols, p.mines)
    where = f"{args.jobs} job(s)"
    if args.cluster == "local":
        where = f"a local Dask cluster of {args.jobs} worker(s)"
    elif args.cluster is not None:
        where = f"the Dask scheduler at {args.cluster}"
    print(
        f"{p.name} {p.rows}x{p.cols}/{p.mines}, first click {args.first_click} at "
        f"{at}, seeds {args.seed}..{args.seed + args.games - 1}, {where}"
    )
    print(
        f"won {result.wins} of {result.games}: {result.rate:.2%} "
        f"(95% interval {low:.2%} to {high:.2%}, Wilson)"
    )
    print(f"{result.guesses / result.games:.2f} guesses per game (moves not certainly safe)")
    played = result.games if result.played is None else result.played
    if played < result.games:
        print(f"{result.games - played} games read back from {args.results}, {played} played")
    speed = f"{played / result.seconds:.1f} games/s wall clock, " if played else ""
    print(f"{speed}{result.games / result.cpu_seconds:.1f} games per CPU second (per core)")
    return result


def _cell(text: str) -> tuple[int, int]:
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise InvalidBoardError(f"--cell takes ROW,COL such as 3,4, got {text!r}") from None
    return row, col


def run_bench_decide(args: argparse.Namespace) -> int:
    from mines.solver.decide import compare, evaluate_position, read_cases, report, sample

    draws = _positive("draws", args.draws)
    if args.positions is None:
        if args.mines is None or not args.cell:
            raise InvalidBoardError(
                "give --positions FILE, or a position on stdin with --mines N and --cell ROW,COL"
            )
        view = read_position(sys.stdin, args.mines)
        decision = evaluate_position(
            view,
            [_cell(c) for c in args.cell],
            draws=draws,
            seed=args.seed,
            block=_positive("block", args.block),
            results=args.results,
            progress=False if args.no_progress else None,
        )
        print(f"{draws} layouts drawn from the position, the bot playing on after each cell:")
        for estimate in decision.estimates:
            print(f"{estimate.cell}: wins {estimate.rate:.2%} ± {estimate.stderr:.2%}")
        for i in range(1, len(decision.cells)):
            diff, stderr = decision.difference(0, i)
            print(f"{decision.cells[0]} - {decision.cells[i]}: {diff:+.2%} ± {stderr:.2%}")
        return 0
    cases = read_cases(args.positions, args.a, args.b)
    if args.condition:
        cases = [c for c in cases if c.condition == args.condition]
    if not cases:
        raise InvalidBoardError(f"no positions to evaluate in {args.positions}")
    picked = sample(cases, args.sample and _positive("sample", args.sample), args.seed)
    comparison = compare(
        picked,
        draws=draws,
        seed=args.seed,
        jobs=_positive("jobs", args.jobs),
        results=args.results,
        progress=False if args.no_progress else None,
    )
    print(f"{draws} layouts per position, seed {args.seed}; {args.a} minus {args.b}:")
    print("\n".join(report(comparison, (args.a, args.b))))
    return 0


def run_bench_nog(args: argparse.Namespace) -> int:
    _, result = measure_generation(args)
    return 0 if result.verified == len(result.seconds) else 1


def measure_generation(
    args: argparse.Namespace, clock: Clock = time.perf_counter, clock_name: str = "wall clock"
) -> tuple[tuple[int, int, int], Generation]:
    """Make the boards `mines bench nog` was asked for, timed by `clock`, print them and return
    the board's (rows, cols, mines) with the times."""
    from mines.solver.bench import generate

    custom = (args.rows, args.cols, args.mines)
    if any(v is not None for v in custom):
        if args.preset or any(v is None for v in custom):
            raise InvalidBoardError("give either --preset or all of --rows, --cols and --mines")
        rows, cols, mines = custom
    else:
        p = preset(args.preset or "expert")
        rows, cols, mines = p.rows, p.cols, p.mines
    boards = _positive("boards", args.boards)
    result = generate(rows, cols, mines, boards=boards, seed=args.seed, clock=clock)
    n = len(result.seconds)
    print(f"{rows}x{cols}/{mines}, {n} boards, seeds {args.seed}..{args.seed + n - 1}")
    print(
        f"generation ms ({clock_name}): "
        + ", ".join(
            f"{label} {result.percentile(q) * 1000:.1f}"
            for label, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
        )
    )
    print(f"verified by a deduction-only replay through Game: {result.verified} of {n}")
    return (rows, cols, mines), result


def read_position(stream: TextIO, mines: int) -> BoardView:
    """The view a text position stands for, with the mine total given on the command line."""
    lines = [line.replace(" ", "").strip() for line in stream]
    lines = [line for line in lines if line]
    if not lines:
        raise InvalidBoardError("no position on standard input: " + POSITION_HELP)
    if mines < 0:
        raise InvalidBoardError(f"--mines must be 0 or more, got {mines}")
    flags = sum(line.count("F") for line in lines)
    try:
        return BoardView.from_strings(lines, mines_left=mines - flags)
    except ValueError as error:
        raise InvalidBoardError(f"cannot read the position: {error}") from None


def run_hint(args: argparse.Namespace) -> int:
    from mines.solver.hint import hint

    view = read_position(sys.stdin, args.mines)
    found = hint(view)
    where = f"({found.row}, {found.col})"
    if found.safe:
        print(f"open {where}: certainly safe")
    else:
        chance = found.mine_probability
        print(f"open {where}: chance of a mine {chance} (about {float(chance):.1%})")
    print(f"why: {found.reason}")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    from mines.solver.analysis import analyze, mines_phrase

    view = read_position(sys.stdin, args.mines)
    result = analyze(view)
    print(
        f"{mines_phrase(result.mines).removeprefix('the ')} among "
        f"{len(result.probabilities)} unrevealed cells; "
        f"{result.arrangements} arrangements fit the numbers"
    )
    print("S certainly safe, * certainly a mine, else the chance of a mine in percent:")
    for row, line in enumerate(view.to_strings()):
        cells = []
        for col, symbol in enumerate(line):
            p = result.probabilities.get((row, col))
            if p is None:
                cells.append(f"{symbol:>3}")
            elif p == 0:
                cells.append("  S")
            elif p == 1:
                cells.append("  *")
            else:
                cells.append(f"{min(99, max(1, round(float(p) * 100))):>3}")
        print("".join(cells))
    for cell in sorted(result.reasons):
        print(f"{cell}: {result.reasons[cell]}")
    if args.exact:
        for cell, p in sorted(result.probabilities.items()):
            print(f"{cell}: {p}")
    return 0
