"""Neighbour tables of a board in flat cell indices (`row * cols + col`), built once per size."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mines.grid import neighbours as neighbour_array

Neighbours = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=8)
def neighbours(rows: int, cols: int) -> Neighbours:
    """For each flat cell index, the flat indices of its up to eight neighbours.

    The solver's cell-by-cell rules index this table; it is cut from the core's neighbour
    array, so the order is the one every part of the package uses (row by row).
    """
    around, on_board = neighbour_array(np.arange(rows * cols, dtype=np.int64), rows, cols)
    flat = around[on_board].tolist()
    ends = np.cumsum(np.count_nonzero(on_board, axis=1)).tolist()
    return tuple(tuple(flat[start:end]) for start, end in zip([0, *ends[:-1]], ends, strict=True))
