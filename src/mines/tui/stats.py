"""Win/loss tallies, best times with their dates, 3BV/s and efficiency, by board and kind."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from mines.placement import PlacementRule
from mines.presets import PRESETS, preset_of
from mines.ranking import unranked_reason
from mines.record import GameRecord
from mines.scoring import Score
from mines.status import GameStatus
from mines.tui.language import _
from mines.tui.store import SavedGame
from mines.tui.words import board_name, plural


class Kind(StrEnum):
    """Games that are counted apart, because their times do not compare."""

    STANDARD = "standard"
    NO_GUESS = "no-guess"
    """Boards dealt so that logic alone clears them."""
    ASSISTED = "assisted"
    """Played with hints or undo (practice)."""


TITLES = {
    Kind.STANDARD: _("Games"),
    Kind.NO_GUESS: _("No-guess games"),
    Kind.ASSISTED: _("Assisted games (hints or undo)"),
}


def kind_of(game: SavedGame) -> Kind:
    if game.practice or game.hints:
        return Kind.ASSISTED
    if game.record.rule == PlacementRule.NOGUESS:
        return Kind.NO_GUESS
    return Kind.STANDARD


def clicks(record: GameRecord) -> int:
    """Opens, chords and flags: every click the player made."""
    return len(record.moves)


def unranked(game: SavedGame) -> str | None:
    """Why a finished game gives no best time here, or None: the server's predicate
    (`mines.ranking.unranked_reason`) with the terminal's one choice, made here: these
    statistics keep a table per kind of game and per board (`Kind`, `board_name`), so every
    board, rule and seed has best times in its table, hints and undo in the assisted one, and
    the player is the one who plays. What is left is a loss, and a win faster than people play
    ("too_fast": a board that opened by one click, or past `HUMAN_PACE` on a preset)."""
    record = game.record
    board = preset_of(record.rows, record.cols, record.mines)
    table = board or board_name(record.rows, record.cols, record.mines)
    return unranked_reason(
        board,
        record.rule,
        ranked_preset=table,
        signed_in=True,
        assisted=False,
        status=record.status.value,
        pace=(game.three_bv or 0, record.elapsed),
    )


@dataclass
class Best:
    time: float
    date: str
    """The day it was played, YYYY-MM-DD, or "" when the record does not say."""


@dataclass
class Tally:
    """The results on one kind of board (a preset or a custom size) for one kind of game."""

    board: str
    kind: Kind = Kind.STANDARD
    wins: int = 0
    losses: int = 0
    unranked: int = 0
    """Wins faster than people play (`unranked`): counted as wins, never as best times."""
    best: Best | None = None
    best_rate: float | None = None
    """The best 3BV per second of a ranked win."""
    best_efficiency: float | None = None
    """The best 3BV per click of a ranked win, in percent."""

    @property
    def best_time(self) -> float | None:
        return None if self.best is None else self.best.time

    def add(self, game: SavedGame) -> None:
        record = game.record
        if record.status is GameStatus.LOST:
            self.losses += 1
            return
        self.wins += 1
        if unranked(game) is not None:
            self.unranked += 1
            return
        if self.best is None or record.elapsed < self.best.time:
            self.best = Best(record.elapsed, game.saved_at[:10])
        if game.three_bv is not None:
            score = Score(game.three_bv, record.elapsed, True, clicks(record))
            rate, percent = score.three_bv_per_second, score.efficiency
            if rate is not None:
                self.best_rate = rate if self.best_rate is None else max(self.best_rate, rate)
            if percent is not None:
                self.best_efficiency = max(percent, self.best_efficiency or 0.0)


def tally(games: Iterable[SavedGame]) -> tuple[list[Tally], int]:
    """Tallies of finished games by kind, then presets first; and how many were unfinished."""
    tallies: dict[tuple[Kind, str], Tally] = {}
    unfinished = 0
    for game in games:
        record = game.record
        if not record.status.is_over:
            unfinished += 1
            continue
        name = board_name(record.rows, record.cols, record.mines)
        kind = kind_of(game)
        tallies.setdefault((kind, name), Tally(name, kind)).add(game)
    order, kinds = list(PRESETS), list(Kind)
    ordered = sorted(
        tallies.values(),
        key=lambda t: (
            kinds.index(t.kind),
            order.index(t.board) if t.board in order else len(order),
            t.board,
        ),
    )
    return ordered, unfinished


def is_new_best(game: SavedGame, earlier: Iterable[SavedGame]) -> bool:
    """Whether an unassisted win beats every earlier ranked win on its board and of its kind."""
    record = game.record
    kind = kind_of(game)
    if unranked(game) is not None or kind is Kind.ASSISTED:
        return False
    name = board_name(record.rows, record.cols, record.mines)
    before = Tally(name, kind)
    for other in earlier:
        r = other.record
        same = kind_of(other) is kind and board_name(r.rows, r.cols, r.mines) == name
        if same and r.status.is_over:
            before.add(other)
    return before.best_time is None or record.elapsed < before.best_time


COLUMNS = ("board", "played", "wins", "losses", _("win %"), _("best time"), "date", "3BV/s", "eff.")


def _row(t: Tally) -> tuple[str, ...]:
    played = t.wins + t.losses
    best = "-" if t.best is None else f"{t.best.time:.2f}s"
    date = "-" if t.best is None or not t.best.date else t.best.date
    rate = "-" if t.best_rate is None else f"{t.best_rate:.2f}"
    efficiency = "-" if t.best_efficiency is None else f"{t.best_efficiency:.0f}%"
    return (
        t.board,
        str(played),
        str(t.wins),
        str(t.losses),
        f"{100 * t.wins / played:.0f}%",
        best,
        date,
        rate,
        efficiency,
    )


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Columns as wide as their widest cell: the board name left, the figures right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_stats(tallies: list[Tally], unfinished: int = 0) -> str:
    """Plain text tables, one per kind of game, one line per board."""
    if not tallies:
        lines = [_("No finished games yet: play one with `mines play`.")]
    else:
        lines = []
        for kind in Kind:
            of_kind = [t for t in tallies if t.kind is kind]
            if not of_kind:
                continue
            if lines:
                lines.append("")
            lines.append(f"{TITLES[kind]}:")
            lines += _table([COLUMNS, *(_row(t) for t in of_kind)])
        lines.append("")
        lines.append(
            _(
                "Best time, its date, 3BV/s and efficiency (3BV per click) are of ranked wins; "
                "assisted and no-guess games are counted apart."
            )
        )
        unranked = sum(t.unranked for t in tallies)
        if unranked:
            lines.append(
                plural(
                    unranked,
                    "{n} win faster than people play (a board that opened by one click, or past "
                    "the human pace) is counted but not ranked.",
                    "{n} wins faster than people play (a board that opened by one click, or past "
                    "the human pace) are counted but not ranked.",
                )
            )
    if unfinished:
        lines.append(
            plural(
                unfinished, "{n} unfinished game not counted.", "{n} unfinished games not counted."
            )
        )
    return "\n".join(lines)
