"""`review`: every move of a finished game judged by the exact solver, from the view before it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from mines.errors import GameInProgressError, InvalidBoardError
from mines.game import Game, chord_targets
from mines.grid import block_around
from mines.moves import Move, MoveKind
from mines.record import GameRecord
from mines.replay import replay, replay_steps
from mines.scoring import Score
from mines.solver.analysis import Position, Solved, solve
from mines.solver.counting import Budget, BudgetExceededError, Counter, NoArrangementError
from mines.solver.firstclick import kept_free
from mines.status import GameStatus
from mines.symbols import Cell
from mines.view import BoardView

RISKY_MARGIN = Fraction(1, 20)
"""A guess up to 5 percentage points riskier than the least risky cell is a `GUESS`; past
that it is `RISKY`. The bot itself weighs every cell within 0.04 of the safest, because
a cell that opens more of the board can be worth a little more risk (a wider shortlist,
0.07, measured no better); 0.05 leaves such trades alone and marks the clear mistakes."""
WORK_LIMIT = 6_000_000
"""The most cells times moves an exact review takes on. Each move is judged on the whole
board, so the work grows with both: a 50x50 game at Expert's density (1,088 moves, 2.7
million cell-moves) took 3.1 s of CPU, a 60x60 one (1,580 moves, 5.7 million) 8.1 s; this
limit keeps a review within about 10 s."""
COUNT_STEPS = 1_000_000
"""The most counting steps (solutions and dead ends of the exact search) a review spends
over all its moves, about 6 s of CPU: a frontier tangled enough to need more is refused,
not waited on. Real games use far fewer (the most in 100 Expert games by the bot: 16,531)."""

_FLAG = ord(Cell.FLAG.value)
_HIDDEN = ord(Cell.HIDDEN.value)

Coord = tuple[int, int]


class ReviewTooLargeError(InvalidBoardError):
    """A game too big, or a position too tangled, to review exactly; the message says which
    limit it met and where."""


SAFE_EXISTED = "a certainly safe cell existed"
SAFER_EXISTED = "a much safer cell existed"
NONE = "\N{EN DASH}"
"""A figure that says nothing of this game (the pace of a lost one)."""


class Verdict(StrEnum):
    """How a move is judged, from what the player could see just before it."""

    LOGIC = "logic"
    """A reveal or chord that was certainly safe (risk 0)."""
    GUESS = "guess"
    """No cell was certainly safe, and the move took the least risk or close to it
    (within `RISKY_MARGIN`)."""
    AVOIDABLE = "avoidable"
    """A certainly safe cell existed, yet the move took a risk."""
    RISKY = "risky"
    """No cell was certainly safe, and the move's risk was more than `RISKY_MARGIN` above
    the least."""
    FLAG = "flag"
    """A flag on a cell that was certainly a mine."""
    WRONG_FLAG = "wrong-flag"
    """A flag on a cell that was not certainly a mine (it may have been one by luck)."""
    UNFLAG = "unflag"
    """A flag taken off: an annotation withdrawn, neither good nor bad."""
    LOST = "lost"
    """The move that hit a mine; its risk says what it risked, `Review.lost_on` how the
    choice is judged."""


LABELS = {
    Verdict.LOGIC: "certainly safe",
    Verdict.GUESS: "a guess",
    Verdict.AVOIDABLE: "an avoidable guess",
    Verdict.RISKY: "a risky guess",
    Verdict.FLAG: "a flag on a certain mine",
    Verdict.WRONG_FLAG: "a flag that was not certain",
    Verdict.UNFLAG: "a flag taken off",
    Verdict.LOST: "hit a mine",
}
"""Each verdict in a few words (`MoveReview.label`), for a list of moves."""


@dataclass(frozen=True, slots=True)
class Chances:
    """Each unrevealed cell's chance of a mine at one moment, as counts of arrangements.

    `weights[cell]` of `total` arrangements have a mine on that flat cell (`row * cols +
    col`); every unrevealed cell not in `weights`, all of them away from the numbers,
    has `others` of them. A certain cell has 0 or `total`.
    """

    board: BoardView
    total: int
    weights: Mapping[int, int] = field(repr=False)
    others: int

    def weight(self, cell: int) -> int:
        return self.weights.get(cell, self.others)

    def chance(self, row: int, col: int) -> Fraction:
        """The chance of a mine in one unrevealed cell (flagged or not)."""
        if self.board.symbol(row, col) not in (Cell.HIDDEN, Cell.FLAG):
            raise InvalidBoardError(f"({row}, {col}) was revealed: it has no chance of a mine")
        return Fraction(self.weight(row * self.board.cols + col), self.total)

    def unrevealed(self) -> Iterator[int]:
        """The flat cells that were unrevealed, flagged or not."""
        symbols = self.board.array.reshape(-1)
        yield from ((symbols == _HIDDEN) | (symbols == _FLAG)).nonzero()[0].tolist()

    def least(self) -> Fraction:
        """The least chance of a mine over every unrevealed cell."""
        return Fraction(min(map(self.weight, self.unrevealed())), self.total)

    def certain(self) -> dict[int, bool]:
        """The unrevealed flat cells known for certain: True for a mine, False for safe."""
        total = self.total
        found = {}
        for cell in self.unrevealed():
            weight = self.weight(cell)
            if weight in (0, total):
                found[cell] = weight > 0
        return found

    def overlay(self) -> list[list[Any]]:
        """`[[row, col, chance, "safe" | "mine" | None]]` for every unrevealed cell, the
        format of the practice overlay (`/api/games/{id}/analysis`)."""
        cols, total = self.board.cols, self.total
        cells = []
        for cell in self.unrevealed():
            weight = self.weight(cell)
            certain = "safe" if weight == 0 else "mine" if weight == total else None
            cells.append([*divmod(cell, cols), _share(weight, total), certain])
        return cells

    def undecided(self) -> dict[str, Any]:
        """`{"others": chance | None, "cells": [[row, col, chance]]}`: the unrevealed cells
        not certain whose chance is not `others`, and the chance every other undecided cell
        shares (None when there is none): the compact form `Review.to_dict` uses."""
        cols, total, others = self.board.cols, self.total, self.others
        cells = []
        shared = False
        for cell in self.unrevealed():
            weight = self.weight(cell)
            if weight in (0, total):
                continue
            if weight == others:
                shared = True
            else:
                cells.append([*divmod(cell, cols), _share(weight, total)])
        return {"others": _share(others, total) if shared else None, "cells": cells}


def _changed(before: BoardView, after: BoardView) -> list[list[Any]]:
    """The cells whose symbol differs between two views of the board, with the new symbol."""
    now = after.array
    rows, cols = (before.array != now).nonzero()
    return [[r, c, chr(now[r, c])] for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]


def _share(weight: int, total: int) -> float:
    """A chance as a float for JSON: 0 and 1 only for certain cells, else rounded to 4
    decimals, kept inside (0, 1)."""
    if weight in (0, total):
        return float(weight // total)
    return min(max(round(weight / total, 4), 0.0001), 0.9999)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move, judged from the view just before it."""

    index: int
    """The move's place in the record, from 0."""
    move: Move
    time: float
    """Seconds after the first reveal, as recorded."""
    verdict: Verdict
    risk: Fraction
    """The chance the move opened a mine: its cell for a reveal, any cell it opened for a
    chord; 0 for flags and for moves that changed nothing."""
    least_risk: Fraction
    """The least chance of a mine over every unrevealed cell (flagged or not) then."""
    safe_known: bool
    """Whether some unrevealed cell was certainly safe then."""
    useful: bool
    """Whether the move changed the board (opened a cell, or set or took off a flag)."""
    on_mine: bool
    """Whether the move's cell held a mine (for a chord: whether it opened one); known
    only because the game is over."""
    comment: str
    """The verdict in a sentence, such as "A guess at 17% where a 9% cell existed"."""
    first: bool
    """The game's first reveal: the game's rule, not the board, decided its chances."""
    chances: Chances = field(repr=False)
    """Every unrevealed cell's chance then: the risk of opening it (under the game's
    first-click rule before the first reveal), with the board as the player saw it."""

    @property
    def board(self) -> BoardView:
        """The board as the player saw it just before the move."""
        return self.chances.board

    @property
    def choice(self) -> Verdict:
        """How the choice is judged, the outcome aside: the verdict, but for the losing move,
        judged like any other (`LOGIC` never: it risked a mine)."""
        if self.verdict is Verdict.LOST:
            return _choice(self.risk, self.least_risk, self.safe_known)
        return self.verdict

    @property
    def is_guess(self) -> bool:
        """A reveal or chord that took a chance: some risk, short of a certain mine."""
        return self.move.kind is not MoveKind.FLAG and 0 < self.risk < 1

    @property
    def label(self) -> str:
        """The verdict in a few words, for a list of moves ("an avoidable guess"); the
        `comment` says it in a sentence."""
        if self.verdict is Verdict.LOST and self.risk == 1:
            return "hit a certain mine"
        return LABELS[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        """The move and its verdict as JSON data (the board and chances: `chances`)."""
        return {
            "index": self.index,
            "move": str(self.move),
            "kind": self.move.kind.name.lower(),
            "row": self.move.row,
            "col": self.move.col,
            "time": self.time,
            "verdict": self.verdict.value,
            "risk": float(self.risk),
            "least_risk": float(self.least_risk),
            "safe_known": self.safe_known,
            "useful": self.useful,
            "on_mine": self.on_mine,
            "label": self.label,
            "comment": self.comment,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))


