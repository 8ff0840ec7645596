"""Game review CPU time on bot and human-like games per preset; the largest board in 10 s.

Run with `./dev bench review [--games N] [--human-games N] [--presets P ...] [--seed S]`
(under `flock -x /work/team/cpu.lock` on the shared machine). Per preset it plays N games
with the `Bot` (1,000 by default) and N human-like games with mistakes (200 by default, see
`HumanLike`), then times `review(record)` on each, in CPU time (a busy machine does not
flip the verdict), and prints the median, the 95th percentile and the worst, with what the
reviews found (verdicts per game) and, apart, the CPU time of `to_json()` on the same
reviews. Targets, for Expert only: a median of at most 0.5 s and a 95th percentile of at
most 2 s for both kinds of game. Then, unless `--no-largest`, square boards at Expert's
density (20.6% mines) of growing side are played to the end by `LuckyBot` and reviewed,
until one takes more than 10 s of CPU (or the review refuses it): the largest reviewed
exactly within 10 s is reported (no target).

With `--api N`, N Expert games played by the `Bot` are also sent move by move to a `mines
serve` on SQLite, and each one's `GET /api/games/{id}/review` is timed over HTTP in wall time
(no target): the very first (the review workers' fork server starting), the others worked out
in a worker, then all of them again read from storage; and the JSON's size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from benchmarks.checks import Checks, cpu_seconds
from mines import Game, GameStatus
from mines.errors import MinesError
from mines.placement import FirstClick, RandomPlacer
from mines.presets import PRESETS
from mines.record import GameRecord
from mines.solver import Bot, Review, review
from mines.solver.analysis import Counting, Position, solve
from mines.solver.bot import opening_click
from mines.solver.counting import Counter as ArrangementCounter
from mines.solver.rules import deduce
from mines.solver.topology import neighbours
from mines.symbols import Cell

MEDIAN, P95 = 0.5, 2.0
"""Expert's targets, in seconds of CPU time per review."""
LARGEST_SECONDS = 10.0
EXPERT_DENSITY = 99 / 480
SIDES = (30, 40, 50, 60, 70, 80, 90, 100, 120, 140, 160)


class PacedClock:
    """A game clock that moves on by a human's thinking time (0.3 to 2 s) at each reading
    a move makes, so that times and 3BV/s look like a person's."""

    def __init__(self, rng: random.Random) -> None:
        self.now = 0.0
        self.rng = rng

    def __call__(self) -> float:
        self.now += self.rng.uniform(0.3, 2.0)
        return self.now


