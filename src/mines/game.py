"""`Game`: the rules of Minesweeper around an engine, with its clock, observers and record."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from functools import partial

import numpy as np

from mines.clock import Clock
from mines.engine import (
    CellChanges,
    CellState,
    Engine,
    EngineKind,
    PositionChanges,
    mines_left,
)
from mines.engine_choice import choose_engine
from mines.errors import (
    EngineLimitError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidViewError,
    MinesNotPlacedError,
    OffBoardError,
    ViewTooLargeError,
)
from mines.gameid import GameId
from mines.grid import block_around
from mines.moves import Move, MoveKind
from mines.params import check_board
from mines.placement import (
    CoordArray,
    FixedPlacer,
    MinePlacer,
    RandomPlacer,
    check_positions,
    placer_for_rule,
)
from mines.presets import preset
from mines.record import GameRecord, TimedMove
from mines.status import GameStatus
from mines.view import BoardView

CellsObserver = Callable[[CellChanges], None]
StatusObserver = Callable[[GameStatus], None]

VIEW_CELL_LIMIT = 10_000_000
"""A view of more cells than this must be asked for as a window."""
_MOVE_BYTES = 200
"""About what one logged move costs (a `TimedMove`, its `Move` and their numbers)."""


def check_cell(verb: str, row: int, col: int, rows: int, cols: int) -> None:
    """Refuse a move whose cell is not a pair of integers on the board, saying why."""
    for name, value in (("row", row), ("col", col)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalMoveError(f"{name} must be an integer, got {value!r}")
    if not (0 <= row < rows and 0 <= col < cols):
        raise OffBoardError(
            f"cannot {verb} ({row}, {col}): outside the board "
            f"(rows 0..{rows - 1}, cols 0..{cols - 1})"
        )


def chord_targets(
    number: int,
    around: Iterable[tuple[int, int]],
    marked: set[tuple[int, int]],
    hidden: set[tuple[int, int]],
) -> list[tuple[int, int]]:
    """The cells a chord on a number opens: its hidden, unmarked neighbours, once as many of
    its neighbours are marked as the number says; none otherwise."""
    around = list(around)
    if sum(cell in marked for cell in around) != number:
        return []
    return [cell for cell in around if cell in hidden and cell not in marked]


def _positions(cells: Iterable[tuple[int, int]]) -> CoordArray:
    array = np.asarray(list(cells), dtype=np.int64)
    return array.reshape(-1, 2)


class Game:
    """One game of Minesweeper, from the first reveal to a sticky `WON` or `LOST`.

    Mines are placed at the first reveal by the placer, which is told where that
    click is. Every public method is serialised by a lock, so threads may share a game.

    A move is all or nothing: it is applied and logged, or refused with `IllegalMoveError`
    (`EngineLimitError` when the engine cannot do it) and the game is as it was. Observers
    (`on_cells`, `on_status`) run after the move is settled and logged. If observers raise,
    every observer still runs, then the first error is re-raised from the move's method
    (with a note that the move was applied); the game stays consistent and later moves work.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        placer: MinePlacer | None = None,
        seed: int | None = None,
        clock: Clock | None = None,
        engine: EngineKind | str | None = None,
    ):
        self.rows, self.cols, self.mines = check_board(rows, cols, mines)
        if placer is not None and seed is not None:
            raise InvalidBoardError("give either a seed or a placer (which carries its own seed)")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise InvalidBoardError(f"seed must be a non-negative integer, got {seed!r}")
        self.placer: MinePlacer = placer or RandomPlacer(seed)
        validate = getattr(self.placer, "validate", None)
        if callable(validate):
            validate(self.rows, self.cols, self.mines)
        self._clock: Clock = clock or time.monotonic
        self._engine: Engine = choose_engine(self.rows, self.cols, engine)
        self._safe_cells = self.rows * self.cols - self.mines
        self._status = GameStatus.IN_PROGRESS
        self._started = False
        self._start_time = 0.0
        self._end_time: float | None = None
        self._moves: list[TimedMove] = []
        self._flags_used = False
        self._start_position: tuple[CoordArray, CoordArray] | None = None
        self._lock = threading.RLock()
        self._cell_observers: list[CellsObserver] = []
        self._status_observers: list[StatusObserver] = []

    @classmethod
    def from_preset(
        cls,
        name: str,
        *,
        placer: MinePlacer | None = None,
        seed: int | None = None,
        clock: Clock | None = None,
    ) -> Game:
        """A game of `beginner` (9x9, 10), `intermediate` (16x16, 40) or `expert` (16x30, 99)."""
        p = preset(name)
        return cls(p.rows, p.cols, p.mines, placer=placer, seed=seed, clock=clock)

    @classmethod
    def from_id(cls, game_id: GameId | str, *, clock: Clock | None = None) -> Game:
        """The game a game ID stands for: same size, rule and seed, so the same board."""
        gid = GameId.parse(game_id) if isinstance(game_id, str) else game_id
        placer = placer_for_rule(gid.rule, gid.seed)
        return cls(gid.rows, gid.cols, gid.mines, placer=placer, clock=clock)

    @classmethod
    def from_position(
        cls,
        rows: int,
        cols: int,
        mines: Iterable[tuple[int, int]],
        *,
        revealed: Iterable[tuple[int, int]] = (),
        flagged: Iterable[tuple[int, int]] = (),
        clock: Clock | None = None,
        engine: EngineKind | str | None = None,
    ) -> Game:
        """A game already under way: mines where given, cells revealed or flagged as given.

        Revealed cells are set as they are, without flooding; none may be a mine.
        """
        placer = FixedPlacer(list(mines))
        game = cls(rows, cols, len(placer.positions), placer=placer, clock=clock, engine=engine)
        opened, flags = _positions(revealed), _positions(flagged)
        for name, cells in (("revealed", opened), ("flagged", flags)):
            try:
                check_positions(cells, rows, cols)
            except InvalidBoardError as error:
                raise InvalidBoardError(f"{name} cells: {error}") from None
        mine_set = {(int(r), int(c)) for r, c in placer.positions.tolist()}
        open_set = {(int(r), int(c)) for r, c in opened.tolist()}
        if open_set & mine_set:
            raise InvalidBoardError(f"revealed cells hold mines: {sorted(open_set & mine_set)}")
        if both := open_set & {(int(r), int(c)) for r, c in flags.tolist()}:
            raise InvalidBoardError(f"cells cannot be both revealed and flagged: {sorted(both)}")
        with game._lock:
            if len(open_set):
                game._engine.place(placer.positions)
                game._started = True
                game._start_time = game._clock()
            game._engine.restore(opened, flags)
            game._start_position = (opened, flags)
            game._flags_used = bool(len(flags))
            if game._started and game._engine.opened == game._safe_cells:
                game._finish(GameStatus.WON, game._start_time)
        return game

    # --- state -------------------------------------------------------------------------------

    @property
    def status(self) -> GameStatus:
        return self._status

    @property
    def engine_kind(self) -> EngineKind:
        """Which engine holds the board: dense arrays, or the sparse engine for huge boards."""
        return self._engine.kind

    @property
    def footprint(self) -> int:
        """Approximate bytes of the game's state: its engine's cells or structure, and its log."""
        with self._lock:
            return self._engine.footprint + _MOVE_BYTES * len(self._moves)

    @property
    def started(self) -> bool:
        """Whether the first reveal has happened (and so the mines are placed)."""
        return self._started

    @property
    def opened(self) -> int:
        """How many safe cells are revealed: the board has `rows * cols - opened` still closed."""
        return self._engine.opened

    @property
    def flags_used(self) -> bool:
        """Whether a flag was ever placed in this game (one placed and taken off again counts,
        as minesweeper.online counts it): a win without one is a no-flag win (`mines.scoring`)."""
        return self._flags_used

    @property
    def mines_left(self) -> int:
        """Mines minus flags (negative past the mines), 0 once won (`engine.mines_left`)."""
        return mines_left(self.mines, self._engine.flags, status=self.status)

    @property
    def elapsed(self) -> float:
        """Seconds from the first reveal, frozen when the game ends; 0 before the first reveal."""
        with self._lock:
            if not self._started:
                return 0.0
            end = self._end_time if self._end_time is not None else self._clock()
            return end - self._start_time

    @property
    def game_id(self) -> GameId | None:
        """The ID that starts this same board again, when the placer has a seed."""
        seed = self.placer.seed
        return (
            None
            if seed is None
            else GameId(self.rows, self.cols, self.mines, seed, self.placer.rule)
        )

    @property
    def three_bv(self) -> int:
        """The board's 3BV: the fewest left clicks that clear it, known once mines are placed."""
        with self._lock:
            if not self._started:
                raise MinesNotPlacedError(
                    "3BV is known only once the mines are placed (first reveal)"
                )
            return self._engine.three_bv()

    def view(
        self, top: int = 0, left: int = 0, height: int | None = None, width: int | None = None
    ) -> BoardView:
        """A snapshot of what the player sees: the whole board, or a window of it."""
        with self._lock:
            height = self.rows - top if height is None else height
            width = self.cols - left if width is None else width
            for name, value in (("top", top), ("left", left), ("height", height), ("width", width)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidViewError(f"view {name} must be an integer, got {value!r}")
            if not (top >= 0 and left >= 0 and height >= 1 and width >= 1):
                raise InvalidViewError(
                    "a view window needs top, left >= 0 and height, width >= 1, got "
                    f"top={top}, left={left}, height={height}, width={width}"
                )
            if top + height > self.rows or left + width > self.cols:
                raise InvalidViewError(
                    f"the window rows {top}..{top + height - 1}, cols {left}..{left + width - 1} "
                    f"does not fit the {self.rows}x{self.cols} board"
                )
            if height * width > VIEW_CELL_LIMIT:
                raise ViewTooLargeError(
                    f"a view of {height * width:,} cells is over the limit of {VIEW_CELL_LIMIT:,}; "
                    "ask for a window: game.view(top, left, height, width)"
                )
            symbols = self._engine.symbols(top, left, height, width, status=self._status)
            return BoardView.from_symbols(
                symbols,
                rows=self.rows,
                cols=self.cols,
                status=self._status,
                mines_left=self.mines_left,
                top=top,
                left=left,
            )

    # --- observers ---------------------------------------------------------------------------

    def on_cells(self, callback: CellsObserver) -> Callable[[], None]:
        """Call `callback` with the cells each move changes; returns an unsubscribe.

        It runs once the move is settled and logged (see the class docstring for errors).
        """
        self._cell_observers.append(callback)
        return lambda: self._cell_observers.remove(callback)

    def on_status(self, callback: StatusObserver) -> Callable[[], None]:
        """Call `callback` with the final status when the game ends; returns an unsubscribe."""
        self._status_observers.append(callback)
        return lambda: self._status_observers.remove(callback)

    # --- moves -------------------------------------------------------------------------------

    def play(self, move: Move | str) -> GameStatus:
        """Apply a move given as a `Move` or as text such as `O3,4`."""
        move = Move.parse(move) if isinstance(move, str) else move
        if move.kind is MoveKind.FLAG:
            self.toggle_flag(move.row, move.col)
            return self._status
        if move.kind is MoveKind.CHORD:
            return self.chord(move.row, move.col)
        return self.reveal(move.row, move.col)

    def reveal(self, row: int, col: int) -> GameStatus:
        """Open a cell: a mine loses, a number opens itself, a zero floods to its border."""
        with self._lock:
            self._check_move("reveal", row, col)
            state = self._engine.state(row, col)
            if state is CellState.FLAGGED:
                raise IllegalMoveError(
                    f"cannot reveal ({row}, {col}): it is flagged; unflag it first"
                )
            if state is CellState.REVEALED:
                return self._status
            now = self._clock()
            first = not self._started
            if first:
                self._place_mines(row, col, now)
            try:
                changes = self._engine.open(row, col)
            except EngineLimitError as refusal:
                if first:  # as it was: no mines placed, no clock started
                    self._engine = choose_engine(self.rows, self.cols, self._engine.kind)
                    self._started = False
                raise EngineLimitError(f"cannot reveal ({row}, {col}): {refusal}") from None
            self._settle(MoveKind.OPEN, row, col, [changes], self._engine.is_mine(row, col), now)
            return self._status

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag a hidden cell or unflag a flagged one; True when the cell is now flagged."""
        with self._lock:
            self._check_move("flag", row, col)
            state = self._engine.state(row, col)
            if state is CellState.REVEALED:
                raise IllegalMoveError(f"cannot flag ({row}, {col}): it is already revealed")
            flagged = state is CellState.HIDDEN
            self._engine.set_flag(row, col, flagged)
            self._flags_used = True
            self._log(MoveKind.FLAG, row, col, self._clock())
            self._notify([PositionChanges(_positions([(row, col)]))], ended=False)
            return flagged

    def set_flag(self, row: int, col: int, flagged: bool) -> bool:
        """Flag (`flagged`) or unflag a hidden cell; when it already is so, nothing changes and
        nothing is logged, so asking twice is asking once. True when the cell changed."""
        with self._lock:
            self._check_move("flag", row, col)
            state = self._engine.state(row, col)
            if state is not CellState.REVEALED and (state is CellState.FLAGGED) == flagged:
                return False
            self.toggle_flag(row, col)
            return True

    def chord(self, row: int, col: int) -> GameStatus:
        """On a number with exactly as many flags around it, open every other hidden neighbour.

        With more flags or fewer, as in the classic game, the chord does not apply: nothing
        opens and nothing is logged.
        """
        with self._lock:
            self._check_move("chord", row, col)
            engine = self._engine
            if engine.state(row, col) is not CellState.REVEALED:
                return self._status
            around = [
                cell for cell in block_around(self.rows, self.cols, row, col) if cell != (row, col)
            ]
            states = {cell: engine.state(*cell) for cell in around}
            flagged = {cell for cell, s in states.items() if s is CellState.FLAGGED}
            hidden = {cell for cell, s in states.items() if s is CellState.HIDDEN}
            targets = chord_targets(engine.count(row, col), around, flagged, hidden)
            if not targets:
                return self._status
            now = self._clock()
            try:
                changes = engine.open_all(targets)
            except EngineLimitError as refusal:
                raise EngineLimitError(f"cannot chord ({row}, {col}): {refusal}") from None
            lost = any(engine.is_mine(r, c) for r, c in targets)
            self._settle(MoveKind.CHORD, row, col, changes, lost, now)
            return self._status

    def record(self) -> GameRecord:
        """The game so far: parameters, seed, layout (once placed) and timed moves."""
        with self._lock:
            layout = None
            if self._started:
                layout = tuple((int(r), int(c)) for r, c in self._engine.mines().tolist())
            revealed, flagged = self._start_position or (_positions([]), _positions([]))
            return GameRecord(
                rows=self.rows,
                cols=self.cols,
                mines=self.mines,
                rule=self.placer.rule,
                seed=self.placer.seed,
                layout=layout,
                moves=tuple(self._moves),
                status=self._status,
                elapsed=self.elapsed,
                revealed_at_start=tuple((int(r), int(c)) for r, c in revealed.tolist()),
                flagged_at_start=tuple((int(r), int(c)) for r, c in flagged.tolist()),
            )

    # --- internals ---------------------------------------------------------------------------

    def _check_move(self, verb: str, row: int, col: int) -> None:
        if self._status.is_over:
            raise IllegalMoveError(f"cannot {verb}: the game is over ({self._status.value})")
        check_cell(verb, row, col, self.rows, self.cols)

    def _place_mines(self, row: int, col: int, now: float) -> None:
        positions = np.asarray(self.placer.place(self.rows, self.cols, self.mines, (row, col)))
        positions = positions.astype(np.int64).reshape(-1, 2)
        if len(positions) != self.mines:
            raise InvalidBoardError(
                f"the placer returned {len(positions)} mines; the game has {self.mines}"
            )
        check_positions(positions, self.rows, self.cols)
        # Sorted and compared with its neighbours: numpy's hash-based `unique` held the GIL
        # for seconds over a million mines, stalling every other thread of a server.
        flat = np.sort(positions[:, 0] * self.cols + positions[:, 1])
        if (flat[1:] == flat[:-1]).any():
            raise InvalidBoardError("the placer returned the same cell twice")
        self._engine.place(positions)
        self._started = True
        self._start_time = now

    def _log(self, kind: MoveKind, row: int, col: int, now: float) -> None:
        at = now - self._start_time if self._started else 0.0
        self._moves.append(TimedMove(Move(kind, row, col), at))

    def _settle(
        self,
        kind: MoveKind,
        row: int,
        col: int,
        changes: list[CellChanges],
        lost: bool,
        now: float,
    ) -> None:
        """Log the move and decide the status, and only then tell the observers."""
        self._log(kind, row, col, now)
        if lost:
            changes = [
                *changes,
                PositionChanges(np.concatenate([self._engine.mines(), self._engine.flagged()])),
            ]
            self._finish(GameStatus.LOST, now)
        elif self._engine.opened == self._safe_cells:
            # Every mine now shows a flag (`cell_symbols`): they are changed cells too.
            changes = [*changes, PositionChanges(self._engine.mines())]
            self._finish(GameStatus.WON, now)
        self._notify(changes, ended=self._status.is_over)

    def _finish(self, status: GameStatus, now: float) -> None:
        self._status = status
        self._end_time = now

    def _notify(self, changes: list[CellChanges], *, ended: bool) -> None:
        """Call every observer, even past one that raises; then re-raise the first error."""
        errors: list[Exception] = []
        calls: list[Callable[[], object]] = [
            partial(callback, change)
            for change in changes
            for callback in list(self._cell_observers)
        ]
        if ended:
            calls += [partial(callback, self._status) for callback in list(self._status_observers)]
        for call in calls:
            try:
                call()
            except Exception as error:  # re-raised below, once the others have run
                errors.append(error)
        if errors:
            first = errors[0]
            first.add_note(
                f"the move was applied and logged before observers ran ({self._status.value}); "
                f"{len(errors)} observer call(s) raised, this is the first"
            )
            raise first

    def __repr__(self) -> str:
        return (
            f"<Game {self.rows}x{self.cols} mines={self.mines} {self._status.value} "
            f"placer={self.placer!r}>"
        )