@dataclass(frozen=True)
class Review:
    """A finished game, move by move, with the figures of the whole game."""

    rows: int
    cols: int
    mines: int
    rule: str
    status: GameStatus
    elapsed: float
    three_bv: int
    """The whole board's 3BV: the fewest left clicks that clear it."""
    moves: tuple[MoveReview, ...] = field(repr=False)
    final: BoardView = field(repr=False)
    """The board after the last move (with the mines shown, after a loss)."""
    unrecorded: int = 0
    """Clicks the record does not hold because they changed nothing (the server counts them
    apart from the moves it stores): wasted clicks, in the figures."""

    def count(self, verdict: Verdict) -> int:
        """How many moves got this verdict."""
        return sum(m.verdict is verdict for m in self.moves)

    @property
    def guesses(self) -> int:
        """Reveals and chords that took a chance, the losing move included; opening a certain
        mine is no guess."""
        return sum(m.is_guess for m in self.moves)

    @property
    def avoidable(self) -> int:
        """Reveals and chords that risked a mine where a certainly safe cell existed, the
        losing move included (a certain mine too)."""
        return sum(m.choice is Verdict.AVOIDABLE for m in self.moves)

    @property
    def risky(self) -> int:
        """Reveals and chords that risked far more than the least risk then (no cell was
        certainly safe), the losing move included."""
        return sum(m.choice is Verdict.RISKY for m in self.moves)

    @property
    def survived(self) -> int:
        """The risks the player took and survived: every reveal or chord that risked a mine
        but the losing one."""
        return sum(m.risk > 0 and m.verdict is not Verdict.LOST for m in self.moves)

    @property
    def luck(self) -> Fraction:
        """The chance of surviving every risk the player survived: the product of
        1 - risk over them (1 when the game took no risk but the one that lost it)."""
        luck = Fraction(1)
        for m in self.moves:
            if m.risk and m.verdict is not Verdict.LOST:
                luck *= 1 - m.risk
        return luck

    @property
    def losing_move(self) -> MoveReview | None:
        return next((m for m in self.moves if m.verdict is Verdict.LOST), None)

    @property
    def lost_on(self) -> Verdict | None:
        """How the choice that lost the game is judged (`GUESS`, `RISKY` or `AVOIDABLE`: bad
        luck or a bad choice); None for a won game."""
        losing = self.losing_move
        return None if losing is None else losing.choice

    @property
    def score(self) -> Score:
        """The game's figures as every front end reports them (`mines.scoring`)."""
        useful = sum(m.useful for m in self.moves)
        wasted = len(self.moves) - useful + self.unrecorded
        return Score(self.three_bv, self.elapsed, self.status is GameStatus.WON, useful, wasted)

    @property
    def clicks(self) -> int:
        """Every click: reveals, chords and flags, the wasted ones too."""
        return self.score.clicks

    @property
    def useful_clicks(self) -> int:
        """The moves that changed the board."""
        return self.score.useful_clicks

    @property
    def efficiency(self) -> float | None:
        """3BV per click in percent, for a win (`Score.efficiency`)."""
        return self.score.efficiency

    @property
    def three_bv_per_second(self) -> float | None:
        """The board's 3BV over the time played, for a win (`Score.three_bv_per_second`)."""
        return self.score.three_bv_per_second

    def to_dict(self, *, positions: bool = True) -> dict[str, Any]:
        """The review as JSON data: the game's figures, then every move (`MoveReview.to_dict`).

        `positions` adds what a review page draws, in frames as the replay sends them: the
        board before the first move (`start`, rows of view symbols); for each move, the
        chances of the undecided cells before it (`chances`, see `Chances.undecided`), the
        cells certain before it that were not certain before the move ahead of it
        (`proved`, `[row, col, "safe" | "mine"]`: a cell once certain stays so until it is
        revealed), the mines-left counter before it, and the cells it changed with their
        symbols after it (`changed`, `[row, col, symbol]`), and the mines-left counter after
        the last move (`final_mines_left`). The first reveal is the
        exception: its chances are those of opening each cell first (0 everywhere under a
        rule that keeps the first click free), and no cell is proved before it.
        """
        lost_on = self.lost_on
        moves = [m.to_dict() for m in self.moves]
        data = {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "rule": self.rule,
            "status": self.status.value,
            "elapsed": self.elapsed,
            **self.score.to_dict(),
            "guesses": self.guesses,
            "avoidable": self.avoidable,
            "risky": self.risky,
            "survived": self.survived,
            "luck": float(self.luck),
            "lost_on": None if lost_on is None else lost_on.value,
            "verdicts": {verdict.value: self.count(verdict) for verdict in Verdict},
            "risky_margin": float(RISKY_MARGIN),
            "summary": self.summary(),
            "figures": [list(pair) for pair in self.figures()],
            "moves": moves,
        }
        if positions:
            data["start"] = (self.moves[0].board if self.moves else self.final).to_strings()
            data["final_mines_left"] = self.final.mines_left
            boards = [m.board for m in self.moves[1:]] + [self.final]
            known: dict[int, bool] = {}
            for entry, judged, after in zip(moves, self.moves, boards, strict=True):
                chances = judged.chances
                certain = {} if judged.first else chances.certain()
                entry["chances"] = chances.undecided()
                entry["proved"] = [
                    [*divmod(cell, self.cols), "mine" if mine else "safe"]
                    for cell, mine in certain.items()
                    if cell not in known
                ]
                entry["mines_left"] = judged.board.mines_left
                entry["changed"] = _changed(judged.board, after)
                known = certain
        return data

    def to_json(self, *, positions: bool = True) -> str:
        return json.dumps(self.to_dict(positions=positions), separators=(",", ":"))

    def summary(self) -> str:
        """The game in a few sentences: result, guesses, the moves worth a second look, luck
        and speed. The one source of these words: the terminal, `mines review` and the
        browser (through `to_dict`) all show this text."""
        won = self.status is GameStatus.WON
        parts = [
            f"{'Won' if won else 'Lost'} in {self.elapsed:.2f}s, {_plural(self.clicks, 'click')}."
        ]
        guesses, avoidable, risky = self.guesses, self.avoidable, self.risky
        losing = self.losing_move
        if not (guesses or avoidable or risky):
            parts.append("No guesses: every move was certainly safe.")
        elif not guesses:
            parts.append("No guesses.")
        else:
            included = ", the losing one included" if losing is not None and losing.is_guess else ""
            parts.append(f"{_plural(guesses, 'guess', 'guesses')}{included}.")
        if second := self._second_look():
            parts.append(f"{second[0].upper()}{second[1:]}.")
        if self.survived:
            taken = "taken" if won else "survived before the losing move"
            parts.append(
                f"The {_plural(self.survived, 'risk')} {taken} had a {percent(self.luck)} "
                "chance to all go well."
            )
        if losing is not None:
            parts.append(_lost_on_words(losing))
        rate, clicked = self.three_bv_per_second, self.efficiency
        if clicked is None:
            # The board's 3BV against a game cut short says nothing of its pace.
            parts.append(f"The board's 3BV: {self.three_bv}.")
        else:
            speed = "" if rate is None else f", {rate:.2f} 3BV/s"
            parts.append(f"3BV {self.three_bv}, efficiency {clicked:.0f}%{speed}.")
        return " ".join(parts)

    def _second_look(self) -> str:
        """ "2 avoidable moves (a certainly safe cell existed) and 1 risky move (a much safer
        cell existed)", or "" when there are none."""
        said = []
        if self.avoidable:
            said.append(f"{_plural(self.avoidable, 'avoidable move')} ({SAFE_EXISTED})")
        if self.risky:
            said.append(f"{_plural(self.risky, 'risky move')} ({SAFER_EXISTED})")
        return " and ".join(said)

    def figures(self) -> list[tuple[str, str]]:
        """The game's figures as a table of terms and words (the browser's review shows it)."""
        won = self.status is GameStatus.WON
        rate = self.three_bv_per_second
        return [
            ("Result", f"{'Won' if won else 'Lost'} in {self.elapsed:.2f} s"),
            ("3BV", str(self.three_bv)),
            ("3BV/s", f"{rate:.2f}" if won and rate is not None else NONE),
            ("Clicks", f"{self.clicks:,} ({self.useful_clicks:,} useful)"),
            ("Efficiency", NONE if self.efficiency is None else f"{self.efficiency:.0f}%"),
            ("Guesses", f"{self.guesses:,}"),
            ("Worth a second look", self._second_look() or "none"),
            (
                "Luck",
                f"{percent(self.luck)} chance that the {_plural(self.survived, 'risk')} "
                "survived all went well"
                if self.survived
                else NONE,
            ),
        ]


