"""`Race`: several players on one board (or on copies of one layout), move by numbered move."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from mines.clock import Clock, PinnedClock
from mines.engine import CellChanges, cell_symbols, mines_left
from mines.errors import (
    IllegalMoveError,
    InvalidBoardError,
    InvalidSettingsError,
    JoinRefusedError,
    LobbyRefusedError,
)
from mines.game import Game, check_cell, chord_targets
from mines.grid import block_around
from mines.placement import FixedPlacer, PlacementRule, placer_for_rule
from mines.status import GameStatus
from mines.symbols import Cell
from mines.view import BoardView

PublicCell = tuple[int, int, str, int]
"""A cell an event shows everyone: (row, col, symbol, the player who opened it)."""

ROOM = -2
"""The opener of the cells a duel opens for everyone at its start."""
ROOM_BYTES = 4_000
"""About what a race's objects cost before any move: the race, its game and two players came
to 4.2 kB with `tracemalloc` on a 9x9 board (its cells are counted apart, by `Game.footprint`)."""
MOVE_BYTES = 200
"""About what one logged move of a race costs (a `RaceMove` and its numbers)."""
EVENT_BYTES = 300
"""About what one event costs before its cells (the event, its scores and progress)."""
CELL_BYTES = 120
"""About what one cell an event lists costs (a tuple of four numbers and a string)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 8


class RaceMode(StrEnum):
    """How the players share the layout."""

    SHARED = "shared"
    """One board: every reveal opens cells for everyone, and scores for whoever opened them."""
    DUEL = "duel"
    """A board each, all with the same layout: the first to clear theirs wins."""


class OnMine(StrEnum):
    """What a mine does to the player who reveals it; the others always go on."""

    OUT = "out"
    """The player is out; their score stands."""
    FREEZE = "freeze"
    """The player loses points and cannot move for a while."""


class RaceState(StrEnum):
    """Where a race stands: players join in the lobby, move while racing, and then it is over."""

    LOBBY = "lobby"
    RACING = "racing"
    OVER = "over"


class EventKind(StrEnum):
    """What a public event of a race reports."""

    JOINED = "joined"
    STARTED = "started"
    OPENED = "opened"
    """Safe cells opened by one player's reveal or chord."""
    MINE = "mine"
    """A player revealed a mine: it is shown, and the player is out or frozen."""
    OVER = "over"
    REMATCH = "rematch"
    """The host started a new round in the room: a new layout, the same players, scores at 0."""


class RaceAction(StrEnum):
    """What a move of a race's log does: the lobby's joins and start, then the players' moves."""

    JOIN = "join"
    START = "start"
    OPEN = "open"
    FLAG = "flag"
    CHORD = "chord"
    REMATCH = "rematch"


@dataclass(frozen=True)
class RaceMove:
    """One accepted move of a race, with the time it was made: the log that replays a race."""

    action: RaceAction
    player: int
    at: float
    row: int = 0
    col: int = 0
    name: str = ""
    """The name a player joined with (JOIN only)."""
    seed: int = 0
    """The new round's seed (REMATCH only)."""


@dataclass(frozen=True)
class RaceSettings:
    """The room's choices, fixed when it is created; out of range: `InvalidSettingsError`."""

    mode: RaceMode = RaceMode.SHARED
    on_mine: OnMine = OnMine.OUT
    freeze_seconds: float = 5.0
    freeze_penalty: int = 10
    countdown: float = 3.0
    max_players: int = MAX_PLAYERS

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise InvalidSettingsError(
                f"a room holds {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.max_players}"
            )
        if not 0 < self.freeze_seconds <= 60:
            raise InvalidSettingsError(
                f"freeze_seconds must be above 0 and at most 60, got {self.freeze_seconds}"
            )
        if not 0 <= self.freeze_penalty <= 1000:
            raise InvalidSettingsError(
                f"freeze_penalty must be from 0 to 1000, got {self.freeze_penalty}"
            )
        if not 0 <= self.countdown <= 30:
            raise InvalidSettingsError(
                f"countdown must be from 0 to 30 seconds, got {self.countdown}"
            )


@dataclass
class Player:
    """One player of a race: what everyone may know of them, and their private flags."""

    id: int
    name: str
    score: int = 0
    out: bool = False
    frozen_until: float = 0.0
    mines_hit: int = 0
    reached_at: int = 0
    """The move number at which the score last changed: of two equal scores, the earlier wins."""
    flags: set[tuple[int, int]] = field(default_factory=set, repr=False)


