"""LeetCode 529 `update_board`: the three examples and random boards against its own rules."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mines import InvalidBoardError
from mines.compat import update_board


@pytest.mark.parametrize(
    ("board", "click", "expected"),
    [
        (["EEEE", "EEME", "EEEE"], [2, 0], ["B1EE", "B1ME", "B1EE"]),
        (["EEEE", "EEME", "EEEE"], [1, 2], ["EEEE", "EEXE", "EEEE"]),
        (["EM", "EE"], [1, 0], ["EM", "1E"]),
    ],
)
def test_examples(board: list[str], click: list[int], expected: list[str]) -> None:
    assert update_board(board, click) == expected
    as_lists = update_board([list(row) for row in board], click)
    assert as_lists == [list(row) for row in expected]


def leetcode_reference(board: list[str], click: tuple[int, int]) -> list[str]:
    """The problem's rules, written out directly."""
    grid = [list(row) for row in board]
    rows, cols = len(grid), len(grid[0])
    r, c = click
    if grid[r][c] == "M":
        grid[r][c] = "X"
        return ["".join(row) for row in grid]
    queue = deque([(r, c)])
    seen = {(r, c)}
    while queue:
        r, c = queue.popleft()
        around = [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        mines = sum(grid[a][b] in "MX" for a, b in around)
        if mines:
            grid[r][c] = str(mines)
            continue
        grid[r][c] = "B"
        for cell in around:
            if grid[cell[0]][cell[1]] == "E" and cell not in seen:
                seen.add(cell)
                queue.append(cell)
    return ["".join(row) for row in grid]


@st.composite
def fresh_boards(draw: st.DrawFn) -> tuple[list[str], tuple[int, int]]:
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = draw(st.lists(st.sampled_from("EEEM"), min_size=rows * cols, max_size=rows * cols))
    board = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    click = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    return board, click


@given(fresh_boards())
@settings(max_examples=300)
def test_random_boards_then_a_second_click(case: tuple[list[str], tuple[int, int]]) -> None:
    board, click = case
    after = update_board(board, list(click))
    assert after == leetcode_reference(board, click)
    if "X" in "".join(after):
        return
    unrevealed = [(r, c) for r, row in enumerate(after) for c, ch in enumerate(row) if ch in "ME"]
    if unrevealed:
        second = unrevealed[len(unrevealed) // 2]
        assert update_board(after, list(second)) == leetcode_reference(after, second)


def test_every_safe_cell_open_and_a_mine_clicked() -> None:
    assert update_board(["1M"], [0, 1]) == ["1X"]
    assert update_board(["M"], [0, 0]) == ["X"]


def test_bad_input() -> None:
    with pytest.raises(InvalidBoardError, match="must be on an M or E"):
        update_board(["B1", "1M"], [0, 0])
    with pytest.raises(InvalidBoardError, match="unknown cells"):
        update_board(["EQ"], [0, 0])
