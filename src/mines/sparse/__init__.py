"""The sparse engine: boards of up to 10^12 cells, stored by their mines, flags and openings."""

from mines.sparse.engine import SparseEngine

__all__ = ["SparseEngine"]
