"""Win/loss tallies, best times and best 3BV/s per board, from saved games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mines.presets import PRESETS, preset_of
from mines.symbols import GameStatus
from mines.tui.store import SavedGame


@dataclass
class Tally:
    """The results on one kind of board (a preset or a custom size)."""

    board: str
    wins: int = 0
    losses: int = 0
    best_time: float | None = None
    best_rate: float | None = None
    """The best 3BV per second of a win."""

    def add(self, game: SavedGame) -> None:
        record = game.record
        if record.status is GameStatus.LOST:
            self.losses += 1
            return
        self.wins += 1
        if self.best_time is None or record.elapsed < self.best_time:
            self.best_time = record.elapsed
        if game.three_bv is not None and record.elapsed > 0:
            rate = game.three_bv / record.elapsed
            self.best_rate = rate if self.best_rate is None else max(self.best_rate, rate)


def board_name(rows: int, cols: int, mines: int) -> str:
    return preset_of(rows, cols, mines) or f"{rows}x{cols}, {mines} mines"


def tally(games: Iterable[SavedGame]) -> tuple[list[Tally], int]:
    """Tallies of finished games, presets first; and how many practice games were left out."""
    tallies: dict[str, Tally] = {}
    practice = 0
    for game in games:
        record = game.record
        if game.practice:
            practice += 1
            continue
        if not record.status.is_over:
            continue
        name = board_name(record.rows, record.cols, record.mines)
        tallies.setdefault(name, Tally(name)).add(game)
    order = list(PRESETS)
    ordered = sorted(
        tallies.values(),
        key=lambda t: (order.index(t.board) if t.board in order else len(order), t.board),
    )
    return ordered, practice


def format_stats(tallies: list[Tally], practice: int) -> str:
    """A plain text table, one line per board."""
    if not tallies:
        lines = ["No finished games yet: play one with `mines play`."]
    else:
        lines = [f"{'board':<22}{'wins':>6}{'losses':>8}{'win %':>7}{'best time':>11}{'3BV/s':>7}"]
        for t in tallies:
            played = t.wins + t.losses
            best = "-" if t.best_time is None else f"{t.best_time:.2f}s"
            rate = "-" if t.best_rate is None else f"{t.best_rate:.2f}"
            lines.append(
                f"{t.board:<22}{t.wins:>6}{t.losses:>8}{100 * t.wins / played:>6.0f}%"
                f"{best:>11}{rate:>7}"
            )
    if practice:
        lines.append(f"({practice} practice games with undo are not counted.)")
    return "\n".join(lines)