def check_size(rows: int, cols: int, moves: int) -> None:
    """Refuse, before any work, a game past `WORK_LIMIT` (`ReviewTooLargeError`)."""
    cells = rows * cols
    if cells * moves > WORK_LIMIT:
        raise ReviewTooLargeError(
            f"an exact review judges every move on the whole board: {moves:,} moves on "
            f"{cells:,} cells is {cells * moves:,} cell-moves, over the limit of "
            f"{WORK_LIMIT:,} (about 10 s of work): games this big are not reviewed"
        )


def review(record: GameRecord, *, unrecorded: int = 0) -> Review:
    """Judge every move of a finished game from the view just before it, exactly; the
    `unrecorded` clicks (wasted ones kept out of the record) count in the figures.

    Flags are the player's notes, not facts: a flagged cell counts as unrevealed. Before the
    first reveal the game's rule decides (under `opening`, `safe` and `noguess` the first
    reveal is certainly safe). Raises `GameInProgressError` for a game not over,
    `InvalidBoardError` for a record that contradicts itself, and `ReviewTooLargeError` past
    `WORK_LIMIT` or `COUNT_STEPS`.
    """
    if not record.status.is_over:
        raise GameInProgressError(
            "a review needs a finished game: this one is still in progress (finish it first)"
        )
    check_size(record.rows, record.cols, len(record.moves))
    judge = _Judge(record)
    start = replay(record, stop=0)
    before = start.view()
    state = _state(start)
    started = start.started
    found: list[_Judged] = []
    game = start
    for index, (game, timed) in enumerate(replay_steps(record)):
        move = timed.move
        try:
            judged = judge.assess(before, move, first=not started and move.kind is MoveKind.OPEN)
        except BudgetExceededError:
            raise ReviewTooLargeError(
                f"move {index + 1} ({move}): the position is too tangled to review exactly: "
                f"counting its arrangements went past the {COUNT_STEPS:,} search steps a "
                "whole review may take"
            ) from None
        after = _state(game)
        lost = after[2] is GameStatus.LOST and state[2] is not GameStatus.LOST
        found.append(_Judged(index, timed.time, move, judged, after != state, lost))
        state, started = after, game.started
        before = game.view()
    if game.status is not record.status:
        raise InvalidBoardError(
            f"the record says {record.status.value} but its moves end {game.status.value}"
        )
    layout = frozenset(game.record().layout or ())
    judge.check_first_reveal(record, found, layout)
    return Review(
        record.rows,
        record.cols,
        record.mines,
        record.rule,
        record.status,
        record.elapsed,
        game.three_bv,
        tuple(judge.finish(j, layout) for j in found),
        before,
        unrecorded,
    )