@dataclass(frozen=True)
class RaceEvent:
    """One numbered public event: every player receives every event, in `seq` order.

    `cells` lists the public cells the event changed as (row, col, symbol, opener): the
    opener is the player id that opened the cell (or hit the mine). In a duel boards are
    private, so cells are never listed; `progress` gives each player's share of cells opened.
    """

    seq: int
    kind: EventKind
    player: int | None
    cells: tuple[PublicCell, ...] = ()
    scores: tuple[int, ...] = ()
    progress: tuple[float, ...] = ()


class _Board:
    """A game the race referees: mines are intercepted before the game sees them.

    The game itself never holds a flag (flags are each player's own) and never reveals a
    mine, so a mine shown to everyone does not end the board for the others.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.exploded: dict[tuple[int, int], int] = {}
        self.opener = np.full((game.rows, game.cols), -1, dtype=np.int8)
        self._mines: frozenset[tuple[int, int]] | None = None

    def mines(self) -> frozenset[tuple[int, int]]:
        """The layout, known once the first reveal has placed it (empty before)."""
        if self._mines is None and self.game.started:
            self._mines = frozenset(self.game.record().layout or ())
        return self._mines or frozenset()

    def symbol(self, row: int, col: int) -> str:
        if (row, col) in self.exploded:
            return Cell.EXPLODED.value
        return self.game.view(row, col, 1, 1).symbol(row, col)

    def open(self, player: int, cells: list[tuple[int, int]]) -> tuple[list[PublicCell], bool]:
        """Reveal cells for `player`: the safe ones open (and flood), a mine is caught here."""
        opened: list[PublicCell] = []
        hit = False

        def collect(changes: CellChanges) -> None:
            for r, c in changes:
                if (r, c) in self.mines():
                    continue  # a cleared board's mines show flags: changed, but not opened
                self.opener[r, c] = player
                opened.append((int(r), int(c), "", player))

        stop = self.game.on_cells(collect)
        try:
            for row, col in cells:
                if self.game.started and (row, col) in self.mines():
                    if (row, col) not in self.exploded:
                        self.exploded[row, col] = player
                        opened.append((row, col, Cell.EXPLODED.value, player))
                    hit = True
                elif self.symbol(row, col) == Cell.HIDDEN.value:
                    self.game.reveal(row, col)
        finally:
            stop()
        view = self.game.view()
        return [(r, c, sym or view.symbol(r, c), who) for r, c, sym, who in opened], hit

    @property
    def cleared(self) -> bool:
        return self.game.status is GameStatus.WON


class Race:
    """A room of 2 to 8 players racing on one layout; every move is serialised and numbered.

    The host (the first to join) starts the race; moves before the countdown has run out or
    after the end are refused with `IllegalMoveError`. Flags are private: a player flags and
    chords with their own flags only, and no event carries a flag.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        seed: int,
        rule: PlacementRule | str = PlacementRule.OPENING,
        settings: RaceSettings | None = None,
        clock: Clock | None = None,
    ) -> None:
        if str(rule) == PlacementRule.ANY:
            raise InvalidBoardError(
                "a race needs a safe first click: use the rule 'opening', 'safe' or 'noguess'"
            )
        self.rows, self.cols, self.mines, self.seed, self.rule = rows, cols, mines, seed, str(rule)
        self.settings = settings or RaceSettings()
        self._clock: Clock = clock or time.monotonic
        self._shared = Game(rows, cols, mines, placer=placer_for_rule(self.rule, seed))
        self.players: list[Player] = []
        self.state = RaceState.LOBBY
        self.starts_at = 0.0
        self.events: list[RaceEvent] = []
        self.moves: list[RaceMove] = []
        """Every accepted move in order; `Race.replay` of them rebuilds this race exactly."""
        self._boards: list[_Board] = []
        self._opening: _Board | None = None
        """A duel's room board: the first click the room made for everyone, as a watcher sees
        it (None before a duel starts, and in a shared race)."""
        self.finished: tuple[int, int] = (0, 0)
        """How many moves and events the log held when the last round ended."""
        self._lock = threading.RLock()

    # --- the lobby ---------------------------------------------------------------------------

    def join(self, name: str) -> Player:
        """Add a player; the first one is the host."""
        with self._lock:
            if self.state is not RaceState.LOBBY:
                raise JoinRefusedError("the race has started; you can watch it")
            if len(self.players) >= self.settings.max_players:
                raise JoinRefusedError(f"the room is full ({self.settings.max_players} players)")
            if any(p.name.casefold() == name.casefold() for p in self.players):
                raise JoinRefusedError(f"the name {name!r} is taken in this room")
            player = Player(len(self.players), name)
            self.players.append(player)
            self._log(RaceAction.JOIN, player.id, name=name)
            self._emit(EventKind.JOINED, player.id)
            return player

    def start(self, player: int) -> None:
        """The host starts the race; moves are accepted once the countdown has run out."""
        with self._lock:
            if player != 0:
                raise LobbyRefusedError("only the host (who created the room) starts the race")
            if self.state is not RaceState.LOBBY:
                raise LobbyRefusedError(f"the race is already {self.state.value}")
            if len(self.players) < MIN_PLAYERS:
                raise LobbyRefusedError(f"a race needs at least {MIN_PLAYERS} players")
            self.state = RaceState.RACING
            self.starts_at = self._log(RaceAction.START, player) + self.settings.countdown
            if self.settings.mode is RaceMode.SHARED:
                self._boards = [_Board(self._shared)]
            else:
                self._boards = self._duel_boards()
            self._emit(EventKind.STARTED, player)

    def rematch(self, player: int, seed: int) -> None:
        """The host starts a new round once the race is over: a new layout from `seed`, the
        same players (others may still join), every score back at 0."""
        with self._lock:
            if player != 0:
                raise LobbyRefusedError("only the host (who created the room) asks for a rematch")
            if self.state is not RaceState.OVER:
                raise LobbyRefusedError("a rematch starts once the race is over")
            self.seed = seed
            self._shared = Game(
                self.rows, self.cols, self.mines, placer=placer_for_rule(self.rule, seed)
            )
            self._boards = []
            self._opening = None
            self.state = RaceState.LOBBY
            self.starts_at = 0.0
            self.players = [Player(p.id, p.name) for p in self.players]
            self._log(RaceAction.REMATCH, player, seed=seed)
            self._emit(EventKind.REMATCH, player)

    def _duel_boards(self) -> list[_Board]:
        """A board each with one layout, the first click made for everyone in the centre."""
        start = (self.rows // 2, self.cols // 2)
        self._opening = _Board(self._shared)
        self._opening.open(ROOM, [start])  # the room's rule places the mines around this click
        layout = sorted(self._opening.mines())
        boards = []
        for _ in self.players:
            board = _Board(Game(self.rows, self.cols, self.mines, placer=FixedPlacer(layout)))
            board.open(ROOM, [start])
            boards.append(board)
        return boards

    # --- moves -------------------------------------------------------------------------------

    def reveal(self, player: int, row: int, col: int) -> RaceEvent | None:
        """Open a cell for `player`; None when it opened nothing (an open cell, a flag)."""
        with self._lock:
            who, board = self._mover(player, "reveal", row, col)
            if (row, col) in who.flags or board.symbol(row, col) != Cell.HIDDEN.value:
                return None
            self._log(RaceAction.OPEN, player, row, col)
            return self._apply(who, board, [(row, col)])

    def chord(self, player: int, row: int, col: int) -> RaceEvent | None:
        """On a number with as many of the player's flags (and shown mines) around it, open
        every other hidden neighbour; None when the chord does not apply."""
        with self._lock:
            who, board = self._mover(player, "chord", row, col)
            number = Cell(board.symbol(row, col)).number
            if number is None:
                return None
            around = [
                cell for cell in block_around(self.rows, self.cols, row, col) if cell != (row, col)
            ]
            marked = {cell for cell in around if cell in who.flags or cell in board.exploded}
            hidden = {cell for cell in around if board.symbol(*cell) == Cell.HIDDEN.value}
            targets = chord_targets(number, around, marked, hidden)
            if not targets:
                return None
            self._log(RaceAction.CHORD, player, row, col)
            return self._apply(who, board, targets)

    def toggle_flag(self, player: int, row: int, col: int) -> bool:
        """Flag or unflag a hidden cell on the player's own flags; True when now flagged."""
        with self._lock:
            who, board = self._mover(player, "flag", row, col)
            if board.symbol(row, col) != Cell.HIDDEN.value:
                raise IllegalMoveError(f"cannot flag ({row}, {col}): it is not hidden")
            self._log(RaceAction.FLAG, player, row, col)
            if (row, col) in who.flags:
                who.flags.discard((row, col))
                return False
            who.flags.add((row, col))
            return True

    def set_flag(self, player: int, row: int, col: int, flagged: bool) -> bool:
        """Flag (`flagged`) or unflag a hidden cell on the player's own flags; when it already
        is so, nothing changes and nothing is logged. True when the cell changed."""
        with self._lock:
            who, board = self._mover(player, "flag", row, col)
            if board.symbol(row, col) == Cell.HIDDEN.value and ((row, col) in who.flags) == flagged:
                return False
            self.toggle_flag(player, row, col)
            return True

    def play(self, move: RaceMove) -> None:
        """Apply a move of a log, as the method its action names."""
        if move.action is RaceAction.JOIN:
            self.join(move.name)
        elif move.action is RaceAction.START:
            self.start(move.player)
        elif move.action is RaceAction.OPEN:
            self.reveal(move.player, move.row, move.col)
        elif move.action is RaceAction.CHORD:
            self.chord(move.player, move.row, move.col)
        elif move.action is RaceAction.REMATCH:
            self.rematch(move.player, move.seed)
        else:
            self.toggle_flag(move.player, move.row, move.col)

    @classmethod
    def replay(
        cls,
        rows: int,
        cols: int,
        mines: int,
        moves: list[RaceMove],
        *,
        seed: int,
        rule: PlacementRule | str = PlacementRule.OPENING,
        settings: RaceSettings | None = None,
        clock: Clock | None = None,
    ) -> Race:
        """The race these moves make, each played at its recorded time; it goes on on `clock`."""
        pinned = PinnedClock(clock or time.monotonic)
        race = cls(rows, cols, mines, seed=seed, rule=rule, settings=settings, clock=pinned)
        for move in moves:
            with pinned.pinned_at(move.at):
                race.play(move)
        return race

    def _log(
        self,
        action: RaceAction,
        player: int,
        row: int = 0,
        col: int = 0,
        name: str = "",
        seed: int = 0,
    ) -> float:
        now = self._clock()
        self.moves.append(RaceMove(action, player, now, row, col, name, seed))
        return now

    def _mover(self, player: int, verb: str, row: int, col: int) -> tuple[Player, _Board]:
        if not 0 <= player < len(self.players):
            raise IllegalMoveError(f"no player {player} in this room")
        if self.state is RaceState.LOBBY:
            raise IllegalMoveError(f"cannot {verb}: the race has not started")
        if self.state is RaceState.OVER:
            raise IllegalMoveError(f"cannot {verb}: the race is over")
        now = self._clock()
        if now < self.starts_at:
            raise IllegalMoveError(
                f"cannot {verb}: the race starts in {self.starts_at - now:.1f} s"
            )
        who = self.players[player]
        if who.out:
            raise IllegalMoveError(f"cannot {verb}: you are out of this race")
        if now < who.frozen_until:
            raise IllegalMoveError(
                f"cannot {verb}: you are frozen for {who.frozen_until - now:.1f} s"
            )
        check_cell(verb, row, col, self.rows, self.cols)
        return who, self._board_of(player)

    def _board_of(self, player: int) -> _Board:
        return self._boards[0 if self.settings.mode is RaceMode.SHARED else player]

    def _apply(self, who: Player, board: _Board, cells: list[tuple[int, int]]) -> RaceEvent:
        changed, hit = board.open(who.id, cells)
        safe = [cell for cell in changed if cell[2] != Cell.EXPLODED.value]
        seq = len(self.events) + 1
        if safe:
            who.score += len(safe)
            who.reached_at = seq
        if hit:
            who.mines_hit += 1
            if self.settings.on_mine is OnMine.OUT:
                who.out = True
            else:
                who.score = max(0, who.score - self.settings.freeze_penalty)
                who.reached_at = seq
                # The logged time, not a second reading: a replay then freezes to the same time.
                who.frozen_until = self.moves[-1].at + self.settings.freeze_seconds
        public = tuple(changed) if self.settings.mode is RaceMode.SHARED else ()
        event = self._emit(EventKind.MINE if hit else EventKind.OPENED, who.id, public)
        if self._cleared() or all(p.out for p in self.players):
            self.state = RaceState.OVER
            self._emit(EventKind.OVER, self.winner)
            self.finished = (len(self.moves), len(self.events))
        return event

    def _cleared(self) -> bool:
        """Whether a board has every safe cell open (shared: the board; duel: anyone's)."""
        return any(board.cleared for board in self._boards)

    def _emit(
        self, kind: EventKind, player: int | None, cells: tuple[PublicCell, ...] = ()
    ) -> RaceEvent:
        event = RaceEvent(
            seq=len(self.events) + 1,
            kind=kind,
            player=player,
            cells=cells,
            scores=tuple(p.score for p in self.players),
            progress=self.progress(),
        )
        self.events.append(event)
        return event

    @property
    def footprint(self) -> int:
        """Approximate bytes of the race's state: its games, who opened what, its log and
        its events (the log and the events grow with every move)."""
        with self._lock:
            games = {id(self._shared): self._shared} | {id(b.game): b.game for b in self._boards}
            boards = sum(game.footprint for game in games.values())
            seen = [*self._boards, *([self._opening] if self._opening else [])]
            boards += sum(board.opener.nbytes for board in seen)
            cells = sum(len(event.cells) for event in self.events)
            log = MOVE_BYTES * len(self.moves) + EVENT_BYTES * len(self.events)
            return ROOM_BYTES + boards + log + CELL_BYTES * cells

    # --- what players see ---------------------------------------------------------------------

    @property
    def winner(self) -> int | None:
        """The leader: the highest score (in a duel, whoever cleared), the earlier on a tie."""
        if not self.players:
            return None
        if self.settings.mode is RaceMode.DUEL:
            cleared = [i for i, board in enumerate(self._boards) if board.cleared]
            if cleared:
                return cleared[0]
        best = min(self.players, key=lambda p: (-p.score, p.reached_at, p.id))
        return best.id

    def progress(self) -> tuple[float, ...]:
        """Each player's share of the safe cells opened on their board (shared: the board's)."""
        safe = self.rows * self.cols - self.mines
        if not self._boards:
            return tuple(0.0 for _ in self.players)
        return tuple(
            float((self._board_of(p.id).opener != -1).sum()) / safe if safe else 1.0
            for p in self.players
        )

    def openers(self, player: int | None) -> list[str]:
        """Who opened each cell of the board `player` sees, one string per row: a player's
        id as a digit, `*` for the cells a duel opened for everyone, `.` for unopened."""
        with self._lock:
            board = self._seen_board(player)
            if board is None:
                return ["." * self.cols] * self.rows
            marks = np.full(board.opener.shape, ord("."), dtype=np.uint8)
            played = board.opener >= 0
            marks[played] = board.opener[played].astype(np.uint8) + ord("0")
            marks[board.opener == ROOM] = ord("*")
            return [bytes(row).decode("ascii") for row in marks]

    def _seen_board(self, player: int | None) -> _Board | None:
        """The board `player` sees: theirs; for a watcher the shared one, or in a duel the
        room's opening (None: the lobby)."""
        if self._boards and player is not None:
            return self._board_of(player)
        if self._boards and self.settings.mode is RaceMode.SHARED:
            return self._boards[0]
        return self._opening

    def view(self, player: int | None) -> BoardView:
        """What `player` sees (a watcher passes None): the board, shown mines, their flags."""
        with self._lock:
            board = self._seen_board(player)
            game = board.game if board else self._shared
            # The facts behind the game's own view (it never holds a flag nor reveals a mine),
            # plus the race's: the mines shown, the player's flags. `cell_symbols` draws them.
            seen = game.view().array
            revealed = (seen >= ord("0")) & (seen <= ord("9"))
            counts = np.where(revealed, seen - ord("0"), 0).astype(np.uint8)
            mine = np.zeros((self.rows, self.cols), dtype=np.bool_)
            flagged = np.zeros_like(mine)
            flags = self.players[player].flags if player is not None else set()
            for r, c in flags:
                flagged[r, c] = True
            if board is not None:
                for r, c in board.mines():
                    mine[r, c] = True
                for r, c in board.exploded:
                    revealed[r, c] = True
            status = GameStatus.IN_PROGRESS
            if self.state is RaceState.OVER:
                # A player's view tells them whether they won; a watcher's, how the race ended:
                # a board cleared, or every player out.
                won = self._cleared() if player is None else player == self.winner
                status = GameStatus.WON if won else GameStatus.LOST
            shown = len(board.exploded) if board else 0
            return BoardView.from_symbols(
                cell_symbols(counts, mine, flagged & ~revealed, revealed, status=status),
                rows=self.rows,
                cols=self.cols,
                status=status,
                mines_left=mines_left(self.mines, shown + len(flags), status=status),
            )
