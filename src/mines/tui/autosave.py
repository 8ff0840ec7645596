"""Saving a game as it is played: its moves noted as they are made, kept on disk after each."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mines.clock import Clock
from mines.engine import CellChanges
from mines.errors import MinesError
from mines.moves import Move
from mines.placement import MinePlacer, placer_for_rule
from mines.record import GameRecord, TimedMove
from mines.replay import replay
from mines.tui.played import PlayedGame, local
from mines.tui.store import Claim, RecordStore, Unfinished


def deals_again(placer: MinePlacer) -> bool:
    """Whether the placer's rule and seed deal the same layout again for the same first click
    (the promise of every seeded rule: the same seed gives the same board everywhere)."""
    if placer.seed is None:
        return False
    try:
        placer_for_rule(placer.rule, placer.seed)
    except MinesError:
        return False
    return True


class Journal:
    """The record of a game in progress, kept in step with it as it is played.

    `Game.record()` lists the layout, a quarter of a second on a 1000x1000 board with
    150,000 mines: too slow for every move. The journal holds the moves itself: a move is
    noted when the game reported a changed cell during it (the game logs a move exactly when
    it changes a cell), at the time its clock read just before it. The layout is left out
    when the rule and seed deal it again from the first click (as replays do), and else
    read from the game once.
    """

    def __init__(self, game: PlayedGame, moves: Sequence[TimedMove] = ()) -> None:
        """`moves`: those the game was rebuilt with (a resumed game, or an undo's)."""
        self.game = game
        self.moves: list[TimedMove] = list(moves)
        self._changed = False
        self._layout: tuple[tuple[int, int], ...] | None = None
        self._unsubscribe = game.on_cells(self._seen)

    def _seen(self, changes: CellChanges) -> None:
        self._changed = True  # on the long move's thread, before the move's message is sent

    def note(self, move: Move, at: float) -> bool:
        """After a move was tried: True, and the move noted, when it changed the game."""
        changed, self._changed = self._changed, False
        if changed:
            self.moves.append(TimedMove(move, at))
        return changed

    def close(self) -> None:
        self._unsubscribe()

    def record(self) -> GameRecord:
        """The game so far, as `Game.record()` says it (the layout aside, as above); a game
        played here only (a game on a server is kept there)."""
        game = local(self.game)
        layout = None
        if game.started and not deals_again(game.placer):
            if self._layout is None:
                self._layout = game.record().layout
            layout = self._layout
        return GameRecord(
            rows=game.rows,
            cols=game.cols,
            mines=game.mines,
            rule=game.placer.rule,
            seed=game.placer.seed,
            layout=layout,
            moves=tuple(self.moves),
            status=game.status,
            elapsed=game.elapsed,
        )


class Autosave:
    """Keeps one game on disk as it is played: after every move while it goes on (in a file
    of its own among the games in progress), and its whole record once it ends.

    The game may change under it (an undo rebuilds it) and stays the same game on disk:
    one record once it ends, of its last outcome (an outcome undone is withdrawn).
    """

    def __init__(
        self,
        store: RecordStore | None,
        game: PlayedGame,
        *,
        practice: bool = False,
        hints: int = 0,
        moves: Sequence[TimedMove] = (),
        claim: Claim | None = None,
    ) -> None:
        """`moves` and `claim` for a game resumed from its file."""
        self.store = store
        self.practice = practice
        self.hints = hints
        self.journal = Journal(game, moves)
        self._claim = claim
        self.finished: Path | None = None
        """The record of the game's outcome, while that outcome stands."""
        self.cursor: tuple[int, int] | None = None
        """Where the player's cursor is, kept with a game in progress (the app sets it)."""

    @property
    def game(self) -> PlayedGame:
        return self.journal.game

    @property
    def path(self) -> Path | None:
        """The file that keeps the game while it goes on, once it has one."""
        return None if self._claim is None else self._claim.path

    def note(self, move: Move, at: float) -> bool:
        """After a move was tried: True when it changed the game (then `keep` it)."""
        return self.journal.note(move, at)

    def follow(self, game: PlayedGame, moves: Sequence[TimedMove]) -> Path | None:
        """Go on with a rebuilt copy of the game (an undo), made by `moves`, and keep it.
        An outcome undone is no outcome: its record is deleted, and its file returned."""
        self.journal.close()
        self.journal = Journal(game, moves)
        withdrawn, self.finished = self.finished, None
        if withdrawn is not None and self.store is not None:
            self.store.withdraw(withdrawn)
        self.keep()
        return withdrawn

    def hinted(self) -> None:
        self.hints += 1
        self.keep()

    def keep(self) -> Path | None:
        """Write the game as it stands: in progress, over its file; over, as a record (and
        then the record's file is returned). Without a store, nothing: a game on a server is
        kept by the server, and has no store here."""
        if self.store is None:
            return None
        game = local(self.game)
        if game.status.is_over:
            path = self.finished = self.store.save(game, practice=self.practice, hints=self.hints)
            self._forget()
            return path
        if not game.started:
            self._forget()  # nothing placed yet (or undone to that): nothing to keep
            return None
        record = self.journal.record()
        if self._claim is None:
            self._claim = self.store.claim_new(record)
        self.store.keep(
            self._claim, record, practice=self.practice, hints=self.hints, cursor=self.cursor
        )
        return None

    def _forget(self) -> None:
        if self._claim is not None and self.store is not None:
            self.store.drop(self._claim)
            self._claim = None

    def close(self) -> None:
        """Stop following the game; its file stays on disk, for `mines play` to offer."""
        self.journal.close()
        if self._claim is not None:
            self._claim.release()
            self._claim = None


def resume(store: RecordStore, kept: Unfinished, clock: Clock) -> Autosave | None:
    """A kept game rebuilt to go on with, its timer reading on from where it stood on
    `clock`, held by this process; None when another process plays it. A record that does
    not replay raises its `MinesError`, and its file is left as it was."""
    claim = store.claim(kept.path)
    if claim is None:
        return None
    saved, record = kept.saved, kept.saved.record
    try:
        game = replay(record, clock=clock, started_at=clock() - record.elapsed)
    except MinesError:
        claim.release()
        raise
    return Autosave(
        store, game, practice=saved.practice, hints=saved.hints, moves=record.moves, claim=claim
    )
