"""`RemoteGame`: a game kept on a `mines serve` server, drawn from the server's view of it."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt

from mines.engine import CellChanges, PositionChanges
from mines.errors import GameInProgressError, IllegalMoveError, MinesError
from mines.gameid import GameId
from mines.moves import Move, MoveKind
from mines.record import GameRecord
from mines.status import GameStatus
from mines.symbols import Cell
from mines.view import BoardView

if TYPE_CHECKING:  # the solver loads when first asked (a hint), not as the game starts
    from mines.solver import Hint

_HIDDEN, _FLAG = ord(Cell.HIDDEN.value), ord(Cell.FLAG.value)
_PEOPLES_CELL = re.compile(r"\(row (\d+), column (\d+)\)")
"""A cell as the server's words name it for people, counted from 1."""
UNRANKED = {
    "custom": "not a preset board, or not the classic or no-guess rule",
    "seeded": "its seed was chosen",
    "anonymous": "nobody was signed in when it started",
    "assisted": "it had help (a hint)",
    "lost": "it was lost",
    "too_fast": "faster than people play",
    "practice": "a later attempt at today's daily board",
}
"""The summary's `unranked` reasons (docs/server.md, Leaderboard), in words."""


class ServerError(MinesError):
    """The server could not be reached, or refused a request for a reason that is not the
    game's rules (signed out, rate limited, down); the message says what happened, in a line.

    `status` is the HTTP status (None when no answer came), `code` the server's error code
    (`timeout` and `unreachable` when none came), `detail` the server's own words.
    """

    def __init__(
        self, message: str, *, status: int | None = None, code: str = "", detail: str = ""
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.detail = detail or message


class GameServer(Protocol):
    """What a `RemoteGame` asks of the server (`mines.tui.client.ServerClient` does it)."""

    url: str

    def move(
        self,
        game_id: str,
        token: str,
        kind: MoveKind,
        row: int,
        col: int,
        *,
        flagged: bool | None = None,
    ) -> dict[str, Any]: ...

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]: ...

    def hint(self, game_id: str, token: str) -> dict[str, Any]: ...

    def summary(self, game_id: str, token: str | None = None) -> dict[str, Any]: ...

    def record(self, game_id: str, token: str | None = None) -> dict[str, Any]: ...


