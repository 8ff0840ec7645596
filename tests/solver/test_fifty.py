"""Long-term risk: the weight of arrangements that trap a cell in a 50/50, against brute force."""

from __future__ import annotations

from collections.abc import Callable

from mines.solver.analysis import Solved
from mines.solver.counting import Counter
from mines.solver.fifty import ENABLED, TRAPS, enabling_weight, trap_weights
from tests.solver.brute import layouts, solved_position, undecided_cells


def brute_trapped(lines: list[str], mines: int, cell: int) -> int:
    """The same sum, by counting every layout that fits: per family the likeliest trap."""
    rows, cols = len(lines), len(lines[0])
    unknown, possible = layouts(lines, mines)
    undecided = {c for c in unknown if 0 < sum(c in layout for layout in possible) < len(possible)}
    row, col = divmod(cell, cols)

    def at(offset: tuple[int, int]) -> int | None:
        r, c = row + offset[0], col + offset[1]
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else None

    best: dict[str, int] = {}
    for trap in TRAPS:
        mines_in = [cell, *(at(o) for o in trap.mines)]
        safe = [at(o) for o in trap.safe]
        if any(c not in undecided for c in mines_in + safe):
            continue
        walls = [c for c in map(at, trap.walls) if c is not None]
        if sum(c in undecided for c in walls) > 3:
            continue
        need = set(mines_in) | set(walls)
        weight = sum(1 for layout in possible if need <= layout and not layout & set(safe))
        if weight:
            best[trap.family] = max(best.get(trap.family, 0), weight)
    return sum(best.values())


def trapped_weight(solved: Solved, cell: int) -> int:
    """What the bot credits a cell with for its own traps: the likeliest of each family."""
    return sum(trap_weights(solved, cell, Counter()).values())


def test_a_pair_walled_in_by_certain_mines_is_trapped_whenever_its_cell_is_a_mine() -> None:
    # The 1 puts one mine in (0, 0) or (0, 1); the 3 then makes (0, 2) and (1, 2) mines, a
    # wall no number can see past; the fourth mine is in (0, 3) or (1, 3).
    lines = ["HHHH", "13HH"]
    solved = solved_position(lines, 4)
    assert solved.counts is not None
    assert solved.counts.total == 4
    assert trapped_weight(solved, 0) == solved.mine_weight(0) == 2
    assert trapped_weight(solved, 1) == 2
    # (0, 3) and (1, 3) are a 50/50 too, walled by the certain mines on their left.
    assert trapped_weight(solved, 3) == brute_trapped(lines, 4, 3) == 2


def test_a_true_fifty_fifty_traps_both_cells_in_every_arrangement_with_their_mine() -> None:
    solved = solved_position(["HH", "11", "00"], 1)
    assert solved.counts is not None
    assert solved.counts.total == 2
    assert trapped_weight(solved, 0) == 1
    assert trapped_weight(solved, 1) == 1


def nonzero_on_random_positions(
    seed: int,
    weigh: Callable[[Solved, int], int],
    brute: Callable[[list[str], int, int], int],
) -> int:
    """Check `weigh` against `brute` on every undecided cell of random small positions (300
    cells); returns how many cells had a nonzero weight."""
    nonzero = 0
    for lines, mines, solved, cell in undecided_cells(seed, 4, 5, 300):
        expected = brute(lines, mines, cell)
        assert weigh(solved, cell) == expected, (lines, mines, cell)
        nonzero += expected > 0
    return nonzero


def test_trapped_weights_match_brute_force_on_random_positions() -> None:
    # ... and the positions do exercise the traps.
    assert nonzero_on_random_positions(5, trapped_weight, brute_trapped) > 30


def brute_enabling(lines: list[str], mines: int, cell: int) -> int:
    """The same sum, by counting every layout that fits: each 50/50 that `cell` would close
    as its last open wall, in the one mine layout the solver counts."""
    rows, cols = len(lines), len(lines[0])
    unknown, possible = layouts(lines, mines)
    certain = {c for c in unknown if all(c in layout for layout in possible)}
    undecided = {c for c in unknown if c not in certain and any(c in lay for lay in possible)}
    row, col = divmod(cell, cols)

    def at(offset: tuple[int, int]) -> int | None:
        r, c = row + offset[0], col + offset[1]
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else None

    total = 0
    for trap in ENABLED:
        mines_in = [at(o) for o in trap.mines]
        safe = [at(o) for o in trap.safe]
        if any(c not in undecided for c in mines_in + safe):
            continue
        if any(c is not None and c not in certain for c in map(at, trap.walls)):
            continue
        need = {cell, *mines_in}
        total += sum(1 for layout in possible if need <= layout and not layout & set(safe))
    return total


def test_the_last_open_wall_of_a_fifty_fifty_is_credited_with_one_of_its_layouts() -> None:
    # On a 3x3 board with 3 mines, the 2x2 block at the bottom right has only one wall
    # inside the board, (0, 0): with a mine there and one diagonal of the block mined,
    # no number could ever tell the block's two diagonals apart.
    lines = ["HHH", "HHH", "HHH"]
    solved = solved_position(lines, 3)
    assert enabling_weight(solved, 0, Counter()) == 1  # (0, 0), (1, 1), (2, 2)
    assert enabling_weight(solved, 1, Counter()) == brute_enabling(lines, 3, 1) == 0


def test_enabling_weights_match_brute_force_on_random_positions() -> None:
    def enabling(solved: Solved, cell: int) -> int:
        return enabling_weight(solved, cell, Counter())

    assert nonzero_on_random_positions(7, enabling, brute_enabling) > 10
