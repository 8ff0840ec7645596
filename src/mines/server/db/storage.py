"""The storage contract the server writes games to, and the choice of backend by URL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from mines.errors import MinesError


class StorageError(MinesError):
    """The database failed, or a database URL the server cannot use (the message says what is
    accepted). `public`, when set, says in the server's own words what a client may be told
    (the message itself may hold the driver's text, the database's host and port)."""

    def __init__(self, message: str, public: str | None = None):
        super().__init__(message)
        self.public = public


ANONYMOUS = "anonymous"
"""The player of a game played without an account or a name."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """What the server stores about a game besides its moves.

    `version` counts the stored moves: a cached `Game` at the same version is current.
    `layout` is the mine layout in the compact text of `mines.server.db.layouts`, written at the
    first reveal (None before it).
    """

    id: str
    token_hash: str
    rows: int
    cols: int
    mines: int
    rule: str
    seed: int
    player: str
    preset: str | None
    """The preset the game ranks under on the leaderboard, or None when it does not rank."""
    created_at: float
    layout: str | None
    status: str
    version: int
    assisted: bool = False
    """The player had help (hints or analysis): the game never ranks."""
    wasted: int = 0
    """Moves asked for while the game was on that changed nothing (so were not stored)."""
    account_id: str | None = None
    """The account signed in when the game was created; None for an anonymous game, which
    never ranks."""
    daily: str | None = None
    """The UTC day (`YYYY-MM-DD`) of the daily board this game is played on, or None."""


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A finished game's review as stored: its JSON, or the solver's refusal in words."""

    body: str
    refused: bool = False


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One applied move: its text (`O3,4`) and the server's wall time when it was made."""

    seq: int
    move: str
    at: float


@dataclass(frozen=True, slots=True)
class Result:
    """A won, ranked game on the leaderboard."""

    game_id: str
    preset: str
    no_guess: bool
    player: str
    time: float
    finished_at: float
    account_id: str | None = None
    """The account the win ranks for (every new result has one; older results have none and
    are no longer shown)."""
    daily: str | None = None
    """The day of the daily board it ranks on; None on the all-time board."""
    no_flags: bool = False
    """Won without a single flag (`mines.scoring.no_flags`): it ranks on the no-flag boards
    too."""
    three_bv: int = 0
    clicks: int = 0
    """Every move asked for while the game was on (for efficiency, as `AccountGame.clicks`);
    the store counts them from the game's row as it writes the result."""


@dataclass(frozen=True, slots=True)
class Best:
    """An account's best win on a board of one period and measure (`Storage.board`)."""

    game_id: str
    player: str
    time: float
    three_bv: int
    clicks: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """Which of an account's finished games to list (`Storage.account_history`), newest
    first: those finished before `before` ((finished_at, id), the last one of the page
    before; None from the newest), of one board, of one result."""

    limit: int
    hidden_day: str
    """Daily games of this UTC day or later are left out (their board is still being played)."""
    before: tuple[float, str] | None = None
    size: tuple[int, int, int] | None = None
    """Rows, cols and mines of the board (a preset's); None for every board."""
    custom: bool = False
    """Only games on boards of no preset (`size` is then None)."""
    result: str | None = None
    """"won", "lost" or "no_flags" (no-flag wins); None for all."""


@dataclass(frozen=True, slots=True)
class Finish:
    """What the move that ends a game stores for the player's statistics."""

    finished_at: float
    elapsed: float
    three_bv: int
    no_flags: bool = False
    """A win without a single flag (`mines.scoring.no_flags`)."""


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """What one move changes in storage, written in one short transaction."""

    move: StoredMove
    status: str
    layout: str | None
    result: Result | None
    finish: Finish | None = None


