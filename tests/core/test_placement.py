"""Placers: uniform seeded sampling that keeps the first click's promise, and fixed layouts."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mines import (
    FirstClick,
    FixedPlacer,
    InvalidBoardError,
    PlacementRule,
    RandomPlacer,
    placement,
    placer_for_rule,
    register_rule,
)
from mines.placement import kept_free, kept_free_radius, layouts_by_keys, rule_names, sample_cells


@pytest.mark.parametrize("first", [(0, 0), (4, 4), (8, 3)])
def test_opening_rule_keeps_the_block_free(first: tuple[int, int]) -> None:
    for seed in range(50):
        mines = RandomPlacer(seed).place(9, 9, 60, first)
        cells = {tuple(p) for p in mines.tolist()}
        assert len(cells) == 60
        block = {(first[0] + dr, first[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        assert not cells & block


def test_opening_rule_keeps_the_block_free_when_the_mines_just_fit() -> None:
    """mines == cells - 9: every cell outside the 3x3 block is a mine, and the block is free."""
    for seed in range(20):
        mines = RandomPlacer(seed).place(4, 4, 16 - 9, (1, 1))
        cells = {tuple(p) for p in mines.tolist()}
        assert not cells & {(r, c) for r in range(3) for c in range(3)}


def test_opening_rule_falls_back_to_the_click_when_the_block_cannot_fit() -> None:
    mines = RandomPlacer(1).place(3, 3, 8, (1, 1))
    assert (1, 1) not in {tuple(p) for p in mines.tolist()}


def test_safe_and_any_rules() -> None:
    for seed in range(100):
        safe = RandomPlacer(seed, "safe").place(2, 2, 3, (0, 0))
        assert (0, 0) not in {tuple(p) for p in safe.tolist()}
    hits = sum(
        (0, 0) in {tuple(p) for p in RandomPlacer(seed, "any").place(2, 2, 3, (0, 0)).tolist()}
        for seed in range(100)
    )
    assert 50 < hits < 100  # a mine under the first click happens 3 times in 4


def test_each_rule_keeps_exactly_its_cells_free() -> None:
    """The one home of the first-click rules, for one board or many: the cells each keeps free."""
    rows, cols = 9, 9
    clicks = np.array([0, 4, 8]), np.array([0, 4, 3])
    expected: dict[tuple[FirstClick, int], list[list[tuple[int, int]] | None]] = {
        (FirstClick.OPENING, 10): [[(0, 0), (0, 1), (1, 0), (1, 1)], None, None],
        (FirstClick.OPENING, 77): [[(0, 0), (0, 1), (1, 0), (1, 1)], [(4, 4)], [(8, 3)]],
        (FirstClick.SAFE, 10): [[(0, 0)], [(4, 4)], [(8, 3)]],
        (FirstClick.ANY, 10): [[], [], []],
    }
    for (rule, mines), cells in expected.items():
        free = kept_free(rule, rows, cols, mines, *clicks)
        radius = kept_free_radius(rule, rows, cols, mines, *clicks)
        for board, (row, col) in enumerate(zip(*clicks, strict=True)):
            want = cells[board]
            if want is None:  # the whole in-bounds block around the click
                want = [
                    (r, c)
                    for r in range(max(row - 1, 0), min(row + 2, rows))
                    for c in range(max(col - 1, 0), min(col + 2, cols))
                ]
            got = RandomPlacer(0, rule).excluded_cells(rows, cols, mines, (int(row), int(col)))
            assert sorted(got) == sorted(want), (rule, mines, board)
            assert sorted(map(tuple, np.argwhere(free[board]).tolist())) == sorted(want)
            assert radius[board] == {0: -1, 1: 0, 9: 1, 4: 1, 6: 1}[len(want)]


def test_layouts_by_keys_are_uniform_outside_the_excluded_cells() -> None:
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**63, size=(20_000, 2, 3), dtype=np.uint64)
    excluded = np.zeros(keys.shape, dtype=bool)
    excluded[:, 0, 0] = True
    layouts = layouts_by_keys(keys, excluded, 2)
    assert (layouts.sum(axis=(1, 2)) == 2).all()
    assert not layouts[:, 0, 0].any()
    # 2 mines among the 5 other cells: each holds one 2 times in 5 (sd about 0.0035 here).
    assert np.allclose(layouts.mean(axis=0).reshape(-1)[1:], 2 / 5, atol=0.02)
    # The same keys give the same layout; only a key that changes moves a mine.
    again = layouts_by_keys(keys[:5], excluded[:5], 2)
    assert np.array_equal(again, layouts[:5])


def test_sampling_is_uniform_over_free_cells() -> None:
    rng = np.random.default_rng(0)
    counts = np.zeros(25, dtype=np.int64)
    for _ in range(4000):
        counts[sample_cells(rng, 5, 5, 3, [12])] += 1
    assert counts[12] == 0
    free = np.delete(counts, 12)
    expected = 4000 * 3 / 24
    assert np.all(np.abs(free - expected) < 5 * np.sqrt(expected))


def test_sampling_never_touches_every_cell() -> None:
    flat = sample_cells(np.random.default_rng(1), 10**6, 10**6, 1000, [0, 1, 10**6])
    assert len(np.unique(flat)) == 1000
    assert not {0, 1, 10**6} & set(flat.tolist())


def test_unknown_first_click_rule() -> None:
    with pytest.raises(InvalidBoardError, match="allowed: opening, safe, any"):
        RandomPlacer(1, "corner")


def test_fixed_placer_rejects_bad_layouts() -> None:
    with pytest.raises(InvalidBoardError, match=r"repeated: \[\(1, 1\)\]"):
        FixedPlacer([(1, 1), (0, 0), (1, 1)])
    with pytest.raises(InvalidBoardError, match="outside the 3x3 board"):
        FixedPlacer([(3, 0)]).place(3, 3, 1, (0, 0))
    with pytest.raises(InvalidBoardError, match="has 1 mines but the game has 2"):
        FixedPlacer([(0, 0)]).place(3, 3, 2, (1, 1))
    with pytest.raises(InvalidBoardError, match="pairs of integers"):
        FixedPlacer([(0.5, 1.0)])
    assert FixedPlacer([]).place(2, 2, 0, (0, 0)).shape == (0, 2)


def test_rule_registry() -> None:
    assert placer_for_rule("safe", 3).rule == "safe"
    register_rule("test-fixed", lambda seed: FixedPlacer([(0, 0)]))
    assert placer_for_rule("test-fixed", None).rule == "fixed"
    with pytest.raises(InvalidBoardError, match="unknown placement rule"):
        placer_for_rule("no-such-rule", 1)


def test_plugin_rules_are_found_through_entry_points() -> None:
    """The core names no solver, yet "noguess" works: the solver declares it as an entry point."""
    code = (
        "import sys; from mines import Game; "
        "assert 'mines.solver' not in sys.modules; "
        "game = Game.from_id('9x9n10:noguess#3'); "
        "print(type(game.placer).__name__, game.game_id)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["NoGuessPlacer", "9x9n10:noguess#3"]


def test_the_shipped_rule_names_come_from_one_enum() -> None:
    assert {rule.value for rule in FirstClick} < {rule.value for rule in PlacementRule}
    for rule in PlacementRule:
        if rule is not PlacementRule.FIXED:  # a fixed layout cannot be made from a name
            assert placer_for_rule(rule, 3).rule == rule
    assert FixedPlacer([]).rule == PlacementRule.FIXED
    assert RandomPlacer(1, FirstClick.SAFE).rule == PlacementRule.SAFE


def test_rules_by_name_keep_their_seed_and_first_click() -> None:
    for rule in FirstClick:
        placer = placer_for_rule(rule.value, 3)
        assert isinstance(placer, RandomPlacer)
        assert (placer.seed, placer.first_click) == (3, rule)
        same = RandomPlacer(3, rule).place(9, 9, 10, (4, 4))
        assert np.array_equal(placer.place(9, 9, 10, (4, 4)), same)


def test_a_plugin_rule_is_loaded_from_its_entry_point_when_first_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In this process too (not only in a fresh one): the registry starts without it."""
    monkeypatch.delitem(placement._RULES, PlacementRule.NOGUESS.value, raising=False)
    assert PlacementRule.NOGUESS.value in rule_names()  # named by its entry point
    assert {rule.value for rule in FirstClick} < set(rule_names())
    placer = placer_for_rule(PlacementRule.NOGUESS.value, 5)
    assert (type(placer).__name__, placer.seed) == ("NoGuessPlacer", 5)
    assert PlacementRule.NOGUESS.value in placement._RULES  # registered once found


