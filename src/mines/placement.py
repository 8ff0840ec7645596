"""Mine placement strategies: the `MinePlacer` protocol, random and fixed placers."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from enum import StrEnum
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from mines.errors import InvalidBoardError
from mines.grid import Flat, block_around

CoordArray = npt.NDArray[np.int64]
"""An integer array of shape (n, 2): one (row, col) pair per row, such as a layout's mines."""

Positions = CoordArray
"""The old name of `CoordArray`, kept for placers written against it (the solver's board
state is its `Position`, so the array needed a name of its own)."""


@runtime_checkable
class MinePlacer(Protocol):
    """Chooses where the mines go, once the first click is known.

    `rule` names the strategy (it is stored in records and game IDs) and `seed`
    is the seed that reproduces the layout, or None when the layout is fixed. A placer
    may also have `validate(rows, cols, mines)`, which `Game` calls when it is made, so
    that a board the placer cannot make is refused up front (with a `MinesError`).
    """

    @property
    def rule(self) -> str: ...

    @property
    def seed(self) -> int | None: ...

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        """Return `mines` distinct in-bounds (row, col) pairs as an array of shape (mines, 2)."""
        ...


class PlacementRule(StrEnum):
    """The placement rules this package ships, by the names game IDs and records carry.

    Other packages may register more (see `register_rule`); a rule's name is a plain string
    in `MinePlacer.rule`, and these members compare equal to theirs.
    """

    OPENING = "opening"
    """Random, and the first click opens an area (`RandomPlacer`, `FirstClick.OPENING`)."""
    SAFE = "safe"
    """Random, and only the first click is mine-free (`FirstClick.SAFE`)."""
    ANY = "any"
    """Random, with no promise for the first click (`FirstClick.ANY`)."""
    NOGUESS = "noguess"
    """A board logic alone clears from the first click (`mines.solver.NoGuessPlacer`)."""
    FIXED = "fixed"
    """A layout given in full (`FixedPlacer`); it has no seed, so no game ID."""


class FirstClick(StrEnum):
    """What the first reveal is promised by `RandomPlacer`: the rule it reports, too."""

    OPENING = PlacementRule.OPENING.value
    """The first click and its neighbours are mine-free, so it opens an area (when they fit)."""
    SAFE = PlacementRule.SAFE.value
    """Only the first click is mine-free."""
    ANY = PlacementRule.ANY.value
    """No promise: the first click may be a mine."""


def sample_cells(
    rng: np.random.Generator, rows: int, cols: int, count: int, excluded: Iterable[int]
) -> npt.NDArray[np.int64]:
    """Draw `count` distinct flat indices uniformly from the board minus `excluded`.

    It never touches every cell: draws come from the smaller range and are shifted
    past the excluded indices, so it serves boards of 10^12 cells as well.
    """
    skip = np.unique(np.fromiter(excluded, dtype=np.int64))
    free = rows * cols - skip.size
    if count > free:
        raise InvalidBoardError(f"cannot place {count} mines in {free} free cells")
    draws = rng.choice(free, size=count, replace=False).astype(np.int64)
    return skip_excluded(draws, skip)


def skip_excluded(draws: npt.NDArray[np.int64], excluded: npt.NDArray[np.int64]) -> Flat:
    """Turn draws from 0..n-1 into cells of 0..n+k-1 past the k sorted, distinct `excluded`.

    The i-th free cell is what the list of the free cells holds at index i.
    """
    # The i-th excluded index, minus i, is the draw value from which it shifts draws by one more.
    thresholds = excluded - np.arange(excluded.size, dtype=np.int64)
    shifted: Flat = draws + np.searchsorted(thresholds, draws, side="right").astype(np.int64)
    return shifted


Clicks = npt.NDArray[np.integer[Any]] | int
"""Rows or columns of first clicks: one int, or an array of them, one per board."""


