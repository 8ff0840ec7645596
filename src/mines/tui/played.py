"""`PlayedGame`: what the terminal game reads and asks of a game, played here or on a server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from mines.engine import CellChanges
from mines.game import Game
from mines.gameid import GameId
from mines.moves import Move
from mines.record import GameRecord
from mines.status import GameStatus
from mines.view import BoardView


class PlayedGame(Protocol):
    """A game as the board and the app see it: its views, its moves, its observers. A local
    `Game` is one; so is `mines.tui.remote.RemoteGame`, a game kept on a server. Neither the
    board nor the app holds a rule: they draw views and send moves."""

    rows: int
    cols: int
    mines: int

    @property
    def status(self) -> GameStatus: ...

    @property
    def started(self) -> bool: ...

    @property
    def mines_left(self) -> int: ...

    @property
    def elapsed(self) -> float: ...

    @property
    def game_id(self) -> GameId | None: ...

    @property
    def opened(self) -> int: ...

    def view(
        self, top: int = 0, left: int = 0, height: int | None = None, width: int | None = None
    ) -> BoardView: ...

    def play(self, move: Move) -> GameStatus: ...

    def on_cells(self, callback: Callable[[CellChanges], None]) -> Callable[[], None]: ...

    def on_status(self, callback: Callable[[GameStatus], None]) -> Callable[[], None]: ...

    def record(self) -> GameRecord: ...


def local(game: PlayedGame) -> Game:
    """The game as a local `Game`, for what only a game played here offers: undo, saving it
    on this machine and the solver's help on it. The app offers none of those for a game on
    a server, so reaching here with one is a bug."""
    if not isinstance(game, Game):
        raise TypeError(f"{type(game).__name__} is not played here: it has no local Game")
    return game
