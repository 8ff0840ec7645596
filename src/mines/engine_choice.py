"""The choice of engine for a board: the kind asked for, or the one that fits its size."""

from __future__ import annotations

from mines.dense import DenseEngine
from mines.engine import Engine, EngineKind
from mines.errors import InvalidBoardError
from mines.sparse import SparseEngine

DENSE_CELL_LIMIT = 50_000_000
"""Boards above this many cells use the sparse engine unless told otherwise."""


def choose_engine(rows: int, cols: int, kind: EngineKind | str | None) -> Engine:
    """Make the engine for a board: the named kind, or the one that fits its size."""
    if kind is None:
        kind = EngineKind.DENSE if rows * cols <= DENSE_CELL_LIMIT else EngineKind.SPARSE
    try:
        kind = EngineKind(kind)
    except ValueError:
        raise InvalidBoardError(
            f"unknown engine {kind!r}; allowed: {', '.join(k.value for k in EngineKind)}"
        ) from None
    if kind is EngineKind.SPARSE:
        return SparseEngine(rows, cols)
    if rows * cols > DENSE_CELL_LIMIT:
        raise InvalidBoardError(
            f"a dense board holds at most {DENSE_CELL_LIMIT:,} cells; "
            f"{rows}x{cols} needs engine='sparse'"
        )
    return DenseEngine(rows, cols)
