"""Line mode: a game as plain text, one command per line, for pipes, scripts and screen readers."""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from mines.errors import IllegalMoveError, InvalidMoveError, MinesError
from mines.moves import Move, MoveKind
from mines.symbols import Cell
from mines.tui.autosave import Autosave, resume
from mines.tui.language import _
from mines.tui.played import PlayedGame, local
from mines.tui.remote import RemoteGame, ServerError
from mines.tui.store import RecordStore, Unfinished
from mines.tui.words import describe_kept, mines_left_shown, plural, state_word, verdict

WINDOW = (20, 40)
"""Rows and columns shown at once; a bigger board is shown through a window that `view` moves."""

HELP = _(
    "Commands, one per line:\n"
    "  o ROW,COL      open a cell (also written O3,4 or o 3 4); on a number, chord it\n"
    "  f ROW,COL      flag or unflag a cell\n"
    "  c ROW,COL      chord: open around a number with exactly that many flags around it\n"
    "  ? or hint      the safest cell to open, and why\n"
    "  view ROW,COL   show the part of a big board around ROW,COL\n"
    "  board          show the board (or its window) again\n"
    "  kept           list the games left unfinished, newest first\n"
    "  resume N       go on with the game numbered N in that list (this one is kept)\n"
    "  help           this text\n"
    "  q              quit (a game in progress is kept, after every move)\n"
    "Rows and columns count from 0. Symbols: H hidden, F flag, 0-8 revealed count; after a win\n"
    "every mine shows F; after a loss M mine, X the mine you hit, W a flag that was wrong.\n"
    "Every reply ends with the status line (state, mines left, time)."
)


def status_line(game: PlayedGame) -> str:
    """Where the game stands, in words: state, mines left and time."""
    state = state_word(game.status, started=game.started)
    left = mines_left_shown(game.status, game.mines_left)
    return _("{state}  mines left: {left}  time: {elapsed:.1f}s").format(
        state=state, left=left, elapsed=game.elapsed
    )


