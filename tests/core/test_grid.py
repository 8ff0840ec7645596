"""`mines.grid`: the one cell-by-cell flood, and where it hands over to whole-array floods."""

from __future__ import annotations

from mines.grid import walk


def test_the_walk_stops_only_past_its_budget() -> None:
    """A flood of exactly `budget` cells finishes; one cell more and it hands over."""

    def around(cell: int) -> list[int]:
        return [n for n in (cell - 1, cell + 1) if 0 <= n < 4]

    def anywhere(cell: int) -> bool:
        return True

    opened, complete = walk(0, around, anywhere, anywhere, budget=4)
    assert (sorted(opened), complete) == ([0, 1, 2, 3], True)
    opened, complete = walk(0, around, anywhere, anywhere, budget=3)
    assert complete is False
    assert len(opened) == 4
    assert walk(0, around, anywhere, anywhere, budget=None) == ([0, 1, 2, 3], True)