@dataclass
class HumanLike:
    """A player who sees only the view and errs as people do, every choice from a seed.

    - It opens the cells the single-number rule proves safe (the rule most players use
      most of the time), flags a mine that rule proves with probability `flag`, and once a
      number has as many flags around it as it shows, chords it with probability `chord`
      (a wrong flag there makes the chord open a mine).
    - When the single rule is stuck, it finds the harder deductions (pairs of numbers,
      counting) only with probability `deep`; otherwise it guesses, and the guess is
      avoidable whenever a safe cell existed.
    - A guess takes the least risky cell with probability `careful`, else a random
      unrevealed cell beside the numbers, often a much riskier one.
    - With probability `slip` per move it flags an undecided cell beside the numbers (a
      wrong flag, or a right one by luck); a number with more flags around it than it
      shows makes it take one of them off.
    """

    seed: int
    flag: float = 0.5
    chord: float = 0.5
    deep: float = 0.8
    careful: float = 0.85
    slip: float = 0.002

    def play(self, game: Game) -> GameStatus:
        rng = random.Random(self.seed)
        counter = ArrangementCounter()
        rows, cols = game.rows, game.cols
        nbrs = neighbours(rows, cols)
        first = opening_click(rows, cols, game.mines)
        game.reveal(*first)
        while game.status is GameStatus.IN_PROGRESS:
            view = game.view()
            symbols = view.array.reshape(-1)
            position = Position.from_view(view, game.mines)
            values = position.values
            flagged = {c for c in range(rows * cols) if symbols[c] == _FLAG}
            hidden = {c for c in range(rows * cols) if symbols[c] == _HIDDEN}
            if self._unflag(rng, game, values, nbrs, flagged):
                continue
            single = deduce(values, cols, nbrs, pairs=False).known
            if rng.random() < self.slip:
                beside = sorted(
                    c for c in hidden if c not in single and any(values[n] > 0 for n in nbrs[c])
                )
                if beside:
                    game.toggle_flag(*divmod(rng.choice(beside), cols))
                    continue
            mines = sorted(c for c, mine in single.items() if mine and c in hidden)
            if mines and rng.random() < self.flag:
                game.toggle_flag(*divmod(mines[0], cols))
                continue
            if rng.random() < self.chord:
                ready = _chordable(values, nbrs, flagged, hidden)
                if ready:
                    game.chord(*divmod(rng.choice(ready), cols))
                    continue
            safe = sorted(c for c, mine in single.items() if not mine and c in hidden)
            if not safe and rng.random() < self.deep:
                solved = solve(position, counter)
                safe = sorted(c for c in solved.safe_cells() if c in hidden)
            if safe:
                game.reveal(*divmod(safe[0], cols))
                continue
            game.reveal(*divmod(self._guess(rng, position, counter, hidden, nbrs), cols))
        return game.status

    def _unflag(
        self,
        rng: random.Random,
        game: Game,
        values: tuple[int, ...],
        nbrs: tuple[tuple[int, ...], ...],
        flagged: set[int],
    ) -> bool:
        """Take a flag off around a number that has more flags than it shows."""
        if not flagged:
            return False
        for cell, value in enumerate(values):
            if value >= 0:
                around = [n for n in nbrs[cell] if n in flagged]
                if len(around) > value:
                    game.toggle_flag(*divmod(rng.choice(around), game.cols))
                    return True
        return False

    def _guess(
        self,
        rng: random.Random,
        position: Position,
        counter: ArrangementCounter,
        hidden: set[int],
        nbrs: tuple[tuple[int, ...], ...],
    ) -> int:
        values = position.values
        beside = sorted(c for c in hidden if any(values[n] >= 0 for n in nbrs[c]))
        if beside and rng.random() >= self.careful:
            return rng.choice(beside)
        solved = solve(position, counter)
        counts = solved.counts
        assert counts is not None
        known = solved.known
        return min(
            sorted(hidden),
            key=lambda c: counts.total * known[c] if c in known else solved.mine_weight(c),
        )


class LuckyBot:
    """Plays a board to the end, for timing reviews of whole games on big boards: every
    cell the rules or counting prove safe, and where none is, the safest cell that is in
    fact safe (it peeks at the layout only then), so it never loses."""

    def play(self, game: Game) -> None:
        counter = ArrangementCounter()
        game.reveal(*opening_click(game.rows, game.cols, game.mines))
        layout: set[tuple[int, int]] | None = None
        while game.status is GameStatus.IN_PROGRESS:
            view = game.view()
            solved = solve(Position.from_view(view, game.mines), counter, count=Counting.IF_STUCK)
            symbols = view.array.reshape(-1)
            if solved.counts is None:  # the local rules found safe cells: open them all
                for cell in solved.safe_cells():
                    game.reveal(*divmod(cell, game.cols))
                continue
            safe = solved.safe_cells()  # counting found some, or none is certain
            if safe:
                game.reveal(*divmod(safe[0], game.cols))
                continue
            layout = layout or set(game.record().layout or ())
            options = [
                c
                for c in solved.undecided()
                if symbols[c] == _HIDDEN and divmod(c, game.cols) not in layout
            ]
            cell = min(options, key=solved.mine_weight)
            game.reveal(*divmod(cell, game.cols))


