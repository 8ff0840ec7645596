"""Exhaustive endgame search: exact chances to win small endgames."""

from __future__ import annotations

import random

from mines.solver.endgame import solve_endgame
from mines.solver.topology import neighbours
from tests.solver.brute import layouts, random_position, solved_position


def endgame(lines: list[str], mines: int) -> tuple[tuple[int, int], float] | None:
    found = solve_endgame(solved_position(lines, mines))
    if found is None:
        return None
    return divmod(found.cell, len(lines[0])), found.win_probability


def test_a_true_fifty_fifty_wins_half_the_time() -> None:
    found = endgame(["11", "HH"], 1)
    assert found is not None
    assert found[1] == 0.5


def brute_force_win(lines: list[str], mines: int) -> float:
    """The best chance to win by trying every sequence of clicks over explicit layouts."""
    nbrs = neighbours(len(lines), len(lines[0]))
    unknown, possible = layouts(lines, mines)

    def value(possible: list[frozenset[int]], opened: frozenset[int]) -> float:
        if len(possible) == 1:
            return 1.0
        best = 0.0
        for cell in unknown:
            if cell in opened:
                continue
            parts: dict[int, list[frozenset[int]]] = {}
            for layout in possible:
                if cell not in layout:
                    shown = sum(n in layout for n in nbrs[cell])
                    parts.setdefault(shown, []).append(layout)
            chance = sum(len(p) * value(p, opened | {cell}) for p in parts.values())
            best = max(best, chance / len(possible))
        return best

    return value(possible, frozenset())


def test_the_search_matches_brute_force_on_stuck_positions() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 25:
        lines, mines = random_position(rng, 3, 4)
        solved = solved_position(lines, mines)
        if solved.safe_cells() or len(solved.undecided()) < 2:
            continue
        found = solve_endgame(solved)
        assert found is not None
        assert abs(found.win_probability - brute_force_win(lines, mines)) < 1e-9, lines
        checked += 1


def test_big_endgames_are_left_to_the_heuristics() -> None:
    assert endgame(["1" + "H" * 20], 5) is None


def test_a_search_past_its_budget_gives_up_to_the_heuristics() -> None:
    rng = random.Random(11)
    gave_up = 0
    for _ in range(200):
        lines, mines = random_position(rng, 3, 4)
        solved = solved_position(lines, mines)
        if solved.safe_cells() or len(solved.undecided()) < 2:
            continue
        if solve_endgame(solved, budget=0) is None and solve_endgame(solved) is not None:
            gave_up += 1
    assert gave_up > 0


def test_a_listing_past_its_steps_gives_up_to_the_heuristics() -> None:
    solved = solved_position(["11", "HH"], 1)
    assert solve_endgame(solved) is not None
    assert solve_endgame(solved, listing_steps=0) is None