def window_around(
    game: PlayedGame, centre: tuple[int, int], size: tuple[int, int] = WINDOW
) -> Window:
    """The (top, left, height, width) of the window of `size` around `centre`, on the board."""
    height, width = min(size[0], game.rows), min(size[1], game.cols)
    top = max(0, min(centre[0] - height // 2, game.rows - height))
    left = max(0, min(centre[1] - width // 2, game.cols - width))
    return top, left, height, width


Window = tuple[int, int, int, int]


def render(game: PlayedGame, window: Window | None = None) -> str:
    """The board (or a window of it) with column and row numbers, then the status line."""
    top, left, height, width = window or (0, 0, game.rows, game.cols)
    view = game.view(top, left, height, width)
    label = len(str(top + height - 1))
    lines = []
    if (height, width) != (game.rows, game.cols):
        lines.append(
            _(
                "Rows {top} to {height}, columns {left} to {width}, of a {rows}x{cols} board:"
            ).format(
                top=top,
                height=top + height - 1,
                left=left,
                width=left + width - 1,
                rows=game.rows,
                cols=game.cols,
            )
        )
    if left + width > 10:
        # The tens above the units, from every tenth column on: 51 over 0 1 2 ... for 510.
        tens = [" "] * width
        for i in range(-(left % 10) % 10, width, 10):
            for j, digit in enumerate(str((left + i) // 10)[: width - i]):
                tens[i + j] = digit
        lines.append(" " * (label + 1) + "".join(tens).rstrip())
    lines.append(" " * (label + 1) + "".join(str(c % 10) for c in range(left, left + width)))
    lines += [f"{top + r:>{label}} {line}" for r, line in enumerate(view.to_strings())]
    lines.append(status_line(game))
    return "\n".join(lines)


class LineGame:
    """A game read command by command; the window follows the moves and `view`. With a
    store, the game is kept after every move and saved once over, as the app does."""

    def __init__(self, game: PlayedGame, out: TextIO, store: RecordStore | None = None) -> None:
        self.out = out
        self.store = store
        self.kept: list[Unfinished] = store.unfinished() if store is not None else []
        self.saved = False
        """Whether a finished game was saved, for the line that says where."""
        self.saved_to: Path | None = None
        """The file of the finished game saved last, for the command that reviews it."""
        self._last = ""
        """The last line written: a reply that does not end with the status line gets it."""
        self._start(game, Autosave(store, game))

    def _start(self, game: PlayedGame, autosave: Autosave) -> None:
        self.game = game
        self.autosave = autosave
        self.centre = (game.rows // 2, game.cols // 2)

    def say(self, text: str) -> None:
        print(text, file=self.out)
        self._last = text.rsplit("\n", 1)[-1]

    def reply(self, text: str) -> bool:
        """Carry out one line (`command`), the reply ending with the status line, always: a
        script reads up to it."""
        going = self.command(text)
        status = status_line(self.game)
        if going and self._last != status:
            self.say(status)
        return going

    def window(self) -> Window:
        return window_around(self.game, self.centre)

    def show(self) -> None:
        self.say(render(self.game, self.window()))

    def follow(self, row: int, col: int) -> None:
        """Move the window only when the cell is out of it, so the board does not jump."""
        top, left, height, width = self.window()
        if not (top <= row < top + height and left <= col < left + width):
            self.centre = (row, col)

    def command(self, text: str) -> bool:
        """Carry out one line; False when the game is over or the player quits."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in {"q", "quit", "exit"}:
            return False
        if word in {"help", "h"}:
            self.say(HELP)
        elif word == "kept":
            self.list_kept()
        elif word == "resume":
            self.resume(rest)
        elif word in {"?", "hint"}:
            self.hint()
        elif word == "board":
            self.show()
        elif word == "view":
            self.view(rest)
        else:
            return self.move(text)
        return True

    def view(self, where: str) -> None:
        try:
            target = Move.parse(f"O{where.strip()}")
        except (IllegalMoveError, InvalidMoveError):
            self.say(
                _("error: view needs a cell as ROW,COL, e.g. view 10,20; got {where!r}").format(
                    where=where
                )
            )
            return
        if not (0 <= target.row < self.game.rows and 0 <= target.col < self.game.cols):
            self.say(
                _(
                    "error: ({row}, {col}) is outside the board (rows 0..{rows}, cols 0..{cols})"
                ).format(
                    row=target.row, col=target.col, rows=self.game.rows - 1, cols=self.game.cols - 1
                )
            )
            return
        self.centre = (target.row, target.col)
        self.show()

    def hint(self) -> None:
        if self.game.status.is_over:
            self.say(_("The game is over: there is nothing to hint."))
            return
        top, left, height, width = self.window()
        game = self.game
        try:
            if isinstance(game, RemoteGame):
                found = game.hint()  # the server's: it marks the game assisted
            else:
                from mines.solver import hint  # on the first hint: line mode starts without it

                found = hint(local(game), near=(top + height // 2, left + width // 2))
        except MinesError as error:
            self.say(_("No hint: {error}.").format(error=error))
            return
        self.say(_("Hint: {reason}").format(reason=found.reason))
        self.follow(found.row, found.col)
        self.keep(self.autosave.hinted)

    def move(self, text: str) -> bool:
        game = self.game
        try:
            move = Move.parse(text)
        except InvalidMoveError as error:
            self.say(f"error: {error}")
            return True
        move = self.chord_on_a_number(move)
        # Safe cells opened, counted by the game: a move's changed cells include the mines
        # shown at the end.
        before, at = game.opened, game.elapsed
        try:
            game.play(move)
        except (IllegalMoveError, ServerError) as error:
            self.say(f"error: {error}")
            return True
        if self.autosave.note(move, at):
            self.keep(self.autosave.keep)
        self.follow(move.row, move.col)
        self.say(self.outcome(move, game.opened - before))
        self.show()
        if game.status.is_over:
            standing = ""
            if isinstance(game, RemoteGame):
                try:
                    standing = f" {game.standing()}"
                except MinesError as error:
                    standing = _(" Whether it ranks, the server did not say: {error}.").format(
                        error=error
                    )
            self.say(
                _("{status} Time {elapsed:.1f}s.{standing}").format(
                    status=verdict(game.status), elapsed=game.elapsed, standing=standing
                )
            )
            return False
        return True

    def chord_on_a_number(self, move: Move) -> Move:
        """Opening a revealed number chords it, as space and the mouse do in the app."""
        game, row, col = self.game, move.row, move.col
        if move.kind is not MoveKind.OPEN or not (0 <= row < game.rows and 0 <= col < game.cols):
            return move
        if game.view(row, col, 1, 1)[row, col].is_revealed_number:
            return Move(MoveKind.CHORD, row, col)
        return move

    def keep(self, save: Callable[[], object]) -> None:
        """Save as `save` does; a failure is said, and the game goes on."""
        try:
            saved = save()
        except OSError as error:
            self.say(_("error: could not save the game ({error}); it goes on").format(error=error))
            return
        self.saved = self.saved or saved is not None
        if isinstance(saved, Path):
            self.saved_to = saved

    def list_kept(self) -> None:
        if not self.kept:
            self.say(_("No game is kept unfinished."))
            return
        self.say(
            _("{game} left unfinished, newest first:").format(
                game=plural(len(self.kept), "{n} game", "{n} games")
            )
        )
        for number, kept in enumerate(self.kept, start=1):
            self.say(f"  {number}. {describe_kept(kept.saved.record, kept.saved.saved_at)}")
        self.say(_("Type resume and a number to go on with one (this game is kept)."))

    def resume(self, number: str) -> None:
        index = int(number) - 1 if number.strip().isdigit() else -1
        if not 0 <= index < len(self.kept):
            allowed = (
                _("from 1 to {kept}").format(kept=len(self.kept))
                if self.kept
                else _("(no game is kept)")
            )
            self.say(
                _("error: resume needs the number of a kept game {allowed}; got {number!r}").format(
                    allowed=allowed, number=number
                )
            )
            return
        chosen = self.kept[index]
        assert self.store is not None  # kept games come from it
        try:
            autosave = resume(self.store, chosen, time.monotonic)
        except MinesError as error:
            self.say(_("error: that game cannot be resumed: {error}").format(error=error))
            return
        if autosave is None:
            self.say(_("error: that game is being played in another terminal"))
            return
        game, saved, record = local(autosave.game), chosen.saved, chosen.saved.record
        self.autosave.close()
        self.kept.remove(chosen)
        self._start(game, autosave)
        if record.moves:
            last = record.moves[-1].move
            self.centre = (last.row, last.col)
        self.say(_("Resumed {saved_at}.").format(saved_at=describe_kept(record, saved.saved_at)))
        self.show()

    def close(self) -> bool:
        """Stop saving; True when a game in progress is kept for next time."""
        kept = self.autosave.path is not None and not self.game.status.is_over
        self.autosave.close()
        return kept

    def outcome(self, move: Move, changed: int) -> str:
        """One sentence on what the move did, said before the board for a screen reader."""
        where = f"({move.row}, {move.col})"
        cell = self.game.view(move.row, move.col, 1, 1)[move.row, move.col]
        if move.kind is MoveKind.FLAG:
            return f"{where} flagged." if cell is Cell.FLAG else f"{where} unflagged."
        if cell is Cell.EXPLODED:
            return _("{where} was a mine.").format(where=where)
        if changed == 0:
            return _("{where}: nothing to open.").format(where=where)
        if move.kind is MoveKind.CHORD:
            return _("Chorded {where}: {cell} opened.").format(
                where=where, cell=plural(changed, "{n} cell", "{n} cells")
            )
        if cell is Cell.ZERO:
            return _("{where} opened an area of {cell}.").format(
                where=where, cell=plural(changed, "{n} cell", "{n} cells")
            )
        return _("{where} shows {value}.").format(where=where, value=cell.value)


def play_lines(
    game: PlayedGame, lines_in: Iterable[str], out: TextIO, store: RecordStore | None = None
) -> int:
    """Read commands line by line until the game ends, the input ends or the player quits.
    With a store, games are kept after every move and saved when over, as the app does."""
    player = LineGame(game, out, store)
    size = plural(
        game.mines,
        "{rows}x{cols}, {n} mine",
        "{rows}x{cols}, {n} mines",
        rows=game.rows,
        cols=game.cols,
    )
    if isinstance(game, RemoteGame):
        print(game.introduction(), file=out)
    print(
        _("New game {size}: type help for the commands, ? for a hint.").format(
            size=game.game_id or size
        ),
        file=out,
    )
    if player.kept:
        count = plural(len(player.kept), "{n} game", "{n} games")
        print(
            _("{count} left unfinished: type kept to list them, resume 1 for the newest.").format(
                count=count
            ),
            file=out,
        )
    player.show()
    try:
        for line in lines_in:
            text = line.strip()
            if text and not player.reply(text):
                if player.game.status.is_over:
                    if player.saved:
                        print(_("Saved: mines stats counts it."), file=out)
                    if player.saved_to is not None:
                        command = f"mines review {shlex.quote(str(player.saved_to))}"
                        print(
                            _("Every move judged by the solver: {command}").format(command=command),
                            file=out,
                        )
                    return 0
                break
    finally:
        kept = player.close()
    if kept:
        print(_("The game is kept: mines play offers it next time (type kept)."), file=out)
    print(_("Bye."), file=out)
    return 0