def _state(game: Game) -> tuple[int, int, GameStatus]:
    """What a move may change: cells opened, flags (through mines left) and the status."""
    return game.opened, game.mines_left, game.status


@dataclass(frozen=True, slots=True)
class _Assessment:
    risk: Fraction
    chances: Chances
    safe_known: bool
    first: bool
    """The first reveal of a game (its rule's promise decided it)."""


@dataclass(frozen=True, slots=True)
class _Judged:
    index: int
    time: float
    move: Move
    assessment: _Assessment
    useful: bool
    lost: bool


class _Judge:
    """Assesses positions with one counter (its cache serves the next move) and one budget."""

    def __init__(self, record: GameRecord):
        self.record = record
        self.counter = Counter(budget=Budget(COUNT_STEPS))
        self.last: tuple[Solved, dict[int, int]] | None = None
        """The last position solved, with its weights: a flag changes no number, so the
        moves after one see the same position (flags are unknown cells to the solver)."""

    def assess(self, view: BoardView, move: Move, *, first: bool) -> _Assessment:
        row, col = move.row, move.col
        if first:
            return self._first_reveal(view, (row, col))
        position = Position.from_view(view, self.record.mines)
        if self.last is not None and self.last[0].position == position:
            solved, weights = self.last
        else:
            solved = solve(position, self.counter)
            weights = _weights(solved)
            self.last = solved, weights
        counts = solved.counts
        assert counts is not None
        chances = Chances(view, counts.total, weights, counts.off_weight)
        safe_known = any(not mine for mine in solved.known.values())
        if move.kind is MoveKind.OPEN:
            cell = row * view.cols + col
            hidden = view.array[row, col] == _HIDDEN
            risk = Fraction(chances.weight(cell), chances.total) if hidden else Fraction(0)
        elif move.kind is MoveKind.CHORD:
            risk = self._chord_risk(view, solved, (row, col))
        else:
            risk = Fraction(0)
        return _Assessment(risk, chances, safe_known, False)

    def _first_reveal(self, view: BoardView, cell: Coord) -> _Assessment:
        """Before the first reveal only the rule speaks: every cell is safe to open first
        under a rule that keeps the first click free, else each is as likely a mine."""
        record = self.record
        promise = bool(kept_free(record.rule, record.rows, record.cols, record.mines, cell))
        total = record.rows * record.cols
        others = 0 if promise else record.mines
        chances = Chances(view, total, {}, others)
        return _Assessment(Fraction(others, total), chances, promise, True)

    def _chord_risk(self, view: BoardView, solved: Solved, cell: Coord) -> Fraction:
        """The chance that a chord opens a mine: 1 minus the share of arrangements in which
        every cell it opens is safe."""
        rows, cols = view.rows, view.cols
        symbol = view.symbol(*cell)
        if not symbol.isdigit():
            return Fraction(0)
        around = [c for c in block_around(rows, cols, *cell) if c != cell]
        flagged = {c for c in around if view.symbol(*c) == Cell.FLAG}
        hidden = {c for c in around if view.symbol(*c) == Cell.HIDDEN}
        targets = [r * cols + c for r, c in chord_targets(int(symbol), around, flagged, hidden)]
        known, counts = solved.known, solved.counts
        assert counts is not None
        if any(known.get(t) for t in targets):
            return Fraction(1)
        undecided = sorted(t for t in targets if t not in known)
        if len(undecided) <= 1:
            return Fraction(sum(map(counts.mine_weight, undecided)), counts.total)
        frontier = {c for cells, _ in solved.keys for c in cells}
        away = sum(t not in frontier for t in undecided)
        keys = solved.keys | {(tuple(undecided), 0)}
        try:
            safe = self.counter.count(keys, counts.off_cells - away, solved.free_mines).total
        except NoArrangementError:
            safe = 0
        return 1 - Fraction(safe, counts.total)

    def check_first_reveal(
        self, record: GameRecord, found: list[_Judged], layout: frozenset[Coord]
    ) -> None:
        """Refuse a record whose layout breaks its rule's promise to the first reveal (its
        review would call a mine certainly safe)."""
        for judged in found:
            if judged.assessment.first:
                cell = (judged.move.row, judged.move.col)
                free = kept_free(record.rule, record.rows, record.cols, record.mines, cell)
                if broken := sorted(layout.intersection(free)):
                    raise InvalidBoardError(
                        f"the record's layout has a mine at {broken[0]}, which its rule "
                        f"({record.rule}) keeps free for the first reveal at {cell}"
                    )

    def finish(self, judged: _Judged, layout: frozenset[Coord]) -> MoveReview:
        """The verdict and its sentence, now that the outcome and the layout are known."""
        move, found = judged.move, judged.assessment
        risk, chances = found.risk, found.chances
        least = Fraction(0) if found.safe_known else chances.least()
        cell = (move.row, move.col)
        if move.kind is MoveKind.FLAG:
            on_mine = cell in layout
            if chances.board.symbol(*cell) == Cell.FLAG:
                verdict, comment = Verdict.UNFLAG, "A flag taken off."
            elif chances.weight(move.row * self.record.cols + move.col) == chances.total:
                verdict, comment = Verdict.FLAG, "A flag on a certain mine."
            else:
                verdict = Verdict.WRONG_FLAG
                comment = (
                    f"A flag on a cell that was not certainly a mine: a "
                    f"{percent(chances.chance(*cell))} chance, and it was "
                    f"{'a mine' if on_mine else 'safe'}."
                )
        else:
            on_mine = judged.lost
            choice = _choice(risk, least, found.safe_known)
            words = _choice_words(move, choice, risk, least, found.first, self.record.rule)
            if not judged.useful and not judged.lost:
                words = "Nothing opened: the board did not change."
            verdict = Verdict.LOST if judged.lost else choice
            comment = f"Hit a mine. {words}" if judged.lost else words
        return MoveReview(
            judged.index,
            move,
            judged.time,
            verdict,
            risk,
            least,
            found.safe_known,
            judged.useful,
            on_mine,
            comment,
            found.first,
            chances,
        )