_FLAG = ord(Cell.FLAG.value)
_HIDDEN = ord(Cell.HIDDEN.value)


def _chordable(
    values: tuple[int, ...],
    nbrs: tuple[tuple[int, ...], ...],
    flagged: set[int],
    hidden: set[int],
) -> list[int]:
    """Numbers with as many flags around them as they show and a hidden cell to open."""
    return [
        cell
        for cell, value in enumerate(values)
        if value > 0
        and sum(n in flagged for n in nbrs[cell]) == value
        and any(n in hidden for n in nbrs[cell])
    ]


def bot_game(preset: str, seed: int) -> GameRecord:
    game = Game.from_preset(preset, seed=seed)
    Bot(seed).play(game)
    return game.record()


def human_game(preset: str, seed: int) -> GameRecord:
    p = PRESETS[preset]
    rng = random.Random(seed)
    game = Game(
        p.rows,
        p.cols,
        p.mines,
        placer=RandomPlacer(seed, FirstClick.OPENING),
        clock=PacedClock(rng),
    )
    HumanLike(seed).play(game)
    return game.record()


@dataclass
class Timings:
    """CPU seconds of each review, and of `to_json` on it, with what the reviews found."""

    seconds: list[float]
    json_seconds: list[float]
    verdicts: Counter[str]
    games: int
    won: int

    def percentile(self, share: float, values: list[float] | None = None) -> float:
        ordered = sorted(self.seconds if values is None else values)
        return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]

    def line(self) -> str:
        s = self.seconds
        found = ", ".join(f"{v} {n / self.games:.1f}" for v, n in sorted(self.verdicts.items()))
        return (
            f"review median {statistics.median(s) * 1000:.0f} ms, p95 "
            f"{self.percentile(0.95) * 1000:.0f} ms, max {max(s) * 1000:.0f} ms of CPU; "
            f"to_json median {statistics.median(self.json_seconds) * 1000:.0f} ms, p95 "
            f"{self.percentile(0.95, self.json_seconds) * 1000:.0f} ms; {self.won} of "
            f"{self.games} won; per game: {found}"
        )


def time_reviews(records: Iterable[GameRecord]) -> Timings:
    seconds: list[float] = []
    json_seconds: list[float] = []
    verdicts: Counter[str] = Counter()
    games = won = 0
    for record in records:
        found: list[Review] = []
        seconds.append(cpu_seconds(lambda: found.append(review(record))))  # noqa: B023
        json_seconds.append(cpu_seconds(found[0].to_json))
        verdicts.update(m.verdict.value for m in found[0].moves)
        games += 1
        won += record.status is GameStatus.WON
    return Timings(seconds, json_seconds, verdicts, games, won)


def large_game(side: int, seed: int) -> GameRecord:
    """A whole game on a square board at Expert's density, played by `LuckyBot`."""
    game = Game(side, side, round(side * side * EXPERT_DENSITY), seed=seed)
    LuckyBot().play(game)
    return game.record()


def largest(report: Callable[[str], None]) -> tuple[int, float] | None:
    """The largest square board at Expert's density reviewed within 10 s, and its time."""
    best: tuple[int, float] | None = None
    for side in SIDES:
        record = large_game(side, side)
        mines = record.mines
        try:
            seconds = cpu_seconds(lambda: review(record))  # noqa: B023
        except MinesError as error:
            report(f"{side}x{side}, {mines} mines, {len(record.moves)} moves: refused: {error}")
            break
        report(f"{side}x{side}, {mines} mines, {len(record.moves):,} moves: {seconds:.2f} s of CPU")
        if seconds > LARGEST_SECONDS:
            break
        best = (side, seconds)
    return best


API_KINDS = {"O": "reveal", "F": "flag", "C": "chord"}