def kept_free_radius(
    rule: FirstClick, rows: int, cols: int, mines: int, click_rows: Clicks, click_cols: Clicks
) -> npt.NDArray[np.int64]:
    """How far from each first click its rule keeps mines away: the one home of these rules.

    -1: nowhere (`ANY`); 0: the click alone (`SAFE`, and `OPENING` on a board too dense for
    the block); 1: the click's in-bounds 3x3 block (`OPENING`). One board or many: the clicks
    may be arrays, and the answer has their shape. It needs no array of cells, so it serves
    boards of any size.
    """
    click_rows, click_cols = np.asarray(click_rows), np.asarray(click_cols)
    shape = np.broadcast_shapes(click_rows.shape, click_cols.shape)
    if rule is FirstClick.ANY:
        return np.full(shape, -1, dtype=np.int64)
    cells = rows * cols
    radius = np.full(shape, 0 if mines <= cells - 1 else -1, dtype=np.int64)
    if rule is FirstClick.OPENING:
        block = (np.minimum(click_rows + 2, rows) - np.maximum(click_rows - 1, 0)) * (
            np.minimum(click_cols + 2, cols) - np.maximum(click_cols - 1, 0)
        )
        radius = np.where(mines <= cells - block, 1, radius)
    return radius


def kept_free(
    rule: FirstClick,
    rows: int,
    cols: int,
    mines: int,
    click_rows: npt.NDArray[np.integer[Any]],
    click_cols: npt.NDArray[np.integer[Any]],
) -> npt.NDArray[np.bool_]:
    """The cells each board's rule keeps free for its first click, as (boards, rows, cols)."""
    radius = kept_free_radius(rule, rows, cols, mines, click_rows, click_cols)[:, None, None]
    near_row = np.abs(np.arange(rows)[None, :, None] - click_rows[:, None, None]) <= radius
    near_col = np.abs(np.arange(cols)[None, None, :] - click_cols[:, None, None]) <= radius
    free: npt.NDArray[np.bool_] = near_row & near_col
    return free


def layouts_by_keys(
    keys: npt.NDArray[np.uint64], excluded: npt.NDArray[np.bool_], mines: int
) -> npt.NDArray[np.bool_]:
    """Mines on each board's `mines` cells of smallest key that are not excluded.

    `keys` and `excluded` are (boards, rows, cols). With independent, uniformly drawn keys
    every layout that avoids the excluded cells is equally likely; and a board whose keys
    stay the same keeps its layout whatever else happens.
    """
    boards = keys.shape[0]
    flat = np.where(excluded, np.iinfo(np.uint64).max, keys).reshape(boards, -1)
    layout = np.zeros(flat.shape, dtype=bool)
    if mines:
        chosen = np.argpartition(flat, mines - 1, axis=1)[:, :mines]
        np.put_along_axis(layout, chosen, True, axis=1)
    return layout.reshape(keys.shape)


class RandomPlacer:
    """Uniform random placement from a seed, keeping the first click as its rule promises."""

    def __init__(self, seed: int | None = None, first_click: FirstClick | str = FirstClick.OPENING):
        # Without a seed, draw one, so that every game can be replayed from its ID.
        self._seed: int = secrets.randbits(48) if seed is None else seed
        try:
            self.first_click = FirstClick(first_click)
        except ValueError:
            allowed = ", ".join(rule.value for rule in FirstClick)
            raise InvalidBoardError(
                f"unknown first-click rule {first_click!r}; allowed: {allowed}"
            ) from None

    @property
    def rule(self) -> str:
        return self.first_click.value

    @property
    def seed(self) -> int:
        return self._seed

    def excluded_cells(
        self, rows: int, cols: int, mines: int, first_click: tuple[int, int]
    ) -> list[tuple[int, int]]:
        """The cells this rule keeps free of mines for a first click at `first_click`."""
        row, col = first_click
        radius = int(kept_free_radius(self.first_click, rows, cols, mines, row, col))
        return [
            (r, c)
            for r, c in block_around(rows, cols, row, col)
            if abs(r - row) <= radius and abs(c - col) <= radius
        ]

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        rng = np.random.default_rng(self._seed)
        keep_free = self.excluded_cells(rows, cols, mines, first_click)
        flat = sample_cells(rng, rows, cols, mines, (r * cols + c for r, c in keep_free))
        return np.stack(np.divmod(flat, cols), axis=1).astype(np.int64)

    def __repr__(self) -> str:
        return f"RandomPlacer(seed={self._seed!r}, first_click={self.first_click.value!r})"