@dataclass(frozen=True, slots=True)
class AccountGame:
    """A finished game of an account, as its statistics count it."""

    id: str
    rows: int
    cols: int
    mines: int
    rule: str
    preset: str | None
    """The preset it ranked under, or None (as `GameRow.preset`)."""
    status: str
    assisted: bool
    clicks: int
    """Every move asked for while it was on: the stored ones and the wasted ones."""
    finished_at: float
    elapsed: float
    three_bv: int
    daily: str | None = None
    """The day of the daily board it was played on, or None."""
    daily_first: bool = False
    """On a daily board, whether it is the account's first finished game there (the one that
    may rank; `Storage.daily_first` names it)."""
    no_flags: bool = False
    """A win without a single flag (`mines.scoring.no_flags`); False for games finished
    before the server recorded it."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    """A player's account: the name as shown, its two look-alike skeletons (each unique, see
    `mines.server.services.names.skeletons`) and the Argon2id hash of its password."""

    id: str
    name: str
    skeleton: str
    skeleton_cased: str
    password_hash: str
    created_at: float
    stats_imported_at: float | None = None
    """When a browser's statistics were added to the account (`ImportedBoard`); None until
    then. An account takes them once."""
    suspended_at: float | None = None
    """When an operator suspended the account (`mines admin suspend`); None while it may sign
    in and rank."""
    hidden: bool = False
    """An operator hid its name: it is left off the leaderboard, its profile and races."""


@dataclass(frozen=True, slots=True)
class ImportedBoard:
    """A browser's own statistics of one preset board, added to an account once. The browser
    counted them itself, so nothing vouches for them: they are shown apart and never rank."""

    preset: str
    no_guess: bool
    games: int
    wins: int
    best_streak: int
    best_time: float | None
    best_three_bv_per_second: float | None


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A signed-in browser or client: the SHA-256 of its cookie's token, never the token."""

    token_hash: str
    account_id: str
    created_at: float
    expires_at: float


ACCOUNT_ACTIONS = ("suspend", "restore", "hide", "show")
"""What an operator may do to an account, but rename (which takes the new name)."""


@dataclass(frozen=True, slots=True)
class Moderation:
    """One operator action, as the moderation log keeps it."""

    at: float
    actor: str
    """Who did it (the operator's name, as `mines admin --by` gave it)."""
    action: str
    """suspend, restore, rename, hide, show, block or unblock."""
    target: str
    """The account's name at the time (or the network blocked)."""
    reason: str
    account_id: str | None = None
    new_name: tuple[str, str, str] | None = None
    """A rename's new name and its two skeletons."""


class StaleGameError(MinesError):
    """The game has moves stored since the version a move was computed on (another process
    moved in it): the move is not stored, and the caller rebuilds the game and tries again."""


