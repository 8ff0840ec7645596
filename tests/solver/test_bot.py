"""`Bot`: plays through the public API only, deterministically, and wins often."""

from __future__ import annotations

from collections.abc import Callable

from mines import BoardView, Game, GameStatus, RandomPlacer
from mines.solver import Bot
from mines.solver.bot import opening_click
from mines.solver.endgame import solve_endgame
from tests.solver.brute import solved_position


class PublicOnly:
    """A game behind a wall: the bot gets views and may reveal, and nothing else exists."""

    __slots__ = ("_reveal", "_view", "calls")

    def __init__(self, game: Game):
        # The game is held only in these closures: the proxy has no other attribute to read.
        def view() -> BoardView:
            return game.view()

        def reveal(row: int, col: int) -> GameStatus:
            return game.reveal(row, col)

        self._view: Callable[[], BoardView] = view
        self._reveal: Callable[[int, int], GameStatus] = reveal
        self.calls: list[str] = []

    def view(self) -> BoardView:
        self.calls.append("view")
        return self._view()

    def reveal(self, row: int, col: int) -> GameStatus:
        self.calls.append("reveal")
        return self._reveal(row, col)


def test_the_bot_plays_through_views_and_reveals_only() -> None:
    game = Game.from_preset("intermediate", placer=RandomPlacer(11))
    proxy = PublicOnly(game)
    status = Bot(11).play(proxy)
    assert status is game.status
    assert status.is_over
    assert set(proxy.calls) == {"view", "reveal"}
    assert not hasattr(proxy, "_engine")


def test_same_seed_same_game() -> None:
    def moves(seed: int) -> list[tuple[int, int]]:
        game = Game.from_preset("expert", placer=RandomPlacer(seed, "safe"))
        Bot(seed, first_click=(0, 0)).play(game)
        return [(m.move.row, m.move.col) for m in game.record().moves]

    assert moves(4) == moves(4)
    assert moves(4) != moves(5)


def test_the_first_click_is_where_it_is_told() -> None:
    game = Game.from_preset("expert", placer=RandomPlacer(2, "safe"))
    Bot(2, first_click=(0, 0)).play(game)
    first = game.record().moves[0].move
    assert (first.row, first.col) == (0, 0)


def test_unless_told_the_bot_opens_sparse_boards_nearer_the_corner() -> None:
    for name, expected in (("beginner", (2, 2)), ("intermediate", (2, 2)), ("expert", (3, 3))):
        game = Game.from_preset(name, placer=RandomPlacer(3))
        Bot(3).play(game)
        first = game.record().moves[0].move
        assert (first.row, first.col) == expected
    assert opening_click(2, 2, 1) == (1, 1)


def test_the_bot_finishes_a_game_already_under_way() -> None:
    # One mine in the corner, two numbers showing: the rest follows by deduction.
    game = Game.from_position(3, 3, [(0, 0)], revealed=[(1, 1), (0, 1)])
    assert Bot(0).play(game) is GameStatus.WON


def test_win_rate_smoke() -> None:
    """Beginner with an opening first click: the best solvers win about 97%; 85% is generous."""
    wins = 0
    for seed in range(60):
        game = Game.from_preset("beginner", placer=RandomPlacer(seed))
        wins += Bot(seed).play(game) is GameStatus.WON
    assert wins >= 51


def test_a_pseudo_fifty_fifty_is_guessed_before_safer_cells() -> None:
    # (3, 5) is a mine only when (3, 4) is safe and (2, 3) and (3, 3) are mines: then no
    # number can ever tell (3, 4) from (3, 5). That coin flip must be taken some day, and
    # taking it now can only tell more, so it goes before the far safer (1, 0).
    lines = ["1HHHHH", "HH32H1", "HHHH31", "HHHHHH"]
    solved = solved_position(lines, 7)
    credited = Bot(0, endgame_cells=0).guess(solved)
    plain = Bot(0, endgame_cells=0, fifty_fifty_credit=0.0).guess(solved)
    assert divmod(credited.cell, 6) == (3, 5)
    assert plain.mine_probability < 0.1 < 0.4 < credited.mine_probability
    best = solve_endgame(solved, max_cells=20, max_layouts=1000)
    assert best is not None
    assert divmod(best.cell, 6) in {(3, 4), (3, 5)}


def test_a_guess_that_loses_only_inside_a_fifty_fifty_is_preferred() -> None:
    # (0, 5) and (1, 5) hold one mine that no number can ever tell apart: guessing there
    # costs nothing that waiting would save. (0, 3) is safer now but leaves the coin flip
    # for later; the exhaustive search agrees that the corner pair wins most often.
    solved = solved_position(["HHHHHH", "H2111H"], 3)
    credited = Bot(0, endgame_cells=0).guess(solved)
    plain = Bot(0, endgame_cells=0, fifty_fifty_credit=0.0).guess(solved)
    corner_pair = {5, 11}
    assert plain.cell not in corner_pair
    assert plain.mine_probability < credited.mine_probability
    assert credited.cell in corner_pair
    best = solve_endgame(solved)
    assert best is not None
    assert best.cell in corner_pair
