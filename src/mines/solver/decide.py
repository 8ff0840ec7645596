"""`mines bench decide`: candidate guesses evaluated where they are made, in resumable runs.

For one position, `evaluate_position` plays its candidates on drawn layouts in blocks of
draws, each kept as it ends. For many, `compare` reads positions in the shared JSON-lines
format (per line: `board`, rows of `H` and `0`-`8`, row 0 first; `mines_left`; and one
field per policy holding the `[row, col]` it chose, by default `jsm_choice` and
`mines_choice`), evaluates both choices of each position on the same draws
(`mines.solver.evaluate`), and reports the mean difference between the two policies with
its standard error, overall and by kind of position. One position is one block of the
results file, so a stopped run resumes where it was.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from mines.errors import InvalidBoardError
from mines.solver.analysis import Position, solve
from mines.solver.blocks import BlockLog, Record
from mines.solver.counting import Counter
from mines.solver.evaluate import Coord, Decision, candidate_cells, evaluate, mean_and_stderr
from mines.solver.fifty import trap_weights
from mines.solver.progress import RunProgress
from mines.solver.rules import UNKNOWN
from mines.solver.topology import neighbours
from mines.view import BoardView

KINDS = ("fifty-fifty", "opener", "far", "trade", "level")
"""The kinds of position, in the order the rules below are tried (the first that fits)."""


@dataclass(frozen=True, slots=True)
class Case:
    """One position to evaluate: its line number in the file, the board, the mines left
    (none are flagged) and the two policies' choices, `a` first."""

    line: int
    board: tuple[str, ...]
    mines_left: int
    a: Coord
    b: Coord
    condition: str = ""

    def view(self) -> BoardView:
        return BoardView.from_strings(list(self.board), mines_left=self.mines_left)


def read_cases(path: str | os.PathLike[str], a: str, b: str) -> list[Case]:
    """Every position of a JSON-lines file, with the choices in fields `a` and `b`."""
    cases: list[Case] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidBoardError(f"cannot read the positions file {path}: {error}") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            board = tuple(str(row) for row in record["board"])
            first, second = ((int(record[f][0]), int(record[f][1])) for f in (a, b))
            condition = str(record.get("condition", ""))
            mines_left = int(record["mines_left"])
            case = Case(number, board, mines_left, first, second, condition)
            case.view()  # the board must read as a view
            cases.append(case)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError) as error:
            raise InvalidBoardError(
                f"{path} line {number}: expected an object with board (a list of rows), "
                f"mines_left and [row, col] in {a!r} and {b!r} ({error})"
            ) from None
    return cases