def test_placers_return_integer_pairs_and_say_what_they_are() -> None:
    mines = RandomPlacer(1).place(9, 9, 10, (4, 4))
    assert (mines.dtype, mines.shape) == (np.dtype(np.int64), (10, 2))
    assert repr(FixedPlacer([(0, 1), (2, 3)])) == "FixedPlacer([(0, 1), (2, 3)])"
    assert repr(RandomPlacer(7, "safe")) == "RandomPlacer(seed=7, first_click='safe')"


def test_a_full_board_keeps_no_cell_free_and_too_many_mines_say_so() -> None:
    """As many mines as cells: no first-click promise can hold, so none is kept."""
    full = RandomPlacer(0, "safe").place(1, 2, 2, (0, 0))
    assert sorted(map(tuple, full.tolist())) == [(0, 0), (0, 1)]
    with pytest.raises(InvalidBoardError) as refused:
        sample_cells(np.random.default_rng(0), 2, 2, 4, [0])
    assert str(refused.value) == "cannot place 4 mines in 3 free cells"


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (3, 0), (0, 3), (3, 3)])
def test_every_side_of_the_board_is_checked(cell: tuple[int, int]) -> None:
    with pytest.raises(InvalidBoardError) as refused:
        FixedPlacer([cell]).place(3, 3, 1, (1, 1))
    assert str(refused.value) == (
        f"mine positions [{cell}] are outside the 3x3 board (rows 0..2, cols 0..2)"
    )
    assert FixedPlacer([(2, 2)]).place(3, 3, 1, (0, 0)).tolist() == [[2, 2]]


