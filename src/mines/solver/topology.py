"""Neighbour tables of a board in flat cell indices (`row * cols + col`), built once per size."""

from __future__ import annotations

from functools import lru_cache

Neighbours = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=32)
def neighbours(rows: int, cols: int) -> Neighbours:
    """For each flat cell index, the flat indices of its up to eight neighbours."""
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(
                tuple(
                    rr * cols + cc
                    for rr in range(max(r - 1, 0), min(r + 2, rows))
                    for cc in range(max(c - 1, 0), min(c + 2, cols))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)