def _weights(solved: Solved) -> dict[int, int]:
    """The arrangements with a mine on each cell that is not away from the numbers: the
    frontier's from the count, the cells the local rules decided as 0 or all of them."""
    counts = solved.counts
    assert counts is not None
    weights = dict(counts.cell_weight)
    for cell in solved.local:
        weights[cell] = counts.total if solved.known[cell] else 0
    return weights


def _choice(risk: Fraction, least: Fraction, safe_known: bool) -> Verdict:
    """How a reveal or chord is judged by its risk alone (the outcome aside)."""
    if risk == 0:
        return Verdict.LOGIC
    if safe_known:
        return Verdict.AVOIDABLE
    return Verdict.RISKY if risk - least > RISKY_MARGIN else Verdict.GUESS


def _lost_on_words(losing: MoveReview) -> str:
    """The sentence on the move that lost the game, judged as any other move."""
    choice = losing.choice
    if losing.risk == 1:
        what = (
            "a chord certain to open a mine"
            if losing.move.kind is MoveKind.CHORD
            else ("a certain mine")
        )
        if choice is Verdict.AVOIDABLE:
            return f"Lost on {what}, where a certainly safe cell existed."
        return f"Lost on {what}: the numbers said so."
    if choice is Verdict.GUESS:
        return "Lost to bad luck: the losing guess was as safe as any."
    if choice is Verdict.RISKY:
        return "Lost on a risky guess: a much safer cell existed."
    return f"Lost on an avoidable guess: {SAFE_EXISTED}."


