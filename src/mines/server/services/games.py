"""`GameService`: creates, moves and reads stored games, one move at a time per game."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from mines.clock import PinnedClock
from mines.engine import CellChanges
from mines.engine_choice import DENSE_CELL_LIMIT
from mines.errors import GameInProgressError, IllegalMoveError, MinesError
from mines.game import Game, check_cell
from mines.moves import Move, MoveKind
from mines.placement import MinePlacer, PlacementRule, placer_for_rule
from mines.presets import BoardSize, board_size, preset, preset_of
from mines.ranking import Measure, Period, period_key
from mines.replay import RecordedPlacer
from mines.scoring import Score, no_flags
from mines.server.common.auth import (
    MISSING_TOKEN,
    NotAuthenticatedError,
    check_token,
    hash_token,
    new_token,
)
from mines.server.common.errors import (
    CellFlaggedError,
    GameNotFoundError,
    GameOverError,
    InvalidRequestError,
)
from mines.server.common.metrics import count_move
from mines.server.common.settings import Settings
from mines.server.db import layouts
from mines.server.db.layouts import KeepingPlacer
from mines.server.db.storage import (
    ANONYMOUS,
    AccountRow,
    Finish,
    GameRow,
    MoveWrite,
    Result,
    StaleGameError,
    Storage,
    StorageError,
    StoredMove,
)
from mines.server.services import finished, leaderboard
from mines.server.services.cache import GameCache
from mines.server.services.finished import Read
from mines.server.services.generation import NoGuessWorkers, WorkerPlacer, check_no_guess
from mines.server.services.present import (
    Box,
    Changed,
    Window,
    changed_cells,
    changes_box,
    resolve_window,
    view_json,
)
from mines.server.services.workers import JobStoppedError, Stopped, Workers
from mines.status import GameStatus
from mines.symbols import Cell

NO_GUESS_RULE = PlacementRule.NOGUESS.value
WORK_BYTES_PER_CELL = 56
"""Memory a move or a read may need while it runs, per cell of the board: measured at 53 MiB
for the first reveal of a 1000x1000 board with 999,999 mines and 38 MiB for a million-cell
flood. It is held in the memory budget for as long as the request runs."""
SPARSE_WORK_BYTES_PER_MINE = 3_500
"""The same on the sparse engine, which holds what was touched, per mine: tracemalloc's peak
in a first reveal was 31 MiB for 10^4 x 10^4 with 10^4 mines, 320 MiB for 10^5 x 10^5 with
10^5 mines and 3.0 GiB for 10^6 x 10^6 with 10^6 mines (3.2-3.4 kB a mine)."""
LIVE_GAME_BYTES = 5_000
"""What a cached game holds beyond `Game.footprint` (its cells and log): the game, engine,
placer and clock objects, its lock and its cache entry. tracemalloc measured 2.7 kB (Beginner)
to 4.2 kB (Expert) per game beyond the footprint, a few moves each; rounded up."""
STALE_RETRIES = 50
"""How often a move is worked out again when other processes keep moving in the same game
(each round one of them stores its move, so all make progress)."""
IN_PROGRESS = "a game's record is published once the game is over; this game is in progress"
SEED_LIMIT = 2**63 - 1
"""Seeds are stored as 64-bit signed integers."""


def random_seed() -> int:
    return secrets.randbits(48)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A new game as a client asks for it: a preset or a size, and how mines are placed."""

    preset: str | None = None
    rows: int | None = None
    cols: int | None = None
    mines: int | None = None
    seed: int | None = None
    first_click: str | None = None
    no_guess: bool = False
    player: str | None = None
    daily: str | None = None
    """A preset: today's daily board of it (the same board for everyone, the seed hidden)."""


def utc_day(when: float) -> str:
    """The UTC day of a wall time, as `YYYY-MM-DD`: daily boards change at midnight UTC."""
    return period_key("day", when)