def api_timings(games: int, seed: int) -> None:
    """Time the review endpoint of a real server over HTTP (see the module's docstring)."""
    import httpx

    from benchmarks.load import RAISED_RATES
    from tests.server.processes import server_process

    rates = [*RAISED_RATES, "--rate-limit-game", "1000000/second"]
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{folder}/review.sqlite3"
        with (
            server_process(database, extra=rates) as server,
            httpx.Client(base_url=server.url, timeout=300) as client,
        ):
            ids = []
            for game_seed in range(seed, seed + games):
                record = bot_game("expert", game_seed)
                made = client.post("/api/games", json={"preset": "expert", "seed": game_seed})
                game = made.json()
                headers = {"Authorization": f"Bearer {game['token']}"}
                for timed in record.moves:
                    move = timed.move
                    kind = API_KINDS[str(move)[0]]
                    where = f"/api/games/{game['id']}/{kind}"
                    answer = client.post(
                        where, json={"row": move.row, "col": move.col}, headers=headers
                    )
                    answer.raise_for_status()
                ids.append(game["id"])
            worked, sizes = [], []
            for game_id in ids:
                start = time.perf_counter()
                answer = client.get(f"/api/games/{game_id}/review")
                worked.append(time.perf_counter() - start)
                answer.raise_for_status()
                sizes.append(len(answer.content))
            stored = []
            for game_id in ids:
                start = time.perf_counter()
                client.get(f"/api/games/{game_id}/review").raise_for_status()
                stored.append(time.perf_counter() - start)
    rest = worked[1:] or worked
    print(
        f"no target: GET /api/games/{{id}}/review over HTTP, {games} Expert bot games, wall "
        f"time: the first {worked[0] * 1000:,.0f} ms, then median "
        f"{statistics.median(rest) * 1000:.0f} ms, slowest {max(rest) * 1000:.0f} ms; read "
        f"from storage median {statistics.median(stored) * 1000:.1f} ms; JSON median "
        f"{statistics.median(sizes) / 1000:.0f} kB, largest {max(sizes) / 1000:.0f} kB",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="bot games per preset")
    parser.add_argument("--human-games", type=int, default=200, help="human-like games")
    parser.add_argument(
        "--presets",
        nargs="+",
        choices=sorted(PRESETS),
        default=["expert", "intermediate", "beginner"],
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--no-largest", action="store_true", help="skip the largest-board search")
    parser.add_argument(
        "--api", type=int, default=0, metavar="N", help="also time the review endpoint on N games"
    )
    args = parser.parse_args()
    for name in ("games", "human_games"):
        if getattr(args, name) < 1:
            parser.error(
                f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}"
            )
    checks = Checks()
    for preset in args.presets:
        for kind, make, count in (
            ("bot", bot_game, args.games),
            ("human-like", human_game, args.human_games),
        ):
            start = time.process_time()
            records = [make(preset, seed) for seed in range(args.seed, args.seed + count)]
            made = time.process_time() - start
            timings = time_reviews(records)
            print(
                f"{preset}, {count} {kind} games (played in {made:.0f} s): {timings.line()}",
                flush=True,
            )
            if preset == "expert":
                median, p95 = statistics.median(timings.seconds), timings.percentile(0.95)
                checks.report(
                    f"Expert {kind} reviews",
                    median <= MEDIAN and p95 <= P95,
                    f"median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms of CPU over "
                    f"{count} games (targets <= {MEDIAN * 1000:.0f} ms and <= {P95:.0f} s)",
                )
    if not args.no_largest:
        found = largest(lambda text: print(f"largest board: {text}", flush=True))
        if found is None:
            print("largest board: none of the sizes tried was reviewed within 10 s")
        else:
            side, seconds = found
            print(
                f"no target: the largest board reviewed exactly within {LARGEST_SECONDS:.0f} s "
                f"of CPU: {side}x{side} with {round(side * side * EXPERT_DENSITY)} mines "
                f"({seconds:.2f} s)"
            )
    if args.api:
        api_timings(args.api, args.seed)
    return checks.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
