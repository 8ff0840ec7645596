"""`BoardView`: parsing, per-cell access, iteration and the symbol vocabulary."""

from __future__ import annotations

import pytest

from mines import BoardView, Cell, GameStatus, InvalidBoardError


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
