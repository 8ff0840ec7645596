"""The take-home `Minesweeper` class: lenient moves and string views over `Game`."""

from __future__ import annotations

from mines.errors import IllegalMoveError
from mines.game import Game
from mines.moves import MoveKind
from mines.placement import FixedPlacer
from mines.status import GameStatus
from mines.symbols import Cell

# The take-home shows only H, F, 0-8 and M; the engine's loss markers fold into those.
_TAKEHOME_SYMBOL = {Cell.EXPLODED.value: Cell.MINE.value, Cell.WRONG_FLAG.value: Cell.FLAG.value}


class Minesweeper:
    """`Minesweeper(rows, cols, mines)` with `reveal`, `toggle_flag` and `get_board_view`.

    Moves the rules do not allow (out of bounds, on a flagged or revealed cell,
    after the game ended) change nothing and return the status, as the statement asks.
    """

    def __init__(self, rows: int, cols: int, mines: list[tuple[int, int]]):
        self._game = Game(rows, cols, len(mines), placer=FixedPlacer(mines))

    def reveal(self, row: int, col: int) -> str:
        try:
            return self._game.reveal(row, col).value
        except IllegalMoveError:
            return self._game.status.value

    def toggle_flag(self, row: int, col: int) -> None:
        try:
            self._game.toggle_flag(row, col)
        except IllegalMoveError:
            return

    def get_board_view(self) -> list[list[str]]:
        view = [
            [_TAKEHOME_SYMBOL.get(symbol, symbol) for symbol in line]
            for line in self._game.view().to_strings()
        ]
        if self._game.status is GameStatus.WON:
            # The core draws every mine flagged after a win, as the classic game does; the
            # statement's legend has `F` only for the player's own flags, `H` for the rest.
            for row, col in self._unflagged_mines():
                view[row][col] = Cell.HIDDEN.value
        return view

    def _unflagged_mines(self) -> set[tuple[int, int]]:
        record = self._game.record()
        flagged: set[tuple[int, int]] = set()
        for timed in record.moves:
            if timed.move.kind is MoveKind.FLAG:
                flagged ^= {(timed.move.row, timed.move.col)}
        return set(record.layout or ()) - flagged

    @property
    def status(self) -> str:
        return self._game.status.value