def _choice_words(
    move: Move, choice: Verdict, risk: Fraction, least: Fraction, first: bool, rule: str
) -> str:
    chord = move.kind is MoveKind.CHORD
    if choice is Verdict.LOGIC:
        if first:
            return f"The first click: the game's rule ({rule}) keeps it free of a mine."
        return "A chord that opened only certainly safe cells." if chord else "Certainly safe."
    if risk == 1:  # no guess: the numbers said it was a mine
        what = "A chord certain to open a mine" if chord else "A certain mine"
        if choice is Verdict.AVOIDABLE:
            return f"{what}, where a certainly safe cell existed."
        return f"{what}: the numbers said so, and a {percent(least)} cell existed."
    what = f"A chord that risked {percent(risk)}" if chord else f"A guess at {percent(risk)}"
    if choice is Verdict.AVOIDABLE:
        return f"{what} where a certainly safe cell existed."
    if choice is Verdict.RISKY:
        return f"{what} where a {percent(least)} cell existed."
    if risk == least:
        if first:
            return f"{what}: the game's rule ({rule}) promises nothing for the first click."
        return f"{what}, the least risk on the board."
    return f"{what}, close to the least risk on the board ({percent(least)})."


def percent(share: Fraction) -> str:
    """17%, 9.1%, 0.5%: one decimal at most, and never 0% or 100% for a chance between."""
    if 0 < share < Fraction(1, 1000):
        return "<0.1%"
    if Fraction(999, 1000) < share < 1:
        return ">99.9%"
    text = f"{float(share) * 100:.1f}"
    return f"{text.removesuffix('.0')}%"


def _plural(count: int, noun: str, many: str | None = None) -> str:
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"