class Storage(Protocol):
    """Games, their moves and the leaderboard, durable once a call returns."""

    announce_moves: bool
    """Whether a move's transaction tells the other processes itself (PostgreSQL's NOTIFY);
    off when live frames go through Redis (`mines.server.services.fanout`)."""

    def create(self, row: GameRow) -> None: ...

    def load(self, game_id: str) -> GameRow | None: ...

    def moves_after(self, game_id: str, version: int) -> list[StoredMove]: ...

    def version(self, game_id: str) -> int | None:
        """How many moves the game has stored (None: no such game)."""
        ...

    def append(self, game_id: str, change: MoveWrite) -> None:
        """Store one move in a short transaction that locks only this game's row.

        Raises `StaleGameError` (and stores nothing) unless the game's stored version is the
        one just before `change.move.seq`.
        """
        ...

    def leaderboard(
        self, preset: str, no_guess: bool, limit: int, daily: str, no_flags: bool = False
    ) -> list[Result]:
        """Each account's best time on the `daily` board of that day, assisted games left
        out, best first (with `no_flags`, its no-flag wins only)."""
        ...

    def board(
        self,
        preset: str,
        no_guess: bool,
        no_flags: bool,
        period: str,
        measure: str,
        limit: int,
    ) -> list[Best]:
        """Each account's best win on a board by period and measure, best first, in one
        indexed query: `period` a key of `mines.ranking.period_key`, `measure` one of
        `mines.ranking.MEASURES`; with `no_flags`, no-flag wins only. Wins on daily boards
        rank on their day's board, not here."""
        ...

    def daily_seed(self, day: str, preset: str, no_guess: bool, candidate: int) -> int:
        """The seed of a day's daily board: the one stored, else `candidate`, stored now."""
        ...

    def known_daily_seed(self, day: str, preset: str, no_guess: bool) -> int | None:
        """The seed of a day's daily board, or None when nobody played it."""
        ...

    def daily_first(self, account_id: str, day: str, preset: str, rule: str) -> str | None:
        """The ID of the account's first finished game on that daily board, or None."""
        ...

    def mark_assisted(self, game_id: str) -> bool:
        """Record that the game's player had help; False when no game has this ID."""
        ...

    def count_wasted(self, game_id: str) -> None:
        """Count a move asked for in a game in progress that changed nothing."""
        ...

    def load_review(self, game_id: str, version: int) -> StoredReview | None:
        """A game's stored review, if one was stored in this format `version`."""
        ...

    def store_review(self, game_id: str, version: int, body: str, *, refused: bool = False) -> None:
        """Keep a finished game's review (JSON) in format `version`, replacing any other; with
        `refused`, `body` is the solver's refusal to review it, in words."""
        ...

    def listen(
        self, on_move: Callable[[str], None], on_missed: Callable[[], None]
    ) -> Callable[[], None] | None:
        """Call `on_move(game_id)` from another thread when another process stores a move, and
        `on_missed()` when some may have gone unheard (the listener lost its connection and has
        it again): every watcher should then read again. Returns a stop function, or None
        where the database cannot tell (SQLite)."""
        ...

    def account_games(self, account_id: str) -> list[AccountGame]:
        """The account's finished games, oldest first."""
        ...

    def account_history(self, account_id: str, page: HistoryPage) -> list[AccountGame]:
        """One page of the account's finished games, newest first (`HistoryPage`): keyed on
        (finished_at, id), so games finished meanwhile never shift a page."""
        ...

    def create_account(self, account: AccountRow) -> bool:
        """Store a new account; False (and nothing stored) when either skeleton is taken."""
        ...

    def name_free(self, skeleton: str, skeleton_cased: str) -> bool:
        """Whether no account has either skeleton (as its same skeleton)."""
        ...

    def find_account(self, skeleton: str) -> AccountRow | None:
        """The account whose (case-folded first) skeleton this is."""
        ...

    def set_password_hash(self, account_id: str, password_hash: str) -> None: ...

    def import_stats(self, account_id: str, at: float, boards: list[ImportedBoard]) -> bool:
        """Store a browser's statistics for the account at wall time `at`, in one transaction;
        False (and nothing stored) when the account has taken a browser's before."""
        ...

    def imported_stats(self, account_id: str) -> list[ImportedBoard]:
        """The browser's statistics the account took, by preset then no-guess; [] if none."""
        ...

    def start_session(self, session: SessionRow, ended: str | None) -> None:
        """Store a new session, ending the one whose token hash is `ended` (rotation)."""
        ...

    def session_account(self, token_hash: str, now: float) -> AccountRow | None:
        """The account signed in by this session, unless it ended or expired by `now`."""
        ...

    def end_session(self, token_hash: str) -> None: ...

    def change_password(self, account_id: str, password_hash: str, kept: str) -> int:
        """Store a new password hash and end every session of the account but the one whose
        token hash is `kept`; the number of sessions ended."""
        ...

    def delete_account(self, account_id: str) -> None:
        """Delete the account, its sessions, its imported statistics and the name the
        moderation log knew it by; its games and results stay, anonymous and unranked."""
        ...

    def account_export(self, account_id: str) -> dict[str, Any]:
        """Every row the database keeps about the account, as JSON-ready values."""
        ...

    def prune_sessions(self, now: float, *, dry_run: bool = False) -> int:
        """Delete the sessions expired by `now` (count them only, with `dry_run`)."""
        ...

    def moderate(self, action: Moderation) -> None:
        """Apply an operator's action to an account (`Moderation.action`) and log it, in one
        transaction."""
        ...

    def moderation_log(self, limit: int) -> list[Moderation]:
        """The latest operator actions, newest first."""
        ...

    def block(self, network: str, at: float, actor: str, reason: str) -> bool:
        """Refuse requests from `network` (an address or CIDR), logged; False if it was."""
        ...

    def unblock(self, network: str, at: float, actor: str, reason: str) -> bool:
        """Serve `network` again, logged; False when it was not blocked."""
        ...

    def blocked_networks(self) -> list[str]:
        """The networks refused, as they were blocked."""
        ...

    def name_withheld(self, skeleton: str) -> bool:
        """Whether a hidden or suspended account has this (case-folded) skeleton."""
        ...

    def prune(self, before: float, *, dry_run: bool = False) -> int:
        """Delete the games in progress idle since before `before` (wall time), with their
        moves; finished games stay. The number of games (that would be) deleted."""
        ...

    def ping(self) -> None:
        """Return once the database answers a query; raise `StorageError` when it fails."""
        ...

    def close(self) -> None: ...