def day_end(day: str) -> float:
    """The wall time at which a UTC day (`YYYY-MM-DD`) is over: the next midnight UTC."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp() + 86_400


@dataclass(eq=False)
class LiveGame:
    """A stored game rebuilt in memory, current up to `version` stored moves."""

    game: Game
    clock: PinnedClock
    placer: KeepingPlacer
    """The game's placer, which keeps the layout it placed for storage."""
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    changes: list[CellChanges] = field(default_factory=list)
    """Filled by the game's cell observer during one move."""
    token_hash: str = ""
    """The stored hash of the game's token, so a move's token is checked without a read."""
    row: GameRow | None = None
    """The row it was built from: its fields that never change (size, rule, player, token)
    serve its moves without a read; its version and status are those of then."""

    @property
    def weight(self) -> int:
        """Bytes it holds in the games' cache."""
        return self.game.footprint + LIVE_GAME_BYTES


@dataclass(frozen=True, slots=True)
class MoveResult:
    view: dict[str, Any]
    changed: Changed
    changed_complete: bool
    broadcast: dict[str, Any] | None
    """The message for the game's WebSocket watchers; None when unwatched or nothing changed."""
    stored: bool = True
    """False when the move changed nothing (and so was not stored)."""


def read_in_worker(settings: Settings, read: Read, game_id: str, window: Window) -> bytes:
    """In a worker: a finished game's read, from storage, by a game service of its own."""
    from mines.server.db.database import open_storage

    games = GameService(open_storage(settings.database), settings)
    try:
        return finished.answer(games, read, game_id, window)
    finally:
        games.close()


def _play(game: Game, move: Move, flagged: bool | None = None) -> None:
    """Play a move (a flag move with `flagged`: set that state, not toggle); a refusal says
    which kind (the game is over, the cell is flagged, ...)."""
    try:
        if flagged is not None and move.kind is MoveKind.FLAG:
            game.set_flag(move.row, move.col, flagged)
        else:
            game.play(move)
    except IllegalMoveError as refused:
        if game.status.is_over:
            raise GameOverError(str(refused)) from None
        cell = (move.row, move.col)
        if move.kind is MoveKind.OPEN and game.view(*cell, 1, 1)[cell] is Cell.FLAG:
            raise CellFlaggedError(str(refused)) from None
        raise


