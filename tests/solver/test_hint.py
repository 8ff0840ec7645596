"""`hint`: a safe cell with its rule when there is one, else the least risky cell."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from mines import BoardView, Cell, FixedPlacer, Game, GameStatus, InvalidBoardError
from mines.placement import placer_for_rule
from mines.solver import Hint, analyze, find_undecided, hint


def test_a_certainly_safe_cell_comes_with_its_rule() -> None:
    found = hint(BoardView.from_strings(["HHH", "121", "000"], mines_left=2))
    assert found == Hint(0, 1, True, Fraction(0), found.reason)
    assert "the 1 at" in found.reason
    assert "safe" in found.reason


def test_without_a_safe_cell_the_least_risky_cell_is_named() -> None:
    # The 1 shares its mine among three cells (1/3 each); the other mine is on one of the
    # six cells out of its sight (1/6 each).
    view = BoardView.from_strings(["1HHHH", "HHHHH"], mines_left=2)
    found = hint(view)
    assert not found.safe
    assert found.mine_probability == min(analyze(view).probabilities.values())
    assert found.mine_probability == Fraction(1, 6)
    assert "lowest chance" in found.reason


def test_a_game_is_accepted_and_its_view_used() -> None:
    game = Game.from_position(3, 3, [(0, 0)], revealed=[(1, 1), (0, 1)])
    found = hint(game)
    assert found.safe
    assert game.view()[found.row, found.col].value == "H"


def test_a_finished_game_has_no_hint() -> None:
    game = Game.from_position(1, 2, [(0, 0)], revealed=[(0, 1)])
    with pytest.raises(InvalidBoardError, match="over"):
        hint(game)


# --- before the first click: the game's rule decides ------------------------------------------


def rule_game(rule: str, rows: int = 9, cols: int = 9, mines: int = 10) -> Game:
    return Game(rows, cols, mines, placer=placer_for_rule(rule, 7))


@pytest.mark.parametrize("rule", ["opening", "noguess"])
def test_before_the_first_click_an_opening_rule_makes_every_cell_safe(rule: str) -> None:
    game = rule_game(rule)
    found = hint(game, near=(2, 3))
    assert (found.row, found.col, found.safe) == (2, 3, True)
    assert found.mine_probability == 0
    assert "opens an area" in found.reason
    game.reveal(found.row, found.col)
    assert game.view(2, 3, 1, 1)[2, 3] is Cell.ZERO, "the promise holds: it opened an area"


def test_before_the_first_click_the_safe_rule_promises_the_cell_only() -> None:
    found = hint(rule_game("safe"))
    assert found.safe
    assert "may show a number" in found.reason
    assert "opens an area" not in found.reason


def test_an_opening_rule_without_room_for_an_opening_promises_only_safety() -> None:
    # 9x9 with 75 mines: the 3x3 block around a click cannot be kept free.
    found = hint(rule_game("opening", mines=75))
    assert found.safe
    assert "may show a number" in found.reason


@pytest.mark.parametrize("rule", ["any", "fixed"])
def test_before_the_first_click_without_a_promise_the_chance_is_exact(rule: str) -> None:
    game = (
        rule_game("any")
        if rule == "any"
        else Game(9, 9, 10, placer=FixedPlacer([(0, i) for i in range(10)]))
    )
    found = hint(game, near=(7, 1))
    assert not found.safe
    assert found.mine_probability == Fraction(10, 81)
    assert (found.row, found.col) == (8, 0), "the nearest corner"
    assert "10/81" in found.reason


# --- the wording ---------------------------------------------------------------------------------


def sentences_are_right(found: Hint) -> None:
    assert found.reason[:1].isupper() or found.reason.startswith("(")
    assert not re.search(r"[.:] [a-z]", found.reason.replace(": this", ". This")), found.reason
    assert found.reason.endswith(".")
    assert found.reason.count(f"({found.row}, {found.col})") == 1, found.reason


def test_a_two_step_deduction_is_told_step_by_step() -> None:
    found = hint(BoardView.from_strings(["HHH", "121", "000"], mines_left=2))
    assert (found.row, found.col) == (0, 1)
    sentences_are_right(found)
    first, second = found.reason.split(". ", 1)
    assert "so (0, 2) is a mine" in first
    assert second == "The 1 at (1, 2) already has its mine at (0, 2), so (0, 1) is safe."


def test_cells_settled_together_are_named_in_one_sentence() -> None:
    # HHH over 22H: the 2 at (1, 0) has just its two cells, then the 2 at (1, 1) has both.
    game = Game.from_position(2, 3, [(0, 0), (0, 1)], revealed=[(1, 0), (1, 1)])
    found = hint(game)
    sentences_are_right(found)
    assert found.reason == (
        "The 2 at (1, 0) has no other room for its 2 mines, so (0, 0) and (0, 1) are mines. "
        f"The 2 at (1, 1) already has its mines at (0, 0) and (0, 1), so ({found.row}, "
        f"{found.col}) is safe."
    )


def test_a_long_chain_lists_the_numbers_it_rests_on() -> None:
    # Expert, seed 0, opened at (8, 15), then 25 safe hints: the 26th rests on four steps.
    game = Game.from_preset("expert", seed=0)
    game.reveal(8, 15)
    for _ in range(25):
        step = hint(game)
        assert step.safe
        game.reveal(step.row, step.col)
    found = hint(game)
    sentences_are_right(found)
    assert "follows from several numbers together" in found.reason
    assert "the 2 at (6, 14)" in found.reason


# --- big boards ------------------------------------------------------------------------------


def island(rows: int, cols: int, engine: str | None = None) -> tuple[Game, tuple[int, int]]:
    """A mine at (r, c), its 5x5 block open but for the mine and one corner cell."""
    r, c = rows // 2, cols // 2
    corner = (r + 2, c + 2)
    opened = [
        (r + dr, c + dc)
        for dr in range(-2, 3)
        for dc in range(-2, 3)
        if (dr, dc) != (0, 0) and (r + dr, c + dc) != corner
    ]
    return Game.from_position(rows, cols, [(r, c)], revealed=opened, engine=engine), corner


@pytest.mark.parametrize(("rows", "cols", "engine"), [(4000, 4000, None), (10**6, 10**6, "sparse")])
def test_hints_on_boards_over_the_view_limit_look_through_windows(
    rows: int, cols: int, engine: str | None
) -> None:
    game, corner = island(rows, cols, engine)
    found = hint(game, near=(rows // 2 + 1, cols // 2 + 1))
    assert (found.row, found.col) == corner
    assert found.safe
    sentences_are_right(found)
    assert "view" not in found.reason
    assert "limit" not in found.reason


def test_a_cursor_in_the_open_is_led_past_lone_mines_to_something_to_find() -> None:
    # 2000 mines on 2000x2000: the first click opens nearly everything, leaving lone mines
    # ringed by numbers around the cursor; the hint looks further, for an undecided cell.
    game = Game(2000, 2000, 2000, seed=1)
    game.reveal(1000, 1000)
    found = hint(game, near=(1000, 1000))
    assert found.safe
    sentences_are_right(found)
    layout = game.record().layout
    assert layout is not None
    assert (found.row, found.col) not in set(layout)
    assert game.reveal(found.row, found.col) is GameStatus.IN_PROGRESS


def test_a_cursor_far_from_every_number_gets_the_board_density() -> None:
    game, _ = island(10**6, 10**6, "sparse")
    found = hint(game, near=(10**5, 10**5))
    assert (found.row, found.col) == (10**5, 10**5)
    closed = 10**12 - 23  # the island's 5x5 block opens all but its mine and one corner
    assert found.mine_probability == Fraction(1, closed), "the density of the closed cells"
    assert not found.safe
    assert not found.exact
    sentences_are_right(found)


def test_without_a_certain_cell_a_big_board_gives_an_estimate() -> None:
    # One 1 with its eight hidden neighbours, on a 1000x1000 board with 100,000 mines.
    game = Game.from_position(
        1000, 1000, [(499, 499), *(divmod(i, 1000) for i in range(99_999))], revealed=[(500, 500)]
    )
    found = hint(game, near=(500, 500))
    assert not found.safe
    assert not found.exact
    assert found.mine_probability < Fraction(1, 8), "a cell away from the 1 is less risky"
    sentences_are_right(found)
    assert "estimated" in found.reason or "average" in found.reason


def test_safe_hints_on_a_big_board_never_hit_a_mine() -> None:
    # 300x300 is over WHOLE_BOARD_CELLS, so every hint comes from windows.
    for seed in range(3):
        game = Game(300, 300, 12_000, seed=seed)
        game.reveal(150, 150)
        cursor = (150, 150)
        for _ in range(60):
            found = hint(game, near=cursor)
            if not found.safe:
                break
            assert game.reveal(found.row, found.col) is not GameStatus.LOST
            cursor = (found.row, found.col)


# --- what is left, beyond the screen ----------------------------------------------------------


def two_mines_far_off(distance: int) -> Game:
    """10^6 x 10^6 with two mines `distance` rows below the middle, a cell apart: the first
    click floods the whole sea but the cell between them, which only numbers can decide."""
    r, c = 500_000 + distance, 500_000
    game = Game(10**6, 10**6, 2, placer=FixedPlacer([(r, c), (r, c + 2)]))
    game.reveal(500_000, 500_000)
    assert game.status is GameStatus.IN_PROGRESS
    return game


def still(clock: list[float] | None = None) -> float:
    """A clock that never moves: a search with it runs until it finds or reaches the edges."""
    return 0.0


def test_a_hint_searches_beyond_the_cursor_for_what_is_left() -> None:
    # 1,600 rows off: past the 3,000-cell square the hint used to scan, then gave up.
    game = two_mines_far_off(1600)
    found = hint(game, near=(500_000, 500_000), clock=still)
    assert (found.row, found.col) == (501_600, 500_001)
    assert found.safe
    sentences_are_right(found)


def test_the_search_stops_at_its_budget_and_goes_on_from_there() -> None:
    game = two_mines_far_off(1600)
    ticks = iter(range(1000))
    first = find_undecided(game, (500_000, 500_000), budget=2, clock=lambda: next(ticks))
    assert first.cell is None
    assert not first.whole_board
    assert 0 < first.radius < 1600, "stopped when its budget was spent"
    assert "within" in first.reason
    further = find_undecided(game, (500_000, 500_000), beyond=first.radius, clock=still)
    assert further.cell == (501_600, 500_001)
    assert further.beside_numbers
    assert further.radius >= 1600


def test_the_search_says_when_nothing_is_left_on_the_whole_board() -> None:
    # Two lone mines on 300x300, and a safe corner flagged before the first click: the flood
    # stops at the flag, and every other closed cell is plainly a mine.
    game = Game(300, 300, 2, placer=FixedPlacer([(10, 10), (200, 200)]))
    game.toggle_flag(0, 0)
    game.reveal(150, 150)
    assert game.status is GameStatus.IN_PROGRESS
    search = find_undecided(game, (150, 150), clock=still)
    assert search.cell is None
    assert search.whole_board
    assert search.reason == "no closed cell is still to decide on the whole board."
    with pytest.raises(InvalidBoardError, match="no closed cell on the board is still to decide"):
        hint(game, near=(150, 150), clock=still)


def test_a_search_prefers_a_cell_beside_the_numbers_to_a_nearer_one_away_from_them() -> None:
    # A closed region at the cursor, and the numbers of a lone 1 two hundred cells away.
    game = Game.from_position(300, 300, [(100, 200)], revealed=[
        (r, c) for r in range(99, 102) for c in range(199, 202) if (r, c) != (100, 200)
    ])  # fmt: skip
    found = find_undecided(game, (100, 0), skip=(100, 0), clock=still)
    assert found.beside_numbers
    assert max(abs(found.cell[0] - 100), abs(found.cell[1] - 200)) <= 2  # type: ignore[index]
    either = find_undecided(game, (100, 0), beside_numbers=False, clock=still)
    assert either.cell == (100, 0)


def test_one_cell_of_its_own_is_one_cell_not_those() -> None:
    # Expert, seed 0, opened at (8, 15), then 43 safe hints: the 44th rests on a pair of
    # numbers, one of which has a single cell of its own.
    game = Game.from_preset("expert", seed=0)
    game.reveal(8, 15)
    for _ in range(43):
        step = hint(game)
        game.reveal(step.row, step.col)
    found = hint(game)
    assert "just 1 cell that" in found.reason
    assert "those are mines" not in found.reason
    assert "so that cell is a mine" in found.reason
    sentences_are_right(found)


def test_a_long_chain_names_the_numbers_nearest_the_cell() -> None:
    # Expert, seed 0: the 92nd hint rests on 14 numbers, some eleven columns off.
    game = Game.from_preset("expert", seed=0)
    game.reveal(8, 15)
    for _ in range(91):
        step = hint(game)
        game.reveal(step.row, step.col)
    found = hint(game)
    assert "several numbers" in found.reason
    listed = [(int(r), int(c)) for r, c in re.findall(r"the \d at \((\d+), (\d+)\)", found.reason)]
    distances = [max(abs(r - found.row), abs(c - found.col)) for r, c in listed]
    assert distances == sorted(distances), found.reason
    assert "more further off" in found.reason
