"""The take-home `Minesweeper` class: its example, its lenient moves, the 4x4 dry run."""

from __future__ import annotations

from mines.compat import Minesweeper


def test_statement_example() -> None:
    game = Minesweeper(rows=3, cols=3, mines=[(0, 0)])
    assert game.get_board_view() == [["H"] * 3] * 3
    game.toggle_flag(0, 0)
    assert game.get_board_view()[0][0] == "F"
    assert game.reveal(2, 2) == "WON"
    assert game.get_board_view() == [["F", "1", "0"], ["1", "1", "0"], ["0", "0", "0"]]


def test_lenient_moves_change_nothing() -> None:
    game = Minesweeper(3, 3, [(0, 0)])
    assert game.reveal(5, 5) == "IN_PROGRESS"
    game.toggle_flag(-1, 0)
    assert game.reveal(1, 1) == "IN_PROGRESS"
    assert game.reveal(1, 1) == "IN_PROGRESS"
    game.toggle_flag(1, 1)  # revealed: no effect
    game.toggle_flag(0, 1)
    assert game.reveal(0, 1) == "IN_PROGRESS"  # flagged: no effect
    assert game.get_board_view() == [["H", "F", "H"], ["H", "1", "H"], ["H", "H", "H"]]


def test_loss_shows_mines_only_then_and_is_final() -> None:
    game = Minesweeper(2, 3, [(0, 0), (1, 2)])
    assert all(cell != "M" for row in game.get_board_view() for cell in row)
    assert game.reveal(0, 0) == "LOST"
    assert game.get_board_view() == [["M", "H", "H"], ["H", "H", "M"]]
    assert game.reveal(0, 1) == "LOST"
    game.toggle_flag(0, 2)
    assert game.get_board_view() == [["M", "H", "H"], ["H", "H", "M"]]


def test_dry_run_4x4_follows_the_rules_not_the_table() -> None:
    """The write-up's table says step 3 stays IN_PROGRESS; the rules say it wins.

    Mines at (0,0) and (0,1); revealing (3,3) floods every safe cell (the zero region
    reaches (0,3), and its border covers the rest), so the game is WON at step 3 and
    steps 4 and 5 are moves after the end, which change nothing.
    """
    game = Minesweeper(4, 4, [(0, 0), (0, 1)])
    game.toggle_flag(0, 0)
    assert game.reveal(3, 3) == "WON"
    assert game.get_board_view() == [
        ["F", "H", "1", "0"],
        ["2", "2", "1", "0"],
        ["0", "0", "0", "0"],
        ["0", "0", "0", "0"],
    ]
    assert game.reveal(0, 1) == "WON"
    game.toggle_flag(2, 2)
    assert game.get_board_view()[2][2] == "0"