class GameService:
    """The game logic of the server, free of HTTP: every public method is one request."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        *,
        wall: Callable[[], float] = time.time,
        seeds: Callable[[], int] = random_seed,
    ):
        self.storage = storage
        self.settings = settings
        self._wall = wall
        self._seeds = seeds
        self._cache = GameCache(settings.memory)
        self._no_guess = NoGuessWorkers(settings.no_guess)
        self._readers = Workers(
            finished.READ_WORKERS,
            memory=finished.READ_MEMORY,
            name="mines-reader",
            preload=(__name__,),
        )

    def worker_pools(self) -> list[tuple[str, int, int]]:
        """(pool, busy, slots) of the worker processes: no-guess generation, finished reads."""
        pools = (("no_guess", self._no_guess.workers), ("reader", self._readers))
        return [(name, pool.busy, pool.slots) for name, pool in pools]

    @property
    def cache(self) -> GameCache:
        """The live games, and the race rooms that share their memory budget."""
        return self._cache

    # --- requests ----------------------------------------------------------------------------

    def create(
        self, spec: GameSpec, window: Window, account: AccountRow | None = None
    ) -> tuple[str, str, dict[str, Any]]:
        """A new stored game: its ID, its token (shown only now) and its view. With the
        signed-in `account` it is that account's game, under its name (and may rank)."""
        day = None
        if spec.daily is not None:
            if spec.seed is not None or spec.preset not in (None, spec.daily) or spec.rows:
                raise InvalidRequestError(
                    'a daily board is a preset\'s board of the day: give "daily" (and '
                    '"no_guess") without "preset", "seed" or a size'
                )
            spec = replace(spec, preset=spec.daily)
            day = utc_day(self._wall())
        rows, cols, mines = self._size(spec)
        rule = self._rule(spec)
        if rule == NO_GUESS_RULE:
            check_no_guess(rows, cols, mines, self.settings.no_guess)  # before any work
        seed = self._seeds() if spec.seed is None else spec.seed
        if day is not None and spec.daily is not None:
            seed = self.storage.daily_seed(day, spec.daily, rule == NO_GUESS_RULE, seed)
        box = resolve_window(window, rows, cols, self.settings, focus=(0, 0))
        token = new_token()
        row = GameRow(
            id=secrets.token_hex(8),
            token_hash=hash_token(token),
            rows=rows,
            cols=cols,
            mines=mines,
            rule=rule,
            seed=seed,
            player=account.name if account else spec.player or ANONYMOUS,
            preset=leaderboard.ranked_preset(rows, cols, mines, rule, spec.seed is not None),
            created_at=self._wall(),
            layout=None,
            status=GameStatus.IN_PROGRESS.value,
            version=0,
            account_id=account.id if account else None,
            daily=day,
        )
        live = self._build(row, self._placer(row))
        weight = live.weight
        need = weight + self._work(row)  # a move could never run past this: refuse it now
        if need > self.settings.memory:
            raise InvalidRequestError(
                f"a {rows}x{cols} board with {mines:,} {'mine' if mines == 1 else 'mines'} needs "
                f"about {-(-need // 2**20):,} MiB while it is played, more than this server's "
                f"memory budget of {self.settings.memory // 2**20:,} MiB; ask for a smaller "
                "board or fewer mines"
            )
        self._cache.put(row.id, live, weight, refuse=True)
        try:
            self.storage.create(row)
        except BaseException:
            self._cache.drop(row.id)
            raise
        return row.id, token, view_json(live.game.view(*box), live.game.elapsed, 0)

    def view(self, game_id: str, window: Window) -> dict[str, Any]:
        with self._reading(game_id) as (row, game):
            box = resolve_window(window, row.rows, row.cols, self.settings, focus=None)
            return view_json(game.view(*box), game.elapsed, row.version)

    def move(
        self,
        game_id: str,
        token: str | None,
        kind: MoveKind,
        cell: tuple[int, int],
        window: Window,
        *,
        watched: bool = False,
        cancelled: Callable[[], bool] = lambda: False,
        flagged: bool | None = None,
    ) -> MoveResult:
        """Apply one move and store it before answering; one move at a time per game.

        Only the game's own lock is held while the move is worked out (placement, flood,
        view): other games never wait for it. The game kept in memory is taken as it is (no
        read), and storage is touched once, by the move's write, which stores it only where
        the stored game is at the version the move was worked out on: when another process
        stored a move meanwhile (the game's requests reached it), nothing is stored, the game
        is rebuilt from storage and the move tried again (docs/scaling.md, "Ownership").

        With `watched`, the result also carries the message for the game's WebSocket watchers;
        `cancelled` says when the client has gone, so that long work (a no-guess board) stops.
        A flag move with `flagged` sets that state instead of toggling it.
        """
        if not token:
            raise NotAuthenticatedError(MISSING_TOKEN)  # before anything, even an unknown game
        for _ in range(STALE_RETRIES):
            try:
                move = Move(kind, *cell)
                result = self._move_once(game_id, token, move, window, watched, cancelled, flagged)
                count_move(kind, "game")
                return result
            except StaleGameError:
                self._cache.drop(game_id)
            except BaseException as error:
                # Refused moves leave the game as it was; after any other failure the stored
                # game is the truth, and the next request rebuilds it from there.
                if isinstance(error, StorageError) or not isinstance(error, MinesError):
                    self._cache.drop(game_id)
                raise
        raise StorageError(
            f"game {game_id} was moved in by other server processes {STALE_RETRIES} times "
            "while this move was worked out; try it again",
            public="other server processes kept changing this game meanwhile",
        )

    def _move_once(
        self,
        game_id: str,
        token: str,
        move: Move,
        window: Window,
        watched: bool,
        cancelled: Callable[[], bool],
        flagged: bool | None,
    ) -> MoveResult:
        live = self._cache.get(game_id)
        if isinstance(live, LiveGame) and live.row is not None:
            stored = live.row  # its version is the build's; the game's own is `live.version`
        else:
            stored, live = self._load(game_id), None
        check_token(token, stored.token_hash)
        row, col = move.row, move.col
        # The core's refusal, before the window is centred on the cell (422, as in a race).
        check_cell(move.kind.verb, row, col, stored.rows, stored.cols)
        box = resolve_window(window, stored.rows, stored.cols, self.settings, (row, col))
        with self._cache.working(self._work(stored)):
            return self._apply(stored, move, box, watched, cancelled, flagged, live)

    def _apply(
        self,
        stored: GameRow,
        move: Move,
        box: Box,
        watched: bool,
        cancelled: Callable[[], bool],
        flagged: bool | None,
        live: LiveGame | None = None,
    ) -> MoveResult:
        game_id = stored.id
        trusted = live is not None  # taken from memory as it is, without a read
        live = live or self._live(stored)
        with live.lock:
            if live.version < stored.version:
                self._catch_up(live, self.storage.moves_after(game_id, live.version))
            game = live.game
            if isinstance(live.placer.placer, WorkerPlacer):
                live.placer.placer.cancelled = cancelled
            was_started, now = game.started, self._wall()
            try:
                with live.clock.pinned_at(now):
                    _play(game, move, flagged)
            except MinesError:
                self._check_current(live, unread=trusted)
                raise
            changes = list(live.changes)
            live.changes.clear()
            if not changes:
                self._check_current(live, unread=trusted)
            # The game logs a move exactly when it changes a cell; no-ops are not stored.
            if changes:
                first = self._daily_first(stored) if game.status.is_over else None
                write = self._write(stored, live, move, now, was_started, first is None)
                self.storage.append(game_id, write)
                live.version += 1
                self._cache.reweigh(game_id, live, live.weight)
            view = game.view(*box)
            changed, complete = changed_cells(view, changes, self.settings.changed_limit)
            return MoveResult(
                view_json(view, game.elapsed, live.version),
                changed,
                complete,
                self._broadcast(live, move, changes) if changes and watched else None,
                stored=bool(changes),
            )

    def _check_current(self, live: LiveGame, *, unread: bool) -> None:
        """A move refused, or one that changed nothing, on a game taken from memory without
        a read: its answer is only right if no other process moved meanwhile (a request that
        reached this process while another owned the game). One read of the stored version
        says; behind it, `StaleGameError` has the move worked out again on the stored game.
        (A stored move needs no such read: its write is fenced by the version.)"""
        if not unread or live.row is None:
            return
        stored = self.storage.version(live.row.id)
        if stored is not None and stored != live.version:
            raise StaleGameError(f"game {live.row.id} has moves stored by another process")

    def kept_row(self, game_id: str) -> GameRow | None:
        """The row a game kept in memory was built from (its fields as of then), or None."""
        live = self._cache.get(game_id)
        return live.row if isinstance(live, LiveGame) else None

    def check_access(self, game_id: str, token: str) -> None:
        """Raise unless the game exists and `token` is its token (nothing else is read)."""
        check_token(token, self._load(game_id).token_hash)

    def cached_access(self, game_id: str, token: str) -> bool:
        """Check `token` against the game kept in memory, without I/O: True when it was checked
        (it raises when it is not the game's), False when the game is not kept here (then
        `check_access` reads it)."""
        live = self._cache.get(game_id)
        if not isinstance(live, LiveGame) or not live.token_hash:
            return False
        check_token(token, live.token_hash)
        return True

    def record(self, game_id: str) -> dict[str, Any]:
        """The whole record of a finished game; refused while it is in progress."""
        with self._reading(game_id) as (row, game):
            if not game.status.is_over:
                raise GameInProgressError(IN_PROGRESS)
            return {"id": row.id, "created_at": row.created_at, **game.record().to_dict()}

    def summary(self, game_id: str) -> dict[str, Any]:
        """Status, time, 3BV and the board's preset of a finished game (for personal stats)."""
        with self._reading(game_id) as (row, game):
            if not game.status.is_over:
                raise GameInProgressError(IN_PROGRESS)
            three_bv = game.three_bv if game.started else 0
            won = game.status is GameStatus.WON
            why = self._unranked(
                row, game, None if row.daily is None else self._daily_first(row) == row.id
            )
            return {
                "id": row.id,
                "player": row.player,
                "status": game.status.value,
                "no_flags": no_flags(won, game.flags_used),
                "elapsed": round(game.elapsed, 3),
                "rows": row.rows,
                "cols": row.cols,
                "mines": row.mines,
                "preset": preset_of(row.rows, row.cols, row.mines),
                "no_guess": row.rule == NO_GUESS_RULE,
                # Useful clicks are the stored moves; wasted ones were counted, not stored.
                **Score(three_bv, game.elapsed, won, row.version, row.wasted).to_dict(),
                "assisted": row.assisted,
                "ranked": why is None,
                **({} if why is None else {"unranked": why}),
            }

    def read_finished(self, read: Read, game_id: str, window: Window) -> bytes:
        """A finished game's record, summary or replay frames as JSON. A big game's is worked
        out in a worker process: its stored game is final, and a worker reads it from there."""
        row = self._load(game_id)
        if finished.is_small(row.rows, row.cols, row.version):
            return finished.answer(self, read, game_id, window)
        if not GameStatus(row.status).is_over:
            raise GameInProgressError(IN_PROGRESS)  # before starting a worker to say so
        try:
            body: bytes = self._readers.run(
                read_in_worker,
                (self.settings, read, game_id, window),
                budget=finished.READ_BUDGET,
                busy="this server is reading another big game's record; try again shortly",
            )
        except JobStoppedError as stopped:
            limit = f"{finished.READ_MEMORY // 2**20:,} MiB"
            if stopped.why is Stopped.BUDGET:
                limit = f"{finished.READ_BUDGET:g} s"
            hint = "ask for a smaller window" if read is Read.REPLAY else "it cannot be served"
            raise InvalidRequestError(
                f"this game's {read.value} takes more than a read may use here ({limit}); {hint}"
            ) from None
        return body

    def mark_assisted(self, game_id: str) -> None:
        """Record that the game's player had help (a hint, an analysis): it will never rank."""
        if not self.storage.mark_assisted(game_id):
            raise GameNotFoundError.of(game_id)

    def wall(self) -> float:
        """The server's wall time (a test's clock in tests)."""
        return self._wall()

    def leaderboard(
        self,
        preset_name: str,
        no_guess: bool,
        limit: int,
        *,
        period: Period = "all",
        measure: Measure = "time",
        no_flags: bool = False,
    ) -> tuple[str, list[dict[str, Any]]]:
        """The board of this UTC `period` (day, ISO week, month, year or all time) ranked by
        `measure`, with `no_flags` of no-flag wins only: its period's key
        (`mines.ranking.period_key`) and its entries."""
        key = period_key(period, self._wall())
        found = self.storage.board(
            preset(preset_name).name, no_guess, no_flags, key, measure, limit
        )
        return key, leaderboard.entries(found)

    def daily_board(
        self, preset_name: str, no_guess: bool, limit: int, day: str, *, no_flags: bool = False
    ) -> list[dict[str, Any]]:
        """A day's daily board, by time; its games are not named until its day is over."""
        name = preset(preset_name).name
        found = leaderboard.entries(self.storage.leaderboard(name, no_guess, limit, day, no_flags))
        if day >= utc_day(self._wall()):
            found = [{**entry, "game_id": None} for entry in found]
        return found

    def daily(self, day: str | None) -> dict[str, Any]:
        """A day's daily boards (today's by default); their seeds once the day is over."""
        today = utc_day(self._wall())
        day = day or today
        over = day < today
        boards = []
        for name in ("beginner", "intermediate", "expert"):
            for no_guess in (False, True):
                seed = self.storage.known_daily_seed(day, name, no_guess) if over else None
                boards.append({"preset": name, "no_guess": no_guess, "seed": seed})
        return {"day": day, "over": over, "ends_at": day_end(day), "boards": boards}

    def sealed_until(self, row: GameRow) -> float | None:
        """When a daily game opens to everyone (its day is over), while that is still ahead:
        until then its view, record and replay would show the day's board, so only its own
        player reads it. None for a game anyone may read."""
        if row.daily is None:
            return None
        opens = day_end(row.daily)
        return opens if self._wall() < opens else None

    def close(self) -> None:
        self.storage.close()

    # --- internals ---------------------------------------------------------------------------

    def _size(self, spec: GameSpec) -> BoardSize:
        """The board asked for, by the core's one rule for board requests, within this
        server's largest board (a custom one: the presets are all far below it)."""
        size = board_size(preset=spec.preset, rows=spec.rows, cols=spec.cols, mines=spec.mines)
        if spec.preset is None and size.rows * size.cols > self.settings.max_cells:
            raise InvalidRequestError(
                f"a {size.rows}x{size.cols} board has {size.rows * size.cols:,} cells; "
                f"this server allows at most {self.settings.max_cells:,}"
            )
        return size

    def _rule(self, spec: GameSpec) -> str:
        if not spec.no_guess:
            return spec.first_click or PlacementRule.OPENING.value
        if spec.first_click not in (None, PlacementRule.OPENING):
            raise InvalidRequestError(
                'a no-guess board always starts with an opening; drop "first_click" or set it '
                'to "opening"'
            )
        return NO_GUESS_RULE

    @contextmanager
    def _reading(self, game_id: str) -> Iterator[tuple[GameRow, Game]]:
        """The stored game, caught up to its last stored move, held still while it is read."""
        row = self._load(game_id)
        with self._cache.working(self._work(row)):
            live = self._live(row)
            # Read missing moves before taking the game's lock: a mover holds the storage
            # lock while it waits for the game's lock.
            behind = []
            if live.version < row.version:
                behind = self.storage.moves_after(game_id, live.version)
            with live.lock:
                self._catch_up(live, behind)
                # The row as of the game read: its version counts the moves the game shows.
                yield replace(row, version=live.version), live.game

    def _work(self, row: GameRow) -> int:
        """The memory a request on this game may need while it runs: by the board's cells on
        the dense engine (`WORK_BYTES_PER_CELL`); on the sparse one, which holds only what was
        touched, by its mines (`SPARSE_WORK_BYTES_PER_MINE`) and the largest view."""
        cells = row.rows * row.cols
        if cells <= DENSE_CELL_LIMIT:
            return cells * WORK_BYTES_PER_CELL
        view = self.settings.view_limit * WORK_BYTES_PER_CELL
        return row.mines * SPARSE_WORK_BYTES_PER_MINE + view

    def _load(self, game_id: str) -> GameRow:
        row = self.storage.load(game_id)
        if row is None:
            raise GameNotFoundError.of(game_id)
        return row

    def _build(self, row: GameRow, placer: MinePlacer) -> LiveGame:
        clock = PinnedClock(self._wall)
        keeper = KeepingPlacer(placer)
        game = Game(row.rows, row.cols, row.mines, placer=keeper, clock=clock)
        live = LiveGame(game, clock, keeper, token_hash=row.token_hash, row=row)
        game.on_cells(live.changes.append)
        return live

    def _live(self, row: GameRow) -> LiveGame:
        """The cached game, or one rebuilt from the row; the caller catches it up to the row."""
        live = self._cache.get(row.id)
        if not isinstance(live, LiveGame) or live.version > row.version:
            live = self._build(row, self._placer(row))
            self._cache.put(row.id, live, live.weight)
        return live

    def _placer(self, row: GameRow) -> MinePlacer:
        """The stored layout once there is one; before it, the rule's placer (a worker process
        for no-guess boards)."""
        if row.layout is not None:
            return RecordedPlacer(
                layouts.decode(row.layout, row.rows, row.cols), row.rule, row.seed
            )
        if row.rule == NO_GUESS_RULE:
            return WorkerPlacer(row.seed, self._no_guess)
        return placer_for_rule(row.rule, row.seed)

    def _catch_up(self, live: LiveGame, moves: list[StoredMove]) -> None:
        """Replay stored moves the cached game has not seen, each at its stored time."""
        for stored in moves:
            if stored.seq <= live.version:
                continue
            with live.clock.pinned_at(stored.at):
                live.game.play(Move.parse(stored.move))
            live.version = stored.seq
        live.changes.clear()

    @staticmethod
    def _unranked(row: GameRow, game: Game, daily_first: bool | None) -> str | None:
        """Why a finished game does not rank, or None (`mines.ranking.unranked_reason`)."""
        return leaderboard.unranked_reason(
            preset_of(row.rows, row.cols, row.mines),
            row.rule,
            row.preset,
            row.account_id is not None,
            row.assisted,
            game.status.value,
            (game.three_bv if game.started else 0, game.elapsed),
            daily_first,
        )

    def _ranks(self, row: GameRow, game: Game, daily_first: bool | None) -> bool:
        return self._unranked(row, game, daily_first) is None

    def _daily_first(self, row: GameRow) -> str | None:
        """On a daily board, the account's first finished game there (None: this one is)."""
        if row.daily is None or row.account_id is None or row.preset is None:
            return None
        return self.storage.daily_first(row.account_id, row.daily, row.preset, row.rule)

    def _write(
        self,
        row: GameRow,
        live: LiveGame,
        move: Move,
        now: float,
        was_started: bool,
        first_attempt: bool = True,
    ) -> MoveWrite:
        """The storage of one move; a win ranks on a daily board only as the account's
        `first_attempt` there (later ones are practice)."""
        game = live.game
        layout = None
        if game.started and not was_started:
            positions = live.placer.positions
            assert positions is not None  # the game placed its mines through this placer
            layout = layouts.encode(positions, row.rows, row.cols)
        result = None
        if (
            game.status is GameStatus.WON
            and row.preset is not None
            and self._ranks(row, game, None if row.daily is None else first_attempt)
        ):
            no_guess = row.rule == NO_GUESS_RULE
            result = Result(
                row.id,
                row.preset,
                no_guess,
                row.player,
                game.elapsed,
                now,
                row.account_id,
                row.daily,
                no_flags(True, game.flags_used),
                game.three_bv,
            )
        stored = StoredMove(live.version + 1, str(move), now)
        finish = None
        if game.status.is_over:
            won = game.status is GameStatus.WON
            three_bv = game.three_bv if game.started else 0
            finish = Finish(now, game.elapsed, three_bv, no_flags(won, game.flags_used))
        return MoveWrite(stored, game.status.value, layout, result, finish)

    def _broadcast(self, live: LiveGame, move: Move, changes: list[CellChanges]) -> dict[str, Any]:
        game = live.game
        box = changes_box(changes)
        changed: Changed = []
        complete = box is None
        if box is not None and box[2] * box[3] <= self.settings.view_limit:
            changed, complete = changed_cells(game.view(*box), changes, self.settings.changed_limit)
        return {
            "type": "move",
            "move": str(move),
            "version": live.version,
            "status": game.status.value,
            "mines_left": game.mines_left,
            "elapsed": round(game.elapsed, 3),
            "changed": changed,
            "changed_complete": complete,
        }
