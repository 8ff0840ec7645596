"""Presets, and `board_size`: the one answer to "a preset, or rows, cols and mines"."""

from __future__ import annotations

import pytest

from mines import BoardSize, InvalidBoardError, board_size
from mines.presets import preset, preset_of


def test_a_preset_or_a_size_names_a_board() -> None:
    assert board_size(preset="expert") == BoardSize(16, 30, 99)
    assert board_size(preset="Intermediate") == (16, 16, 40)
    assert board_size(rows=5, cols=7, mines=3) == BoardSize(5, 7, 3)
    assert board_size(default="beginner") == (9, 9, 10)
    assert board_size(rows=5, cols=7, mines=3, default="expert") == (5, 7, 3)


@pytest.mark.parametrize(
    ("request_", "says"),
    [
        ({"preset": "expert", "rows": 16}, r"not both \(got preset 'expert' and rows\)"),
        ({"preset": "beginner", "rows": 9, "cols": 9, "mines": 10}, "and rows, cols, mines"),
        ({"rows": 9}, "needs all three of rows, cols and mines; cols and mines are missing"),
        ({"rows": 9, "cols": 9}, "; mines is missing"),
        ({}, "give a preset, or all three of rows, cols and mines"),
        ({"preset": "huge"}, "unknown preset 'huge'; choose one of beginner, intermediate"),
        ({"preset": 3}, "unknown preset 3"),
        ({"rows": 3, "cols": 3, "mines": 9}, "mines must be from 0 to 8"),
        ({"default": "nope"}, "unknown preset 'nope'"),
    ],
)
def test_every_other_request_is_refused_saying_why(request_: dict[str, object], says: str) -> None:
    with pytest.raises(InvalidBoardError, match=says):
        board_size(**request_)  # type: ignore[arg-type]


def test_presets_are_found_by_name_and_by_size() -> None:
    assert preset("EXPERT").mines == 99
    assert preset_of(16, 16, 40) == "intermediate"
    assert preset_of(16, 16, 41) is None