def test_the_refusal_lists_the_first_five_cells_off_the_board() -> None:
    off = [(9, col) for col in range(7)]
    with pytest.raises(InvalidBoardError, match=r"^mine positions \[(\(9, \d\), ){4}\(9, 4\)\] "):
        FixedPlacer(off).place(3, 9, 7, (0, 0))


def test_a_fixed_layout_is_pairs_given_as_a_list_or_a_set_and_cannot_change() -> None:
    assert FixedPlacer({(1, 1), (0, 2)}).positions.tolist() == [[0, 2], [1, 1]]
    assert FixedPlacer([(1, 1), (0, 2)]).positions.tolist() == [[1, 1], [0, 2]]
    with pytest.raises(InvalidBoardError) as refused:
        FixedPlacer([(1, 2, 3)])
    assert str(refused.value) == (
        "mine positions must be (row, col) pairs of integers, e.g. [(0, 1), (2, 3)]"
    )
    placer = FixedPlacer([(0, 0)])
    with pytest.raises(ValueError, match="read-only"):
        placer.positions[0, 0] = 1


def test_a_random_placer_without_a_seed_draws_a_short_one() -> None:
    """48 bits: a game ID stays short, and every game can be replayed from it."""
    seeds = [RandomPlacer().seed for _ in range(64)]
    assert all(isinstance(seed, int) and 0 <= seed < 2**48 for seed in seeds)
    assert len(set(seeds)) > 1


def test_an_unknown_rule_lists_the_known_ones() -> None:
    with pytest.raises(InvalidBoardError) as refused:
        placer_for_rule("no-such-rule", 1)
    known = ", ".join(rule_names())
    assert str(refused.value) == f"unknown placement rule 'no-such-rule'; known: {known}"
