"""Random reveal/flag/chord sequences on both engines against `mines.reference`, view by view."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from mines import EngineKind, FixedPlacer, Game, IllegalMoveError, grid
from mines.reference import ReferenceGame


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, int, set[tuple[int, int]]]:
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells) - 1))
    return rows, cols, mines


class EngineMatchesReference(RuleBasedStateMachine):
    """Every move on the model and on a game of each engine: same answer or same refusal."""

    @initialize(board=boards())
    def start(self, board: tuple[int, int, set[tuple[int, int]]]) -> None:
        rows, cols, mines = board
        self.games = [
            Game(rows, cols, len(mines), placer=FixedPlacer(sorted(mines)), engine=kind)
            for kind in EngineKind
        ]
        self.model = ReferenceGame(rows, cols, mines)

    def _apply(self, action: str, row: int, col: int) -> None:
        try:
            expected = getattr(self.model, action)(row, col)
        except IllegalMoveError:
            for game in self.games:
                with pytest.raises(IllegalMoveError):
                    getattr(game, action)(row, col)
            return
        for game in self.games:
            assert getattr(game, action)(row, col) == expected, game.engine_kind

    @rule(row=st.integers(-1, 7), col=st.integers(-1, 7))
    def reveal(self, row: int, col: int) -> None:
        self._apply("reveal", row, col)

    @rule(row=st.integers(0, 6), col=st.integers(0, 6))
    def flag(self, row: int, col: int) -> None:
        self._apply("toggle_flag", row, col)

    @rule(row=st.integers(0, 6), col=st.integers(0, 6))
    def chord(self, row: int, col: int) -> None:
        self._apply("chord", row, col)

    @invariant()
    def same_view(self) -> None:
        # The counter agrees with the flags shown: every mine shows one once the game is won.
        won = self.model.status == "WON"
        left = 0 if won else len(self.model.mines) - len(self.model.flagged)
        for game in getattr(self, "games", []):
            view = game.view()
            assert view.to_strings() == self.model.view(), game.engine_kind
            assert view.status == self.model.status
            assert view.mines_left == left


EngineMatchesReference.TestCase.settings = settings(max_examples=300, stateful_step_count=40)
TestEngineMatchesReference = EngineMatchesReference.TestCase


moves = st.lists(
    st.tuples(
        st.sampled_from(["reveal", "toggle_flag", "chord"]), st.integers(0, 6), st.integers(0, 6)
    ),
    max_size=12,
)


@given(board=boards(), actions=moves)
@settings(max_examples=300)
def test_labelled_flood_matches_reference(
    board: tuple[int, int, set[tuple[int, int]]], actions: list[tuple[str, int, int]]
) -> None:
    """Forcing every flood through the array-labelling path gives the same boards."""
    rows, cols, mines = board
    model = ReferenceGame(rows, cols, mines)
    original = grid.FLOOD_BUDGET
    grid.FLOOD_BUDGET = 0
    try:
        game = Game(rows, cols, len(mines), placer=FixedPlacer(sorted(mines)))
        for action, row, col in actions:
            try:
                getattr(model, action)(row, col)
            except IllegalMoveError:
                continue
            getattr(game, action)(row, col)
            assert game.view().to_strings() == model.view()
    finally:
        grid.FLOOD_BUDGET = original