class FixedPlacer:
    """Places mines exactly where it is told: for tests, puzzles and replays."""

    def __init__(self, positions: Iterable[tuple[int, int]] | npt.ArrayLike):
        array = np.asarray(positions if not isinstance(positions, set) else sorted(positions))
        if array.size == 0:
            array = np.zeros((0, 2), dtype=np.int64)
        if array.ndim != 2 or array.shape[1] != 2 or not np.issubdtype(array.dtype, np.integer):
            raise InvalidBoardError(
                "mine positions must be (row, col) pairs of integers, e.g. [(0, 1), (2, 3)]"
            )
        self.positions: CoordArray = array.astype(np.int64)
        self.positions.setflags(write=False)
        unique = np.unique(self.positions, axis=0)
        if len(unique) != len(self.positions):
            counts: dict[tuple[int, int], int] = {}
            for r, c in self.positions.tolist():
                counts[(r, c)] = counts.get((r, c), 0) + 1
            twice = sorted(cell for cell, n in counts.items() if n > 1)
            raise InvalidBoardError(f"mine positions must be distinct; repeated: {twice}")

    @property
    def rule(self) -> str:
        return PlacementRule.FIXED.value

    @property
    def seed(self) -> int | None:
        return None

    def place(self, rows: int, cols: int, mines: int, first_click: tuple[int, int]) -> CoordArray:
        if len(self.positions) != mines:
            raise InvalidBoardError(
                f"the fixed layout has {len(self.positions)} mines but the game has {mines}"
            )
        check_positions(self.positions, rows, cols)
        return self.positions

    def __repr__(self) -> str:
        return f"FixedPlacer({[tuple(p) for p in self.positions.tolist()]!r})"


def check_positions(positions: CoordArray, rows: int, cols: int) -> None:
    """Raise `InvalidBoardError` unless every position lies on a rows x cols board."""
    if positions.size == 0:
        return
    outside = (
        (positions[:, 0] < 0)
        | (positions[:, 0] >= rows)
        | (positions[:, 1] < 0)
        | (positions[:, 1] >= cols)
    )
    if outside.any():
        bad = [tuple(p) for p in positions[outside][:5].tolist()]
        raise InvalidBoardError(
            f"mine positions {bad} are outside the {rows}x{cols} board "
            f"(rows 0..{rows - 1}, cols 0..{cols - 1})"
        )


PlacerFactory = Callable[[int | None], MinePlacer]
"""Makes a placer for a rule name from a seed."""


def _random_rule(rule: FirstClick) -> PlacerFactory:
    def factory(seed: int | None) -> MinePlacer:
        return RandomPlacer(seed, rule)

    return factory


_RULES: dict[str, PlacerFactory] = {rule.value: _random_rule(rule) for rule in FirstClick}


def register_rule(name: str, factory: PlacerFactory) -> None:
    """Make a placement rule available by name to game IDs, records and front ends."""
    _RULES[name] = factory


RULE_ENTRY_POINTS = "mines.rules"
"""Packages name their rules in this entry-point group (the solver names `noguess`), so the
core finds them when asked without importing the layers above it."""


def rule_names() -> list[str]:
    plugins = {entry.name for entry in entry_points(group=RULE_ENTRY_POINTS)}
    return sorted(set(_RULES) | plugins)


def placer_for_rule(rule: str, seed: int | None) -> MinePlacer:
    """The placer that a rule name and a seed stand for."""
    if rule not in _RULES:
        for entry in entry_points(group=RULE_ENTRY_POINTS, name=rule):
            register_rule(rule, entry.load())
    try:
        factory = _RULES[rule]
    except KeyError:
        raise InvalidBoardError(
            f"unknown placement rule {rule!r}; known: {', '.join(rule_names())}"
        ) from None
    return factory(seed)
