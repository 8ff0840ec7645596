"""Random reveal/flag/chord sequences played with the dense and the sparse engine, view by view."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mines import (
    Cell,
    EngineKind,
    FixedPlacer,
    Game,
    IllegalMoveError,
    RandomPlacer,
    engine_choice,
    grid,
)
from mines.engine import CellChanges

Cells = set[tuple[int, int]]
Board = tuple[int, int, Cells]
Action = tuple[str, int, int]


@st.composite
def scattered(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 12))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells) - 1))
    return rows, cols, mines


@st.composite
def clustered(draw: st.DrawFn, inland: bool = False) -> Board:
    """Rings of mines, some with gaps, that enclose pockets of zeros, plus a few strays.

    `inland` rings keep off the edges, so no cluster cuts the board in two and floods
    take the sparse path that labels boxes around clusters.
    """
    rows, cols = draw(st.integers(8, 30)), draw(st.integers(8, 40))
    mines: Cells = set()
    for _ in range(draw(st.integers(1, 4))):
        radius = draw(st.integers(1, 4))
        if inland:
            rows, cols = max(rows, 24), max(cols, 24)
            top = draw(st.integers(2, rows - 2 * radius - 3))
            left = draw(st.integers(2, cols - 2 * radius - 3))
        else:
            top, left = draw(st.integers(-2, rows - 1)), draw(st.integers(-2, cols - 1))
        ring = [
            (top + dr, left + dc)
            for dr in range(2 * radius + 1)
            for dc in range(2 * radius + 1)
            if dr in (0, 2 * radius) or dc in (0, 2 * radius)
        ]
        gaps = draw(st.sets(st.integers(0, len(ring) - 1), max_size=2))
        mines |= {
            (r, c)
            for i, (r, c) in enumerate(ring)
            if i not in gaps and 0 <= r < rows and 0 <= c < cols
        }
    margin = 2 if inland else 0
    stray = st.tuples(
        st.integers(margin, rows - 1 - margin), st.integers(margin, cols - 1 - margin)
    )
    strays = draw(st.lists(stray))
    mines |= set(strays[:4])
    if len(mines) >= rows * cols:
        mines.pop()
    return rows, cols, mines


@st.composite
def action_lists(
    draw: st.DrawFn, rows: int, cols: int, near: list[tuple[int, int]] | None = None
) -> list[Action]:
    """Moves on a few favourite cells (so flags come off and cells get opened after a flood),
    anywhere else, and sometimes a line of flags that walls part of the board off."""
    anywhere = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    favourite = anywhere if not near else st.sampled_from(near)
    favourites = draw(st.lists(favourite, min_size=1, max_size=6))
    cell = st.one_of(st.sampled_from(favourites), anywhere)
    verb = st.sampled_from(["reveal", "toggle_flag", "toggle_flag", "chord"])
    moves = draw(st.lists(st.tuples(verb, cell), max_size=40))
    wall: list[Action] = []
    if draw(st.booleans()):
        if draw(st.booleans()):
            row = draw(st.integers(0, rows - 1))
            wall = [("toggle_flag", row, c) for c in range(cols)]
        else:
            col = draw(st.integers(0, cols - 1))
            wall = [("toggle_flag", r, col) for r in range(rows)]
    at = draw(st.integers(0, len(moves)))
    played = [(v, r, c) for v, (r, c) in moves]
    return played[:at] + wall + played[at:]


@contextmanager
def flood_budget(budget: int) -> Iterator[None]:
    """A small budget sends floods through pocket labelling, as on a huge board."""
    with patch.object(grid, "FLOOD_BUDGET", budget):
        yield


@contextmanager
def sparse_by_default() -> Iterator[None]:
    """Games made without an engine argument (by replay, from_position) get the sparse engine."""
    with patch.object(engine_choice, "DENSE_CELL_LIMIT", 0):
        yield


def changed_cells(changes: CellChanges) -> list[tuple[int, int]]:
    """The changed cells in order, after checking `len`, `bounds` and `within` against them."""
    listed = sorted(changes)
    assert len(changes) == len(listed)
    cells = set(listed)
    if cells:
        rows, cols = {r for r, _ in cells}, {c for _, c in cells}
        assert changes.bounds() == (min(rows), min(cols), max(rows) + 1, max(cols) + 1)
        top, left = min(rows), min(cols)
        inside = {(r, c) for r, c in cells if r < top + 2 and c < left + 3}
        assert set(changes.within(top, left, 2, 3)) == inside
    else:
        assert changes.bounds() is None
    return listed


def outcome(game: Game, action: Action) -> Any:
    verb, row, col = action
    try:
        return getattr(game, verb)(row, col)
    except IllegalMoveError as error:
        return type(error)


def snapshot(game: Game) -> tuple[Any, ...]:
    view = game.view()
    three_bv = game.three_bv if game.started else None
    record = game.record().to_dict()
    return view.to_strings(), view.status, view.mines_left, three_bv, record


def play_both(dense: Game, sparse: Game, moves: list[Action]) -> None:
    seen: dict[str, list[list[tuple[int, int]]]] = {"dense": [], "sparse": []}
    dense.on_cells(lambda changes: seen["dense"].append(changed_cells(changes)))
    sparse.on_cells(lambda changes: seen["sparse"].append(changed_cells(changes)))
    assert snapshot(sparse) == snapshot(dense)
    for action in moves:
        assert outcome(sparse, action) == outcome(dense, action)
        assert snapshot(sparse) == snapshot(dense)
        assert seen["sparse"] == seen["dense"]


def constant_clock() -> float:
    return 0.0


def fixed_pair(rows: int, cols: int, mines: Cells) -> tuple[Game, Game]:
    """The same fixed layout on the dense engine and on the sparse one."""
    dense, sparse = (
        Game(
            rows,
            cols,
            len(mines),
            placer=FixedPlacer(sorted(mines)),
            clock=constant_clock,
            engine=kind,
        )
        for kind in ("dense", "sparse")
    )
    return dense, sparse


@given(board=st.one_of(scattered(), clustered()), data=st.data(), budget=st.sampled_from([0, 7]))
@settings(max_examples=250, deadline=None)
def test_fixed_layouts_play_the_same(board: Board, data: st.DataObject, budget: int) -> None:
    rows, cols, mines = board
    moves = data.draw(action_lists(rows, cols))
    games = fixed_pair(rows, cols, mines)
    with flood_budget(budget):
        play_both(*games, moves)


@given(board=clustered(inland=True), data=st.data(), budget=st.sampled_from([0, 7]))
@settings(max_examples=200, deadline=None)
def test_play_after_the_sea_opens(board: Board, data: st.DataObject, budget: int) -> None:
    """Flags first, then a flood of the open board, then moves among what it left hidden."""
    rows, cols, mines = board
    shore = {(r + dr, c + dc) for r, c in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    sea = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in shore]
    start = data.draw(st.sampled_from(sea))
    near = sorted(
        {(r + dr, c + dc) for r, c in mines for dr in range(-4, 5) for dc in range(-4, 5)}
        & {(r, c) for r in range(rows) for c in range(cols)}
    )
    # Reveals that would step on a mine flag it instead, so games go on long enough.
    moves = [
        ("toggle_flag" if verb == "reveal" and (r, c) in mines else verb, r, c)
        for verb, r, c in data.draw(action_lists(rows, cols, near))
    ]
    at = data.draw(st.integers(0, len(moves)))
    moves.insert(at, ("reveal", *start))
    games = fixed_pair(rows, cols, mines)
    with flood_budget(budget):
        play_both(*games, moves)
        # Then take the safe flags off and open those cells, and a few more near the clusters.
        dense, sparse = games
        flagged = [(r, c) for r, c, cell in dense.view().cells() if cell is Cell.FLAG]
        later = data.draw(st.lists(st.sampled_from(near), max_size=10))
        epilogue: list[Action] = []
        for cell in [cell for cell in flagged if cell not in mines] + later:
            if cell in flagged:
                epilogue.append(("toggle_flag", *cell))
            if cell not in mines:
                epilogue.append(("reveal", *cell))
        play_both(dense, sparse, epilogue)


@given(
    size=st.tuples(st.integers(1, 12), st.integers(1, 16)),
    density=st.floats(0.0, 0.4),
    rule=st.sampled_from(["opening", "safe", "any"]),
    seed=st.integers(0, 2**32),
    data=st.data(),
    budget=st.sampled_from([0, 2048]),
)
@settings(max_examples=150, deadline=None)
def test_first_click_rules_play_the_same(
    size: tuple[int, int], density: float, rule: str, seed: int, data: st.DataObject, budget: int
) -> None:
    rows, cols = size
    mines = min(int(rows * cols * density), rows * cols - 1)
    moves = data.draw(action_lists(rows, cols))
    games = (
        Game(rows, cols, mines, placer=RandomPlacer(seed, rule), clock=constant_clock),
        Game(
            rows,
            cols,
            mines,
            placer=RandomPlacer(seed, rule),
            clock=constant_clock,
            engine="sparse",
        ),
    )
    with flood_budget(budget):
        play_both(*games, moves)


@given(board=clustered(), data=st.data(), budget=st.sampled_from([0, 2048]))
@settings(max_examples=100, deadline=None)
def test_positions_restore_the_same(board: Board, data: st.DataObject, budget: int) -> None:
    """A game started from a position (revealed and flagged cells, no flood) plays the same."""
    rows, cols, mines = board
    safe = sorted((r, c) for r in range(rows) for c in range(cols) if (r, c) not in mines)
    revealed = data.draw(st.sets(st.sampled_from(safe), max_size=12))
    flagged = data.draw(st.sets(st.sampled_from(sorted(set(safe) - revealed)), max_size=4))
    moves = data.draw(action_lists(rows, cols))

    def start() -> Game:
        return Game.from_position(
            rows, cols, sorted(mines), revealed=revealed, flagged=flagged, clock=constant_clock
        )

    dense = start()
    with sparse_by_default():
        sparse = start()
    assert sparse.engine_kind is EngineKind.SPARSE
    with flood_budget(budget):
        play_both(dense, sparse, moves)


@given(board=clustered(), data=st.data())
@settings(max_examples=60, deadline=None)
def test_windows_match(board: Board, data: st.DataObject) -> None:
    rows, cols, mines = board
    moves = data.draw(action_lists(rows, cols))
    games = fixed_pair(rows, cols, mines)
    with flood_budget(0):
        for game in games:
            for action in moves:
                outcome(game, action)
    top, left = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    height = data.draw(st.integers(1, rows - top))
    width = data.draw(st.integers(1, cols - left))
    dense_view, sparse_view = (game.view(top, left, height, width) for game in games)
    assert sparse_view == dense_view
    assert sparse_view.to_strings() == [
        line[left : left + width] for line in games[0].view().to_strings()[top : top + height]
    ]


@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_engine_argument_picks_the_engine(kind: str) -> None:
    game = Game(9, 9, 10, seed=1, engine=kind)
    assert game.engine_kind is EngineKind(kind)
