"""Mine layouts as the server stores them: compact text that numpy writes and reads whole,
never one Python object per mine (a dense 1000x1000 layout was 12 MB of JSON pairs)."""

from __future__ import annotations

import base64
import binascii
import json

import numpy as np

from mines.placement import CoordArray, MinePlacer
from mines.server.db.storage import StorageError

MASK = "mask:"
"""A row-major bit per cell (`numpy.packbits`), base64: a dense 1000x1000 board in 167 KB."""
CELLS = "cells:"
"""The mines' row-major cell indices as little-endian int64, base64: 11 bytes a mine, for
boards with few mines for their size (a mask would be mostly zeros, or too big to build)."""


def encode(positions: CoordArray, rows: int, cols: int) -> str:
    """The stored text of a layout, in whichever form is smaller."""
    flat = np.sort(positions[:, 0] * cols + positions[:, 1]).astype("<i8")
    cells = rows * cols
    if (cells + 7) // 8 <= flat.nbytes:
        mask = np.zeros(cells, dtype=np.bool_)
        mask[flat] = True
        return MASK + base64.b64encode(np.packbits(mask).tobytes()).decode("ascii")
    return CELLS + base64.b64encode(flat.tobytes()).decode("ascii")


def decode(text: str, rows: int, cols: int) -> CoordArray:
    """The (mines, 2) positions of a stored layout; `StorageError` if the text is damaged."""
    kind, _, data = text.partition(":")
    try:
        raw = base64.b64decode(data, validate=True)
    except binascii.Error:
        raw = None
    cells = rows * cols
    if raw is not None and f"{kind}:" == MASK and len(raw) == (cells + 7) // 8:
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), count=cells)
        flat = np.flatnonzero(bits)
    elif raw is not None and f"{kind}:" == CELLS and len(raw) % 8 == 0:
        flat = np.frombuffer(raw, dtype="<i8").astype(np.int64)
    else:
        raise StorageError(f"a stored layout is damaged (it starts {text[:16]!r})")
    return np.stack(np.divmod(flat, cols), axis=1).astype(np.int64)


def from_json(text: str) -> CoordArray:
    """A layout as schema versions before 3 stored it: JSON `[[row, col], ...]`."""
    return np.array(json.loads(text), dtype=np.int64).reshape(-1, 2)


class KeepingPlacer:
    """Another placer's mines, passed on in row-major order and kept: the layout to store is
    this array, not the game's record (which builds a tuple per mine). The order is the one a
    stored layout comes back in, so a game's record reads the same after a rebuild."""

    def __init__(self, placer: MinePlacer):
        self.placer = placer
        self.positions: CoordArray | None = None

    @property
    def rule(self) -> str:
        return self.placer.rule

    @property
    def seed(self) -> int | None:
        return self.placer.seed

    def validate(self, rows: int, cols: int, mines: int) -> None:
        validate = getattr(self.placer, "validate", None)
        if callable(validate):
            validate(rows, cols, mines)

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        placed = np.asarray(self.placer.place(rows, cols, mines, first_click), dtype=np.int64)
        placed = placed.reshape(-1, 2)
        self.positions = placed[np.lexsort((placed[:, 1], placed[:, 0]))]
        return self.positions
