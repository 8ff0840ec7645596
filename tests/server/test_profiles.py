"""Players' profiles: statistics equal to a recount from the stored games, on both databases."""

from __future__ import annotations

from typing import Any

import pytest

from mines.server.db import layouts
from tests.server.conftest import FakeClock, Server, safe_cells


def placed_mines(server: Server, game: dict[str, Any]) -> set[tuple[int, int]]:
    """The mines the server placed at the game's first reveal, as it stored them."""
    row = server.service.storage.load(game["id"])
    assert row is not None
    assert row.layout is not None
    return {(int(r), int(c)) for r, c in layouts.decode(row.layout, row.rows, row.cols).tolist()}


def play(server: Server, clock: FakeClock, seconds: float, won: bool, **body: Any) -> str:
    """A Beginner game (today's daily board with `daily`), won in `seconds` or lost after them."""
    game = server.create(**({} if "daily" in body else {"preset": "beginner"}), **body)
    server.move(game, "reveal", 0, 0)
    clock.now += seconds
    mines = placed_mines(server, game)
    if not won:
        server.move(game, "reveal", *sorted(mines)[0])
        return str(game["id"])
    server.move(game, "flag", *sorted(mines)[0])  # a useful click that is not a reveal
    for r, c in safe_cells(9, 9, mines):
        server.move(game, "reveal", r, c)
        server.move(game, "reveal", r, c)  # wasted once cells are open: efficiency counts it
    return str(game["id"])


def test_a_profile_equals_a_recount_of_the_stored_games(
    any_server: Server, clock: FakeClock
) -> None:
    server = any_server
    server.sign_up("Ann")
    outcomes = [(30.0, True), (12.0, True), (5.0, False), (40.0, True), (20.0, True), (3.0, False)]
    ids = [play(server, clock, seconds, won) for seconds, won in outcomes]
    ids.append(play(server, clock, 9.0, True, seed=7))  # a won seeded game: counted, not ranked
    server.create(preset="beginner")  # in progress: not counted
    profile = server.client.get("/api/players/Ann").json()
    summaries = [server.client.get(f"/api/games/{i}/summary").json() for i in ids]
    wins = [s for s in summaries if s["status"] == "WON"]
    assert profile["name"] == "Ann"
    assert (profile["games"], profile["wins"]) == (len(summaries), len(wins))
    assert profile["win_rate"] == round(len(wins) / len(summaries), 4)
    assert profile["best"] == {"beginner": min(s["elapsed"] for s in wins if s["ranked"])}
    assert profile["best_no_guess"] == {}
    paces = [s["three_bv_per_second"] for s in wins]
    assert profile["three_bv_per_second"]["best"] == pytest.approx(max(paces), abs=1e-3)
    assert profile["three_bv_per_second"]["average"] == pytest.approx(
        sum(paces) / len(paces), abs=1e-3
    )
    efficiencies = [s["efficiency"] for s in wins]
    assert profile["efficiency"] == pytest.approx(sum(efficiencies) / len(wins), abs=0.1)
    assert profile["streak"] == {"current": 1, "best": 2}  # W W L W W L W
    history = profile["history"]
    assert [h["id"] for h in history] == list(reversed(ids))
    assert [h["status"] for h in history] == [s["status"] for s in reversed(summaries)]
    assert [h["ranked"] for h in history] == [s["ranked"] for s in reversed(summaries)]
    assert history[0]["replay"] == f"/#replay={ids[-1]}"
    assert server.client.get(history[0]["replay"].split("#")[0]).status_code == 200


def test_daily_boards_have_best_times_of_their_own_and_practice_never_ranks(
    any_server: Server, clock: FakeClock
) -> None:
    server = any_server
    server.sign_up("Ann")
    plays: list[tuple[dict[str, Any], float, bool]] = [
        ({}, 30.0, True),
        ({"daily": "beginner"}, 40.0, True),  # the day's first attempt: ranks on the day
        ({"daily": "beginner"}, 10.0, True),  # practice: faster, and never ranked
        ({"daily": "beginner", "no_guess": True}, 5.0, False),  # the no-guess board's attempt
        ({"daily": "beginner", "no_guess": True}, 8.0, True),  # practice
    ]
    ids = [play(server, clock, seconds, won, **body) for body, seconds, won in plays]
    clock.now += 86_400  # the next day: the first no-guess attempt there ranks
    ids.append(play(server, clock, 25.0, True, daily="beginner", no_guess=True))
    ids.append(play(server, clock, 35.0, True, daily="beginner"))  # a day's first, slower
    clock.now += 86_400  # both days over: their games are listed
    profile = server.client.get("/api/players/Ann").json()
    summaries = {i: server.client.get(f"/api/games/{i}/summary").json() for i in ids}
    history = {entry["id"]: entry for entry in profile["history"]}
    assert set(history) == set(ids)  # the first day is over: every game listed
    for game_id, summary in summaries.items():
        assert history[game_id]["ranked"] == summary["ranked"], summary.get("unranked")
    assert [summaries[i].get("unranked") for i in ids] == [
        None, None, "practice", "lost", "practice", None, None
    ]  # fmt: skip

    def best(no_guess: bool, daily: bool) -> dict[str, float]:
        """The recount: the best ranked time of one board kind, from the summaries."""
        times = [
            s["elapsed"]
            for i, s in summaries.items()
            if s["ranked"] and s["no_guess"] == no_guess and bool(history[i]["daily"]) == daily
        ]
        return {"beginner": min(times)} if times else {}

    assert profile["best"] == best(no_guess=False, daily=False) == {"beginner": 30.0}
    assert profile["best_no_guess"] == best(no_guess=True, daily=False) == {}
    assert profile["best_daily"] == best(no_guess=False, daily=True) == {"beginner": 35.0}
    assert profile["best_daily_no_guess"] == best(no_guess=True, daily=True) == {"beginner": 25.0}
    assert [history[i]["daily"] for i in ids] == [None, *["2023-11-14"] * 4, *["2023-11-15"] * 2]
    assert (profile["games"], profile["wins"]) == (len(ids), 6)


def test_only_the_accounts_own_games_count(server: Server, clock: FakeClock) -> None:
    play(server, clock, 10.0, True, player="Ann")  # anonymous, under the same name
    server.sign_up("Ann")
    play(server, clock, 20.0, True)
    server.sign_up("Bea")
    play(server, clock, 5.0, True)
    profile = server.client.get("/api/players/Ann").json()
    assert (profile["games"], profile["best"]) == (1, {"beginner": 20.0})


def test_a_new_player_has_an_empty_profile(server: Server) -> None:
    server.sign_up("Ann")
    profile = server.client.get("/api/players/ann").json()  # any look-alike of the name
    assert profile["name"] == "Ann"
    assert (profile["games"], profile["wins"], profile["win_rate"]) == (0, 0, None)
    assert profile["streak"] == {"current": 0, "best": 0}
    assert profile["history"] == []


def test_an_unknown_player_is_not_found(server: Server) -> None:
    answer = server.client.get("/api/players/Nobody")
    assert answer.status_code == 404
    assert answer.json()["code"] == "player_not_found"
