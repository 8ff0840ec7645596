"""The posterior sampler draws layouts exactly; the evaluator's estimates match exact answers."""

from __future__ import annotations

import random
from collections import Counter as Tally
from itertools import pairwise

import pytest
from scipy.stats import chi2

from mines import BoardView
from mines.errors import InvalidBoardError
from mines.solver import Bot
from mines.solver.analysis import Position
from mines.solver.endgame import solve_endgame
from mines.solver.evaluate import draw_rng, evaluate, play_out
from mines.solver.posterior import LayoutSampler
from mines.solver.topology import neighbours
from tests.solver.brute import layouts, random_position, solved_position


def uneven(sampler: LayoutSampler) -> bool:
    """Whether some component has solutions with as many mines but unequal arrangements
    (groups of different sizes), so drawing a solution must weigh them."""
    return any(
        len({b - a for a, b in pairwise([0, *running])}) > 1
        for part in sampler.parts
        for running in part.running.values()
    )


def test_draws_follow_the_exact_posterior() -> None:
    """Pooled over small positions, with several components, cells away from the numbers and
    unequally weighted solutions, the drawn layouts' frequencies pass a chi-square test
    against the uniform distribution over every layout that fits (brute force). The seed
    is fixed, so the test cannot flake; the bound is the 99.99% quantile, so a correct
    sampler passes it for almost any seed, and each way of breaking it tried fails."""
    rng, draws_rng = random.Random(3), random.Random(4)
    statistic, freedom, kinds = 0.0, 0, Tally[str]()
    while kinds["uneven"] < 20 or kinds["any"] < 40:
        lines, mines = random_position(rng, 5, 5)
        _, possible = layouts(lines, mines)
        if not 2 <= len(possible) <= 60:
            continue
        sampler = LayoutSampler(solved_position(lines, mines))
        kind = "uneven" if uneven(sampler) else "any"
        if kinds[kind] >= (20 if kind == "uneven" else 40):
            continue
        kinds[kind] += 1
        kinds["off"] += bool(sampler.off)
        kinds["parts"] += len(sampler.parts) > 1
        draws = 25 * len(possible)
        seen = Tally(frozenset(sampler.draw(draws_rng)) for _ in range(draws))
        assert set(seen) <= set(possible), lines
        expected = draws / len(possible)
        statistic += sum((seen[layout] - expected) ** 2 / expected for layout in possible)
        freedom += len(possible) - 1
    assert kinds["off"] >= 10, kinds
    assert kinds["parts"] >= 3, kinds
    assert statistic < chi2.ppf(0.9999, freedom), (statistic, freedom)


def test_a_sampler_refuses_a_position_no_layout_fits() -> None:
    # Too few mines for the numbers: the rules alone do not see it, the counts do.
    with pytest.raises(InvalidBoardError):
        evaluate(BoardView.from_strings(["2H", "HH"]), [(0, 1)], draws=1, mines=1)


def exact_win(lines: list[str], mines: int, cell: tuple[int, int]) -> float:
    """The chance that opening `cell` and then letting the bot play wins, over every layout."""
    cols = len(lines[0])
    position = Position.from_view(BoardView.from_strings(lines), mines)
    revealed = [divmod(c, cols) for c, s in enumerate("".join(lines)) if s.isdigit()]
    _, possible = layouts(lines, mines)
    wins = 0
    for layout in possible:
        at = [divmod(c, cols) for c in sorted(layout)]
        wins += cell not in at and play_out(position, at, revealed, cell, Bot(0))
    return wins / len(possible)


def no_flood(lines: list[str], mines: int) -> bool:
    """Whether no hidden safe cell can show a 0 in any layout (so nothing floods open)."""
    rows, cols = len(lines), len(lines[0])
    nbrs = neighbours(rows, cols)
    unknown, possible = layouts(lines, mines)
    return all(
        any(n in layout for n in nbrs[c]) for layout in possible for c in unknown if c not in layout
    )


def stuck_positions(seed: int, count: int) -> list[tuple[list[str], int]]:
    rng = random.Random(seed)
    found: list[tuple[list[str], int]] = []
    while len(found) < count:
        lines, mines = random_position(rng, 3, 4)
        solved = solved_position(lines, mines)
        if not solved.safe_cells() and len(solved.undecided()) >= 2 and no_flood(lines, mines):
            found.append((lines, mines))
    return found


def test_playing_out_the_endgame_searchs_choice_wins_as_often_as_it_says() -> None:
    """Exact: over every layout, opening the search's best cell and letting the bot (which
    searches too) finish wins with exactly the search's chance."""
    for lines, mines in stuck_positions(5, 20):
        found = solve_endgame(solved_position(lines, mines))
        assert found is not None
        cell = divmod(found.cell, len(lines[0]))
        assert exact_win(lines, mines, cell) == pytest.approx(found.win_probability, abs=1e-12)


def test_estimates_agree_with_exact_win_chances() -> None:
    """Every candidate of small stuck positions: the estimate is within 4.5 standard errors
    of the exact chance (fixed seeds; a biased sampler or scorer is far outside)."""
    checked = 0
    for lines, mines in stuck_positions(8, 6):
        view = BoardView.from_strings(lines)
        solved = solved_position(lines, mines)
        cells = [divmod(c, len(lines[0])) for c in solved.undecided()][:3]
        decision = evaluate(view, cells, draws=600, seed=1, mines=mines)
        for estimate in decision.estimates:
            exact = exact_win(lines, mines, estimate.cell)
            assert abs(estimate.rate - exact) <= 4.5 * max(estimate.stderr, 1e-3), (lines, exact)
            checked += 1
    assert checked >= 12


def test_every_candidate_sees_the_same_draws() -> None:
    lines, mines = stuck_positions(5, 1)[0]
    view = BoardView.from_strings(lines)
    solved = solved_position(lines, mines)
    cell = divmod(solved.undecided()[0], len(lines[0]))
    decision = evaluate(view, [cell, cell], draws=50, seed=2, mines=mines)
    assert decision.won[0] == decision.won[1]
    assert decision.difference() == (0.0, 0.0)
    # The draws are a function of (seed, draw) alone, so a resumed run sees the same ones.
    again = evaluate(view, [cell], draws=50, seed=2, mines=mines)
    assert again.won[0] == decision.won[0]
    assert draw_rng(2, 7).random() == draw_rng(2, 7).random()


def test_candidates_must_be_unrevealed_cells() -> None:
    view = BoardView.from_strings(["1H", "HH"])
    with pytest.raises(InvalidBoardError, match="not an unrevealed cell"):
        evaluate(view, [(0, 0)], draws=1, mines=1)
    with pytest.raises(InvalidBoardError, match="draws"):
        evaluate(view, [(0, 1)], draws=0, mines=1)