def evaluate_position(
    view: BoardView,
    cells: Sequence[Coord],
    *,
    draws: int,
    seed: int = 0,
    block: int = 200,
    results: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> Decision:
    """`evaluate` in blocks of `block` draws, each kept in `results` as soon as it ends; a
    run given the same file again plays only the blocks it lacks (a run asking for more
    draws adds blocks). A draw is the same whichever block plays it, so the result is that
    of one `evaluate` of all the draws."""
    if draws < 1 or block < 1:
        raise InvalidBoardError(f"draws and block must be at least 1, got {draws} and {block}")
    candidates = candidate_cells(Position.from_view(view), cells)
    settings = {
        "bench": "decide-position",
        "board": view.to_strings(),
        "mines_left": view.mines_left,
        "cells": [list(cell) for cell in candidates],
        "seed": seed,
        "block": block,
    }
    log = BlockLog(results, settings)
    starts = range(0, draws, block)

    def kept(start: int) -> bool:
        record = log.done.get(str(start))
        return record is not None and len(record["won"][0]) == min(block, draws - start)

    done = sum(min(block, draws - s) for s in starts if kept(s))
    with RunProgress(draws, unit="draws", done=done, enabled=progress) as bar:
        for start in starts:
            if kept(start):
                continue
            size = min(block, draws - start)
            part = evaluate(view, candidates, draws=size, seed=seed, first=start)
            log.add(str(start), {"won": part.won, "guesses": part.guesses})
            bar.advance(size)
    won: list[list[bool]] = [[] for _ in candidates]
    guesses: list[list[int | None]] = [[] for _ in candidates]
    for start in starts:
        record = log.done[str(start)]
        for i in range(len(candidates)):
            won[i].extend(bool(w) for w in record["won"][i])
            guesses[i].extend(record["guesses"][i])
    return Decision(tuple(candidates), tuple(map(tuple, won)), tuple(map(tuple, guesses)))


def classify(case: Case) -> str:
    """The kind of position, by the first of these rules that fits:

    - fifty-fifty: one choice is a true or pseudo 50/50 (a mine only inside a 50/50 no
      number could settle, `mines.solver.fifty`) and the other is not;
    - opener: at most 9 cells are revealed (the first click, or the area it opened has
      not grown), so the guess picks where to start;
    - far: one choice touches no revealed number and the other does;
    - trade: the two choices' chances of a mine differ (by more than 1e-9): one trades
      safety for progress;
    - level: as safe as each other, both next to numbers or both away from them.
    """
    position = Position.from_view(case.view())
    solved = solve(position, Counter())
    counts = solved.counts
    assert counts is not None
    cols = position.cols
    nbrs = neighbours(position.rows, cols)
    cells = [row * cols + col for row, col in (case.a, case.b)]
    undecided = set(solved.undecided())
    pseudo = []
    for cell in cells:
        mine = solved.mine_weight(cell) if cell in undecided else 0
        pseudo.append(bool(mine) and max(trap_weights(solved, cell, Counter()).values()) == mine)
    if pseudo[0] != pseudo[1]:
        return "fifty-fifty"
    if sum(value != UNKNOWN for value in position.values) <= 9:
        return "opener"
    touching = [any(position.values[n] != UNKNOWN for n in nbrs[c]) for c in cells]
    if touching[0] != touching[1]:
        return "far"
    chances = [solved.mine_weight(c) / counts.total if c in undecided else 0.0 for c in cells]
    if abs(chances[0] - chances[1]) > 1e-9:
        return "trade"
    return "level"


def evaluate_case(case: Case, draws: int, seed: int) -> Record:
    """Both choices of one position on the same draws: wins of each, the mean paired
    difference (a minus b) with its standard error, and the kind of position."""
    start = time.process_time()
    decision = evaluate(case.view(), [case.a, case.b], draws=draws, seed=seed + case.line)
    diff, stderr = decision.difference()
    both_safe, guesses, guesses_stderr = decision.guess_difference()
    return {
        "line": case.line,
        "kind": classify(case),
        "draws": draws,
        "wins": [e.wins for e in decision.estimates],
        "diff": diff,
        "stderr": stderr,
        "both_safe": both_safe,
        "guess_diff": guesses,
        "guess_stderr": guesses_stderr,
        "cpu_seconds": time.process_time() - start,
    }


@dataclass(frozen=True, slots=True)
class Comparison:
    """Per-position results, and what they say about the two policies."""

    records: tuple[Record, ...]

    def summary(self, kind: str | None = None) -> tuple[int, float, float]:
        """(positions, mean of a's win chance minus b's, its standard error) over every
        position, or those of one kind. The error is the spread of the positions' own
        differences, so it covers both the draws' noise and which positions were taken."""
        diffs = [r["diff"] for r in self.records if kind is None or r["kind"] == kind]
        if not diffs:
            return 0, 0.0, 0.0
        mean, stderr = mean_and_stderr(diffs)
        return len(diffs), mean, stderr

    def rates(self) -> tuple[float, float]:
        """The mean win chance of a's and of b's choices over the positions."""
        n = len(self.records)
        a, b = (sum(r["wins"][i] / r["draws"] for r in self.records) / n for i in (0, 1))
        return a, b


def sample(cases: Sequence[Case], count: int | None, seed: int) -> list[Case]:
    """`count` positions drawn at random (by `seed`) without replacement, or all of them."""
    if count is None or count >= len(cases):
        return list(cases)
    return random.Random(seed).sample(list(cases), count)


def compare(
    cases: Iterable[Case],
    *,
    draws: int,
    seed: int = 0,
    jobs: int = 1,
    results: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    on_record: Callable[[Record], None] | None = None,
) -> Comparison:
    """Evaluate every case (`jobs` processes), keeping each finished one in `results`;
    a run given the same file again evaluates only the cases it lacks."""
    todo_all = list(cases)
    log = BlockLog(results, {"bench": "decide", "draws": draws, "seed": seed})
    kept = [log.done[str(c.line)] for c in todo_all if str(c.line) in log.done]
    todo = [c for c in todo_all if str(c.line) not in log.done]
    records: list[Record] = list(kept)
    start = time.perf_counter()
    played = 0
    with RunProgress(len(todo_all), unit="positions", done=len(kept), enabled=progress) as bar:

        def finished(record: Record) -> None:
            nonlocal played
            log.add(str(record["line"]), record)
            records.append(record)
            played += 1
            _, mean, stderr = Comparison(tuple(records)).summary()
            bar.advance(
                1,
                status=f"a-b {mean:+.2%} ± {stderr:.2%}",
                per_second=played / max(time.perf_counter() - start, 1e-9),
            )
            if on_record is not None:
                on_record(record)

        if jobs == 1:
            for case in todo:
                finished(evaluate_case(case, draws, seed))
        elif todo:
            with ProcessPoolExecutor(jobs) as pool:
                futures = [pool.submit(evaluate_case, case, draws, seed) for case in todo]
                for future in as_completed(futures):
                    finished(future.result())
    order = {c.line: i for i, c in enumerate(todo_all)}
    records.sort(key=lambda r: order[r["line"]])
    return Comparison(tuple(records))


def report(comparison: Comparison, names: tuple[str, str]) -> list[str]:
    """The lines `mines bench decide` prints: overall, then by kind."""
    n, mean, stderr = comparison.summary()
    rate_a, rate_b = comparison.rates()
    lines = [
        f"{n} positions: {names[0]} wins {rate_a:.2%}, {names[1]} {rate_b:.2%}; "
        f"{names[0]} - {names[1]} = {mean:+.2%} ± {stderr:.2%} (standard error)",
    ]
    for kind in KINDS:
        count, mean, stderr = comparison.summary(kind)
        if count:
            lines.append(f"  {kind:12} {count:5} positions: {mean:+.2%} ± {stderr:.2%}")
    return lines
