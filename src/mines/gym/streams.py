"""Layout streams: the random keys of each board's each episode, from (seed, board, episode).

A batched board draws its layouts from a stream of its own, so what one board gets never
depends on the other boards, on how many there are, or on the actions taken: the same seed
gives board 7 the same keys for its third episode whatever happened elsewhere. Keys come from
SplitMix64 (Steele, Lea and Flood, 2014), a counter-based generator, computed for all boards
at once with array operations.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Keys = npt.NDArray[np.uint64]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""SplitMix64's increment: the stream's state moves by this from one key to the next."""


def _mix(state: Keys) -> Keys:
    """SplitMix64's output function: a bijection of 64-bit words that scatters every bit."""
    with np.errstate(over="ignore"):
        state = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        state = (state ^ (state >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mixed: Keys = state ^ (state >> np.uint64(31))
    return mixed


def stream_ids(
    seeds: npt.NDArray[np.uint64],
    boards: npt.NDArray[np.integer[Any]],
    episodes: npt.NDArray[np.integer[Any]],
) -> Keys:
    """One word per (seed, board, episode): the start of that episode's stream."""
    with np.errstate(over="ignore"):
        state = _mix(seeds.astype(np.uint64) + _GOLDEN)
        state = _mix(state + boards.astype(np.uint64) * _GOLDEN)
        return _mix(state + episodes.astype(np.uint64) * _GOLDEN)


def keys(streams: Keys, rows: int, cols: int) -> Keys:
    """(boards, rows, cols): the key of every cell, the stream's first rows * cols words."""
    steps = np.arange(1, rows * cols + 1, dtype=np.uint64) * _GOLDEN
    with np.errstate(over="ignore"):
        words = _mix(streams[:, None] + steps)
    return words.reshape(streams.size, rows, cols)
