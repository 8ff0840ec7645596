"""A player's history, `GET /api/players/{name}/games`: newest first, a page at a time by an
opaque cursor that stays right while new games arrive (no game twice, none missing), filtered
by board and result, today's daily games left out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server import test_daily as daily
from tests.server.conftest import FakeClock, Server, layout, safe_cells


def finish(
    server: Server, clock: FakeClock, *, win: bool = True, seconds: float = 0.0, **body: Any
) -> str:
    """A finished beginner game (won, or lost on a mine) `seconds` long; its ID. With no
    `seconds`, games finish at the same instant: the ID orders them then."""
    seed = server.next_seed
    game = server.create(preset="beginner", **body)
    server.move(game, "reveal", 0, 0)
    clock.now += seconds
    mines = layout(seed, 9, 9, 10, (0, 0))
    if not win:
        r, c = sorted(mines)[0]
        assert server.move(game, "reveal", r, c).json()["view"]["status"] == "LOST"
        return str(game["id"])
    for r, c in safe_cells(9, 9, mines):
        if server.move(game, "reveal", r, c).json()["view"]["status"] == "WON":
            return str(game["id"])
    pytest.fail("the game was not won")


def page(server: Server, query: str = "", name: str = "ann") -> dict[str, Any]:
    answer = server.client.get(f"/api/players/{name}/games?{query}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def ids(found: dict[str, Any]) -> list[str]:
    return [game["id"] for game in found["games"]]


def test_paging_while_new_games_arrive_lists_each_game_once(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("ann")
    first = [finish(server, clock, seconds=s) for s in (5.0, 0.0, 0.0, 3.0, 0.0, 0.0, 2.0)]
    seen: list[str] = []
    found = page(server, "limit=3")
    while True:
        seen += ids(found)
        finish(server, clock, seconds=1.0)  # a newer game between two pages
        finish(server, clock)  # and one finished at that same instant
        if found["next"] is None:
            break
        found = page(server, f"limit=3&cursor={found['next']}")
    assert sorted(seen) == sorted(first)  # none missing
    assert len(seen) == len(set(seen))  # none twice
    newest = page(server, "limit=100")
    assert len(newest["games"]) == len(first) + 2 * 3
    assert newest["next"] is None
    times = [(g["finished_at"], g["id"]) for g in newest["games"]]
    assert times == sorted(times, reverse=True)


def test_an_entry_has_its_figures_and_links(server: Server, clock: FakeClock) -> None:
    server.sign_up("ann")
    game_id = finish(server, clock, seconds=10.0)
    (entry,) = page(server)["games"]
    assert entry["id"] == game_id
    assert (entry["status"], entry["no_flags"], entry["preset"]) == ("WON", True, "beginner")
    assert entry["three_bv_per_second"] == round(entry["three_bv"] / 10.0, 3)
    assert entry["efficiency"] == round(100 * entry["three_bv"] / entry["clicks"], 1)
    assert (entry["replay"], entry["review"]) == (f"/#replay={game_id}", f"/review/{game_id}")


def test_the_filters_by_board_and_result(server: Server, clock: FakeClock) -> None:
    server.sign_up("ann")
    won = finish(server, clock, seconds=4.0)
    lost = finish(server, clock, win=False, seconds=1.0)
    custom = server.create(rows=3, cols=3, mines=0)
    assert server.move(custom, "reveal", 0, 0).json()["view"]["status"] == "WON"  # at once
    assert ids(page(server, "board=beginner&result=won")) == [won]
    assert ids(page(server, "board=beginner&result=lost")) == [lost]
    assert ids(page(server, "result=no_flags")) == [custom["id"], won]  # neither flagged
    assert ids(page(server, "board=custom")) == [custom["id"]]
    assert ids(page(server, "board=expert")) == []


def test_todays_daily_game_stays_hidden_as_the_profile_hides_it(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("ann")
    game = server.create(daily="beginner")
    daily.finish(server, clock, game, won=False, seconds=5.0)
    assert page(server)["games"] == []
    clock.now += 2 * 3600  # past midnight UTC: the day is over, the game listed
    assert ids(page(server)) == [game["id"]]


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("cursor=not-a-cursor", "query.cursor"),
        ("cursor=WzEsMl0", "query.cursor"),  # [1,2]: a game ID must be text
        ("board=huge", "query.board"),
        ("result=draw", "query.result"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
    ],
)
def test_a_bad_query_is_refused_with_what_is_allowed(server: Server, query: str, says: str) -> None:
    server.sign_up("ann")
    answer = server.client.get(f"/api/players/ann/games?{query}")
    assert answer.status_code == 422
    assert says in answer.text


def test_an_unknown_player_has_no_history(server: Server) -> None:
    assert server.client.get("/api/players/nobody/games").status_code == 404
