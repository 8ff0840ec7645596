"""Practice help: the solver's chances and hints, for the player of a practice game only."""

from __future__ import annotations

from typing import Any

from mines.solver import analyze
from mines.status import GameStatus
from mines.view import BoardView
from tests.server.conftest import Server, layout, safe_cells


def help_with(server: Server, game: dict[str, Any], what: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token or game['token']}"}
    return server.client.post(f"/api/games/{game['id']}/{what}", headers=headers)


def test_chances_are_the_solvers_on_the_players_view(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    server.move(game, "reveal", 0, 0)
    server.move(game, "flag", 8, 8)
    answer = help_with(server, game, "analysis")
    assert answer.status_code == 200, answer.text
    view = server.client.get(f"/api/games/{game['id']}").json()["view"]
    expected = analyze(
        BoardView.from_strings(
            view["cells"], status=GameStatus.IN_PROGRESS, mines_left=view["mines_left"]
        )
    )
    cells = {(r, c): (p, certain) for r, c, p, certain in answer.json()["cells"]}
    assert set(cells) == set(expected.probabilities)
    for cell, chance in expected.probabilities.items():
        assert cells[cell][0] == float(chance)
        assert cells[cell][1] == (
            "safe" if cell in expected.safe else "mine" if cell in expected.certain_mines else None
        )


def test_chances_in_a_window_and_a_hint(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    server.move(game, "reveal", 0, 0)
    answer = server.client.post(
        f"/api/games/{game['id']}/analysis?top=5&left=5&height=4&width=4",
        headers={"Authorization": f"Bearer {game['token']}"},
    ).json()
    assert answer["cells"]
    assert all(5 <= r < 9 and 5 <= c < 9 for r, c, _, _ in answer["cells"])
    hint = help_with(server, game, "hint").json()
    assert {"row", "col", "safe", "probability", "reason"} <= set(hint)
    assert hint["safe"]
    assert (hint["row"], hint["col"]) not in layout(5, 9, 9, 10, (0, 0))


def test_help_is_for_the_player_of_a_practice_game_in_progress(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    other = server.create(preset="beginner", seed=6)
    server.sign_up("Ann")
    ranked_seed = server.next_seed
    ranked = server.create(preset="beginner")  # signed in, the server drew its seed: it can rank
    big = server.create(rows=50, cols=50, mines=10)
    for what in ("analysis", "hint"):
        assert server.client.post(f"/api/games/{game['id']}/{what}").status_code == 401
        assert help_with(server, game, what, token=other["token"]).status_code == 403
        assert help_with(server, ranked, what).status_code == 200  # it is marked assisted
        too_big = help_with(server, big, what)
        assert too_big.status_code == 422
        assert "at most 1,600 cells" in too_big.json()["detail"]
    server.move(game, "reveal", 0, 0)
    for row, col in safe_cells(9, 9, layout(5, 9, 9, 10, (0, 0))):
        server.move(game, "reveal", row, col)
    assert help_with(server, game, "hint").status_code == 409
    server.move(ranked, "reveal", 0, 0)
    for row, col in safe_cells(9, 9, layout(ranked_seed, 9, 9, 10, (0, 0))):
        server.move(ranked, "reveal", row, col)
    assert server.client.get(f"/api/games/{ranked['id']}").json()["view"]["status"] == "WON"
    board = server.client.get("/api/leaderboard?preset=beginner").json()["entries"]
    assert board == []  # helped, so never ranked


def test_a_hint_before_the_first_click_follows_the_games_rule(server: Server) -> None:
    opening = server.create(preset="beginner", seed=5)
    anything = server.create(rows=9, cols=9, mines=10, seed=5, first_click="any")
    safe = help_with(server, opening, "hint").json()
    assert safe["safe"] is True  # under "opening" every first click is safe and opens an area
    assert safe["probability"] == 0
    assert "opens an area" in safe["reason"]
    risky = help_with(server, anything, "hint").json()
    assert risky["safe"] is False  # "any" promises nothing: every cell 10/81
    assert risky["probability"] == 10 / 81
