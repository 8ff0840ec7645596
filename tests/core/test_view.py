"""`BoardView`: parsing, per-cell access, iteration and the symbol vocabulary."""

from __future__ import annotations

import pytest

from mines import BoardView, Cell, Game, GameStatus, InvalidBoardError


def test_from_strings_round_trips() -> None:
    lines = ["H10", "F2X", "MW8"]
    view = BoardView.from_strings(lines, status=GameStatus.LOST, mines_left=3)
    assert view.to_strings() == lines
    assert str(view) == "H10\nF2X\nMW8"
    assert view[1, 2] is Cell.EXPLODED
    assert view.array.shape == (3, 3)
    assert chr(view.array[2, 2]) == "8"
    assert [(r, c, cell) for r, c, cell in view.cells()][:2] == [
        (0, 0, Cell.HIDDEN),
        (0, 1, Cell.ONE),
    ]


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        ([], "at least one row"),
        (["HH", "H"], "the same length"),
        (["H?"], r"unknown symbols \['\?'\]"),
    ],
)
def test_from_strings_rejects_bad_text(lines: list[str], says: str) -> None:
    with pytest.raises(InvalidBoardError, match=says):
        BoardView.from_strings(lines)


def test_cell_numbers() -> None:
    assert Cell.from_count(3) is Cell.THREE
    assert Cell.THREE.number == 3
    assert Cell.FLAG.number is None
    assert Cell.ZERO.is_revealed_number
    assert not Cell.MINE.is_revealed_number


def test_a_window_knows_its_board_and_its_own_edges() -> None:
    game = Game(4, 5, 0, seed=1)
    window = game.view(1, 2, 2, 2)
    assert [(r, c) for r, c, _ in window.cells()] == [(1, 2), (1, 3), (2, 2), (2, 3)]
    inside = {(1, 2), (1, 3), (2, 2), (2, 3)}
    for row in range(4):
        for col in range(5):
            assert window.contains(row, col) == ((row, col) in inside)
    with pytest.raises(IndexError) as outside:
        window.symbol(3, 2)
    assert str(outside.value) == "(3, 2) is outside this view (rows 1..2, cols 2..3)"


def test_a_view_from_text_is_a_whole_board_with_what_it_was_told() -> None:
    view = BoardView.from_strings(["H1", "HH"])
    assert (view.rows, view.cols, view.top, view.left) == (2, 2, 0, 0)
    assert (view.status, view.mines_left) == (GameStatus.IN_PROGRESS, 0)
    told = BoardView.from_strings(["F1"], status=GameStatus.WON, mines_left=-1)
    assert (told.status, told.mines_left) == (GameStatus.WON, -1)
    with pytest.raises(InvalidBoardError) as uneven:
        BoardView.from_strings(["HH", "H"])
    assert str(uneven.value) == "a board needs at least one row, and every row the same length"
    with pytest.raises(InvalidBoardError) as unknown:
        BoardView.from_strings(["H?"])
    assert str(unknown.value) == "unknown symbols ['?']; allowed: 012345678FHMWX"
