"""`mine_probabilities`: the solver's exact chance of a mine under every hidden cell, as labels."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mines.gym.agents import view_of
from mines.gym.encoding import Observation
from mines.solver.analysis import Position, solve
from mines.solver.counting import Counter
from mines.solver.rules import UNKNOWN

Probabilities = npt.NDArray[np.float32]

OPEN = -1.0
"""The label of a revealed cell: no probability, left out of the loss."""


def mine_probabilities(
    observation: Observation, mines: int, counter: Counter | None = None
) -> Probabilities:
    """(rows, cols): each hidden cell's exact probability of a mine given the observation
    (every arrangement of the `mines` that fits what is shown equally likely), `OPEN`
    (-1) for revealed cells. Training labels only: a player never calls this.

    >>> observation = np.array([[1, -1], [-1, -1]], dtype=np.int8)
    >>> mine_probabilities(observation, 1).tolist()
    [[-1.0, 0.3333333432674408], [0.3333333432674408, 0.3333333432674408]]
    """
    counter = counter if counter is not None else Counter(native=True)
    position = Position.from_view(view_of(observation, mines))
    solved = solve(position, counter, native=True)
    counts = solved.counts
    assert counts is not None  # counting always runs by default
    labels = np.full(position.rows * position.cols, OPEN, dtype=np.float64)
    for cell, value in enumerate(position.values):
        if value == UNKNOWN:
            known = solved.known.get(cell)
            if known is None:
                labels[cell] = counts.mine_weight(cell) / counts.total
            else:
                labels[cell] = float(known)
    shaped: Probabilities = labels.astype(np.float32).reshape(position.rows, position.cols)
    return shaped
