"""The bot's lookahead: which cells are dead and how safe the next move is, against brute force."""

from __future__ import annotations

from mines.solver import Bot
from mines.solver.bot import _living_by_off_swap
from mines.solver.rules import UNKNOWN
from mines.solver.topology import neighbours
from tests.solver.brute import layouts, solved_position, undecided_cells


def layouts_by_number(
    nbrs: tuple[tuple[int, ...], ...], possible: list[frozenset[int]], cell: int
) -> dict[int, list[frozenset[int]]]:
    """The `possible` layouts where `cell` is safe, by the number it shows in them."""
    by_number: dict[int, list[frozenset[int]]] = {}
    for layout in possible:
        if cell not in layout:
            by_number.setdefault(sum(n in layout for n in nbrs[cell]), []).append(layout)
    return by_number


def numbers_shown(
    nbrs: tuple[tuple[int, ...], ...], possible: list[frozenset[int]], cell: int
) -> set[int]:
    """The numbers `cell` shows in those of the `possible` layouts where it is safe."""
    return set(layouts_by_number(nbrs, possible, cell))


def numbers_it_could_show(lines: list[str], mines: int, cell: int) -> set[int]:
    return numbers_shown(neighbours(len(lines), len(lines[0])), layouts(lines, mines)[1], cell)


def shown(lines: list[str], mines: int, cell: int) -> int:
    return Bot(0).lookahead(solved_position(lines, mines), cell)[1]


def test_both_cells_of_a_true_fifty_fifty_are_dead() -> None:
    assert shown(["11", "HH"], 1, 2) == 1
    assert shown(["11", "HH"], 1, 3) == 1


def test_a_cell_that_can_show_two_numbers_is_alive() -> None:
    # One mine next to the 1 and one in the right column: (1, 0) always shows 1 when safe,
    # (0, 2) shows 1 or 2 depending on where the 1's mine is.
    lines = ["1HH", "HHH"]
    assert numbers_it_could_show(lines, 2, 3) == {1}
    assert shown(lines, 2, 3) == 1
    assert numbers_it_could_show(lines, 2, 2) == {1, 2}
    assert shown(lines, 2, 2) == 2


def test_the_count_of_possible_numbers_matches_brute_force() -> None:
    for lines, mines, solved, cell in undecided_cells(9, 4, 4, 60):
        expected = numbers_it_could_show(lines, mines, cell)
        score, count = Bot(0).lookahead(solved, cell)
        assert count == len(expected), (lines, mines, cell)
        assert 0 <= score <= 1


def test_the_quick_life_test_only_finds_living_cells() -> None:
    # It answers without a recount for the cells it can decide, so it must never be wrong
    # about those, and it must decide some of every kind (cells away from the numbers, and
    # cells next to them that counting found certainly safe or not), in the positions the
    # lookahead imagines after each number a guess could show.
    bot = Bot(0)
    decided = {"off": 0, "safe": 0, "undecided": 0}
    for lines, mines, solved, cell in undecided_cells(11, 4, 5, 600, stuck=True):
        assert solved.counts is not None
        nbrs = neighbours(len(lines), len(lines[0]))
        values = solved.position.values
        hidden = [c for c, v in enumerate(values) if v == UNKNOWN and c not in solved.local]
        others = set(hidden) - {cell}
        by_number = layouts_by_number(nbrs, layouts(lines, mines)[1], cell)
        # The lookahead's outcomes come in increasing order of the number shown.
        outcomes = bot._outcomes(solved, solved.keys, solved.counts, hidden, cell)
        for number, (_, after) in zip(sorted(by_number), outcomes, strict=True):
            part = by_number[number]
            for other in others:
                if _living_by_off_swap(solved, others, after, other):
                    weight = after.cell_weight.get(other)
                    decided["off" if weight is None else "undecided" if weight else "safe"] += 1
                    assert len(numbers_shown(nbrs, part, other)) > 1, (lines, mines, other)
    assert min(decided.values()) >= 10, decided


def brute_lookahead(lines: list[str], mines: int, cell: int) -> float:
    """Survive `cell`, then the safest cell that can still show two numbers (the safest of
    all when none can), by counting every layout that fits."""
    nbrs = neighbours(len(lines), len(lines[0]))
    unknown, possible = layouts(lines, mines)
    others = [c for c in unknown if c != cell]
    score = 0.0
    for part in layouts_by_number(nbrs, possible, cell).values():

        def danger(other: int, part: list[frozenset[int]] = part) -> float:
            return sum(other in layout for layout in part) / len(part)

        alive = [danger(c) for c in others if len(numbers_shown(nbrs, part, c)) > 1]
        safest = min(alive or [danger(c) for c in others] or [0.0])
        score += len(part) / len(possible) * (1 - safest)
    return score


def test_the_next_move_is_the_safest_living_cell_as_brute_force_finds() -> None:
    # Only positions with no certainly safe cell: the bot looks ahead only in those.
    bot = Bot(0, living_checks=1_000)
    for lines, mines, solved, cell in undecided_cells(4, 4, 4, 150, stuck=True):
        score = bot.lookahead(solved, cell)[0]
        assert abs(score - brute_lookahead(lines, mines, cell)) < 1e-9, (lines, mines, cell)