class WholeBoard:
    """Every cell changed, as far as a viewer can tell: the server's list was cut, so the
    view is drawn again from the cells it sent."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols

    def __len__(self) -> int:
        return self.rows * self.cols

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return self.within(0, 0, self.rows, self.cols)

    def bounds(self) -> tuple[int, int, int, int] | None:
        return 0, 0, self.rows, self.cols

    def within(self, top: int, left: int, height: int, width: int) -> Iterator[tuple[int, int]]:
        return ((r, c) for r in range(top, top + height) for c in range(left, left + width))


class RemoteGame:
    """A game on a server, played through its API: the server keeps the mines and the rules;
    this keeps the last view it sent (patched by each move's changed cells) and reads the
    time on from it. It offers what the terminal game reads of a local `Game`.
    """

    def __init__(
        self,
        server: GameServer,
        answer: Mapping[str, Any],
        token: str,
        *,
        player: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`answer`: the server's answer that created the game, or a read of it; `player`:
        the account signed in when it was created (None: nobody, so it does not rank)."""
        self.server = server
        self.player = player
        self.id: str = answer["id"]
        self.token = token
        board = answer["board"]
        self.rows: int = board["rows"]
        self.cols: int = board["cols"]
        self.mines: int = board["mines"]
        self.preset: str | None = board["preset"]
        self.no_guess: bool = board["no_guess"]
        self.ranks: bool = answer["ranks"]
        """Whether a win would rank so far (signed in, a ranked kind of board, no help)."""
        self._clock = clock
        self._cells = np.full((self.rows, self.cols), _HIDDEN, dtype=np.uint8)
        self._status = GameStatus.IN_PROGRESS
        self._mines_left: int = self.mines
        self._elapsed = 0.0
        self._seen_at = clock()
        self._version = 0
        self._started = False
        self._summary: dict[str, Any] | None = None
        self._cell_observers: list[Callable[[CellChanges], None]] = []
        self._status_observers: list[Callable[[GameStatus], None]] = []
        self._take(answer["view"])

    # --- what the terminal game reads --------------------------------------------------------

    @property
    def status(self) -> GameStatus:
        return self._status

    @property
    def started(self) -> bool:
        return self._started

    @property
    def mines_left(self) -> int:
        return self._mines_left

    @property
    def elapsed(self) -> float:
        """The server's time at its last answer, read on by this machine's clock while the
        game goes on (the server's clock decides; this only keeps the display moving)."""
        if self._started and not self._status.is_over:
            return self._elapsed + max(0.0, self._clock() - self._seen_at)
        return self._elapsed

    @property
    def game_id(self) -> GameId | None:
        """None: the server draws the seed and shows it only once the game is over."""
        return None

    @property
    def opened(self) -> int:
        """Safe cells revealed, as the view shows them."""
        codes = self._cells
        return int(np.count_nonzero((codes >= ord("0")) & (codes <= ord("8"))))

    @property
    def three_bv(self) -> int:
        """The board's 3BV, from the server's summary once the game is over."""
        return int(self.summary()["three_bv"])

    def view(
        self, top: int = 0, left: int = 0, height: int | None = None, width: int | None = None
    ) -> BoardView:
        height = self.rows - top if height is None else height
        width = self.cols - left if width is None else width
        symbols: npt.NDArray[np.uint8] = self._cells[top : top + height, left : left + width]
        return BoardView.from_symbols(
            np.ascontiguousarray(symbols),
            rows=self.rows,
            cols=self.cols,
            status=self._status,
            mines_left=self._mines_left,
            top=top,
            left=left,
        )

    def on_cells(self, callback: Callable[[CellChanges], None]) -> Callable[[], None]:
        self._cell_observers.append(callback)
        return lambda: self._cell_observers.remove(callback)

    def on_status(self, callback: Callable[[GameStatus], None]) -> Callable[[], None]:
        self._status_observers.append(callback)
        return lambda: self._status_observers.remove(callback)

    # --- moves -------------------------------------------------------------------------------

    def play(self, move: Move) -> GameStatus:
        """Send the move; the server's answer is drawn. A move the rules refuse raises
        `IllegalMoveError` (the server's words); a server that fails raises `ServerError`,
        saying that the game is kept there."""
        if self._status.is_over:
            raise IllegalMoveError(f"the game is over ({self._status.value.lower()})")
        flagged = None
        if move.kind is MoveKind.FLAG and 0 <= move.row < self.rows and 0 <= move.col < self.cols:
            # The state the flag should end in, not a toggle: a retry cannot undo it.
            flagged = bool(self._cells[move.row, move.col] != _FLAG)
        try:
            answer = self.server.move(
                self.id, self.token, move.kind, move.row, move.col, flagged=flagged
            )
        except ServerError as error:
            raise ServerError(
                f"{error}. The game is kept on the server: try again, or quit and "
                f"mines play --server {self.server.url} goes on with it",
                status=error.status,
                code=error.code,
                detail=error.detail,
            ) from None
        if flagged is not None and not answer["changed"]:
            # The server says the cell already was as asked (flagged in another terminal).
            self._cells[move.row, move.col] = _FLAG if flagged else _HIDDEN
        self._apply(answer)
        return self._status

    def refresh(self) -> None:
        """Read the game again (after the server was away, or on coming back to it)."""
        self._apply({"view": self.server.game(self.id, self.token)["view"], "changed": []})

    def _apply(self, answer: Mapping[str, Any]) -> None:
        view, changed = answer["view"], answer["changed"]
        before, version = self._status, self._version
        if "cells" not in view and view["version"] != version + (1 if changed else 0):
            # Moves this client did not see (an answer lost on the way, another terminal):
            # the whole board is read again.
            view = self.server.game(self.id, self.token)["view"]
        if "cells" in view:
            self._take(view)
            changes: CellChanges | None = WholeBoard(self.rows, self.cols)
            if answer.get("changed_complete", False):
                changes = _positions(changed)
        else:
            for row, col, symbol in changed:
                self._cells[row, col] = ord(symbol)
            self._take(view)
            changes = _positions(changed)
        if changes is not None:
            for observer in list(self._cell_observers):
                observer(changes)
        if self._status.is_over and not before.is_over:
            for status_observer in list(self._status_observers):
                status_observer(self._status)

    def _take(self, view: Mapping[str, Any]) -> None:
        """The view's facts, and its cells when it has them (the whole board, or a window)."""
        if "cells" in view:
            top, left = view["top"], view["left"]
            lines = "".join(view["cells"]).encode("ascii")
            block = np.frombuffer(lines, dtype=np.uint8).reshape(view["height"], view["width"])
            self._cells[top : top + view["height"], left : left + view["width"]] = block
        self._status = GameStatus(view["status"])
        self._mines_left = int(view["mines_left"])
        self._elapsed = float(view["elapsed"])
        self._seen_at = self._clock()
        self._version = int(view["version"])
        if not self._started:
            # Started at the first reveal: a revealed cell shows it (flags come before too).
            codes = self._cells
            self._started = bool(np.any((codes != _HIDDEN) & (codes != _FLAG)))

    # --- help and the end --------------------------------------------------------------------

    def introduction(self) -> str:
        """Where the game is played and whether a win would rank, in a sentence."""
        host = urlsplit(self.server.url).netloc
        if self.player is None:
            return f"On {host}, not signed in: this game does not rank."
        if self.ranks:
            return f"On {host} as {self.player}: a win ranks."
        return f"On {host} as {self.player}: this kind of game does not rank."

    def hint(self) -> Hint:
        """The server's hint; the server marks the game assisted first (it no longer ranks)."""
        found = self.server.hint(self.id, self.token)
        self.ranks = False
        chance = Fraction(found["probability"]).limit_denominator(1_000_000)
        # The server names cells as people count, from 1; the terminal game, as the solver
        # here and its own position line, writes (row, col) from 0.
        reason = _PEOPLES_CELL.sub(
            lambda cell: f"({int(cell[1]) - 1}, {int(cell[2]) - 1})", str(found["reason"])
        )
        from mines.solver import Hint

        return Hint(found["row"], found["col"], found["safe"], chance, reason)

    def summary(self) -> dict[str, Any]:
        """The server's figures of the finished game (asked once)."""
        if not self._status.is_over:
            raise GameInProgressError("the summary comes once the game is over")
        if self._summary is None:
            self._summary = self.server.summary(self.id, self.token)
        return self._summary

    def standing(self) -> str:
        """Whether the finished game ranked on the server, in a sentence."""
        summary = self.summary()
        if summary.get("ranked"):
            return "It counts on the leaderboard."
        reason = str(summary.get("unranked", ""))
        return f"Not ranked: {UNRANKED.get(reason, reason)}."

    def record(self) -> GameRecord:
        """The finished game's record, from the server (it has the layout)."""
        if not self._status.is_over:
            raise GameInProgressError("the record comes once the game is over")
        data = dict(self.server.record(self.id, self.token))
        data.pop("id", None)
        data.pop("created_at", None)
        return GameRecord.from_dict(data)


def _positions(changed: list[list[Any]]) -> PositionChanges | None:
    if not changed:
        return None
    return PositionChanges(np.array([(row, col) for row, col, _ in changed], dtype=np.int64))
