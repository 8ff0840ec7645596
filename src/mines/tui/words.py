"""The words a game's state is told in, shared by the app, the replay and the line mode."""

from __future__ import annotations

from datetime import datetime

from mines.gameid import GameId
from mines.moves import Move, MoveKind
from mines.presets import preset_of
from mines.record import GameRecord
from mines.status import GameStatus
from mines.tui.language import N_, _, ngettext, number

PRESET_NAMES = {
    "beginner": N_("beginner"),
    "intermediate": N_("intermediate"),
    "expert": N_("expert"),
}
"""The presets' names, as the terminal shows them, for the catalogue."""


def state_word(status: GameStatus, *, started: bool) -> str:
    """Ready, Playing, Won! or Lost: the state as the status line shows it."""
    if status is GameStatus.WON:
        return _("Won!")
    if status is GameStatus.LOST:
        return _("Lost")
    return _("Playing") if started else _("Ready")


def verdict(status: GameStatus) -> str:
    """The sentence that ends a game."""
    return _("You won!") if status is GameStatus.WON else _("Boom! You hit a mine.")


def plural(count: int, one: str, many: str, **values: object) -> str:
    """`plural(n, "{n} game", "{n} games")`: "1 game", "2 games", "15,895,859 cells", the
    form the language's plural rule gives the count (gettext's ngettext), its thousands marked
    as the language marks them (a screen reader reads it as a number, not a string of digits);
    other `{names}` come from `values`. tools/catalogues.py extracts both forms."""
    return ngettext(one, many, count).format(n=number(count), **values)


def mines_left_shown(status: GameStatus, mines_left: int) -> int:
    """The mines-left counter: 0 after a win, when every mine is known (and drawn flagged)."""
    return 0 if status is GameStatus.WON else mines_left


_VERBS = {MoveKind.OPEN: "open", MoveKind.FLAG: "flag", MoveKind.CHORD: "chord"}


def describe(move: Move) -> str:
    """A move in words: "open (3, 15)" rather than its notation O3,15."""
    return f"{_VERBS[move.kind]} ({move.row}, {move.col})"


def clock_time(seconds: float) -> str:
    """ "0:42", "12:05", "1:02:03": a time as a clock shows it."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def board_name(rows: int, cols: int, mines: int) -> str:
    """ "expert", or "30x60, 300 mines" for a board that is no preset."""
    preset = preset_of(rows, cols, mines)
    if preset:
        return _(PRESET_NAMES.get(preset, preset))
    # The count as digits alone: a board's name is written as its game ID writes it.
    return ngettext("{rows}x{cols}, {n} mine", "{rows}x{cols}, {n} mines", mines).format(
        rows=rows, cols=cols, n=mines
    )


def describe_kept(record: GameRecord, saved_at: str) -> str:
    """A game in progress in one line, to choose it among others: "expert 16x30n99#4242,
    37 moves, 1:23 played, left 2026-01-02 10:00"."""
    name = board_name(record.rows, record.cols, record.mines)
    if record.seed is not None:
        name += f" {GameId(record.rows, record.cols, record.mines, record.seed, record.rule)}"
    left = _(", left {saved_at}").format(saved_at=local_time(saved_at)) if saved_at else ""
    return _("{name}, {move}, {elapsed} played{left}").format(
        name=name,
        move=plural(len(record.moves), "{n} move", "{n} moves"),
        elapsed=clock_time(record.elapsed),
        left=left,
    )


def local_time(iso: str) -> str:
    """ "2026-01-02 10:00": an ISO 8601 time (as saved, in UTC) in the local time zone."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso[:16].replace("T", " ")
    return f"{moment.astimezone():%Y-%m-%d %H:%M}"
