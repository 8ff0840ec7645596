"""Boards by period (UTC day, ISO week, month, year, all time) and by measure (time, 3BV/s,
efficiency), no-flag boards, against answers worked out by hand on a frozen clock; and which
wins go on them: a no-flag win on the no-flag board, a flagged one (a flag taken off again
too) not."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from mines.ranking import SKILL_MIN_3BV, period_key
from mines.server.db.storage import AccountRow, Finish, GameRow, MoveWrite, Result, StoredMove
from tests.server.conftest import FakeClock, Server, layout, safe_cells


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


NOW = at("2026-12-09T12:00")
"""A Wednesday, in ISO week 2026-W50 (Monday 7 to Sunday 13 December)."""

WINS = [
    # player, finished, time, 3BV, clicks, no flags
    ("ann", "2026-12-09T10:00", 20.0, 30, 40, False),  # 1.5 3BV/s, 75 %
    ("ann", "2026-12-07T09:00", 15.0, 12, 30, False),  # 0.8 3BV/s, 40 % (Monday: this week)
    ("bob", "2026-12-06T20:00", 10.0, 25, 25, False),  # 2.5 3BV/s, 100 % (Sunday: last week)
    ("bob", "2026-12-09T11:00", 30.0, 9, 9, False),  # 3BV 9, under Beginner's 10: time only
    ("cat", "2026-11-30T08:00", 8.0, 40, 45, True),  # 5.0 3BV/s, 88.9 %, no flags (November)
    ("cat", "2025-12-31T23:00", 5.0, 10, 10, False),  # 2.0 3BV/s, 100 % (2025; ISO week 2026-W01)
    ("dan", "2026-12-09T09:00", 25.0, 20, 20, True),  # 0.8 3BV/s, 100 %, no flags
]

EXPECTED: dict[tuple[str, str], list[tuple[str, float]]] = {
    # (period, measure): [(player, the entry's figure)], worked out by hand from WINS.
    ("day", "time"): [("ann", 20.0), ("dan", 25.0), ("bob", 30.0)],
    ("day", "three_bv_per_second"): [("ann", 1.5), ("dan", 0.8)],
    ("day", "efficiency"): [("dan", 100.0), ("ann", 75.0)],
    ("week", "time"): [("ann", 15.0), ("dan", 25.0), ("bob", 30.0)],
    ("week", "three_bv_per_second"): [("ann", 1.5), ("dan", 0.8)],
    ("week", "efficiency"): [("dan", 100.0), ("ann", 75.0)],
    ("month", "time"): [("bob", 10.0), ("ann", 15.0), ("dan", 25.0)],
    ("month", "three_bv_per_second"): [("bob", 2.5), ("ann", 1.5), ("dan", 0.8)],
    # A tie on the measure: the earlier win first.
    ("month", "efficiency"): [("bob", 100.0), ("dan", 100.0), ("ann", 75.0)],
    ("year", "time"): [("cat", 8.0), ("bob", 10.0), ("ann", 15.0), ("dan", 25.0)],
    ("year", "three_bv_per_second"): [("cat", 5.0), ("bob", 2.5), ("ann", 1.5), ("dan", 0.8)],
    ("year", "efficiency"): [("bob", 100.0), ("dan", 100.0), ("cat", 88.9), ("ann", 75.0)],
    ("all", "time"): [("cat", 5.0), ("bob", 10.0), ("ann", 15.0), ("dan", 25.0)],
    ("all", "three_bv_per_second"): [("cat", 5.0), ("bob", 2.5), ("ann", 1.5), ("dan", 0.8)],
    ("all", "efficiency"): [("cat", 100.0), ("bob", 100.0), ("dan", 100.0), ("ann", 75.0)],
}
NO_FLAGS: dict[tuple[str, str], list[tuple[str, float]]] = {
    ("day", "time"): [("dan", 25.0)],
    ("month", "time"): [("dan", 25.0)],
    ("year", "time"): [("cat", 8.0), ("dan", 25.0)],
    ("all", "efficiency"): [("dan", 100.0), ("cat", 88.9)],
}


def store_wins(server: Server) -> None:
    """The wins of `WINS`, stored by the move path's own write (`Storage.append`)."""
    storage = server.service.storage
    for name in sorted({win[0] for win in WINS}):
        account = AccountRow(name, name, name, name, "x", 0.0)
        assert storage.create_account(account)
    for n, (name, finished, time, three_bv, clicks, no_flags) in enumerate(WINS):
        game_id = f"g{n}"
        # The game's row counts its clicks: `version` moves stored before the winning one.
        storage.create(
            GameRow(game_id, "h", 9, 9, 10, "opening", n, name, "beginner", 0.0, None,
                    "IN_PROGRESS", clicks - 1, account_id=name)
        )  # fmt: skip
        when = at(finished)
        result = Result(
            game_id, "beginner", False, name, time, when, name, None, no_flags, three_bv
        )
        write = MoveWrite(
            StoredMove(clicks, "O0,0", when), "WON", None, result,
            Finish(when, time, three_bv, no_flags),
        )  # fmt: skip
        storage.append(game_id, write)


def figures(entries: list[dict[str, Any]], measure: str) -> list[tuple[str, float]]:
    return [(entry["player"], entry[measure]) for entry in entries]


@pytest.mark.parametrize(("period", "measure"), sorted(EXPECTED))
def test_each_board_by_period_and_measure_is_the_hand_computed_one(
    any_server: Server, clock: FakeClock, period: Any, measure: Any
) -> None:
    store_wins(any_server)
    clock.now = NOW  # the boards of the injected clock's day, week, month and year
    key, entries = any_server.service.leaderboard(
        "beginner", False, 10, period=period, measure=measure
    )
    assert key == period_key(period, NOW)
    assert figures(entries, measure) == EXPECTED[period, measure]


@pytest.mark.parametrize(("period", "measure"), sorted(NO_FLAGS))
def test_the_no_flag_boards_hold_the_no_flag_wins_only(
    server: Server, clock: FakeClock, period: Any, measure: Any
) -> None:
    store_wins(server)
    clock.now = NOW
    _, entries = server.service.leaderboard(
        "beginner", False, 10, period=period, measure=measure, no_flags=True
    )
    assert figures(entries, measure) == NO_FLAGS[period, measure]


def test_the_period_keys_are_utc_days_iso_weeks_months_and_years() -> None:
    assert [period_key(p, at("2025-12-31T23:00")) for p in ("day", "week", "month", "year")] == [
        "2025-12-31",
        "2026-W01",  # an ISO week belongs to the year of its Thursday
        "2025-12",
        "2025",
    ]
    assert period_key("all", NOW) == "all"


def test_the_skill_minimum_has_one_home_per_preset() -> None:
    assert SKILL_MIN_3BV == {"beginner": 10, "intermediate": 30, "expert": 100}


# --- through the server: real games, the API ------------------------------------------------


def play_win(server: Server, clock: FakeClock, *, flag: bool = False) -> dict[str, Any]:
    """A won beginner game, 30 s long; with `flag`, a flag placed on a cell and taken off."""
    seed = server.next_seed
    game = server.create(preset="beginner")
    server.move(game, "reveal", 0, 0)
    clock.now += 30.0
    cells = safe_cells(9, 9, layout(seed, 9, 9, 10, (0, 0)))
    if flag:
        hidden = [cell for cell in cells if cell != (0, 0)][-1]
        for _ in range(2):  # on, then off again: the board ends with no flag at all
            assert server.move(game, "flag", *hidden).status_code == 200
    for r, c in cells:
        if server.move(game, "reveal", r, c).json()["view"]["status"] == "WON":
            return game
    pytest.fail("the game was not won")


def board(server: Server, query: str) -> list[str]:
    answer = server.client.get(f"/api/leaderboard?preset=beginner&{query}")
    assert answer.status_code == 200, answer.text
    return [entry["player"] for entry in answer.json()["entries"]]


def test_a_no_flag_win_ranks_on_the_no_flag_board_and_a_flagged_one_does_not(
    server: Server, clock: FakeClock
) -> None:
    server.sign_up("ann")
    plain = play_win(server, clock)
    server.sign_up("bob")
    flagged = play_win(server, clock, flag=True)
    summaries = [
        server.client.get(f"/api/games/{game['id']}/summary").json() for game in (plain, flagged)
    ]
    assert [s["no_flags"] for s in summaries] == [True, False]
    assert board(server, "board=all") == ["ann", "bob"]
    assert board(server, "board=all&no_flags=true") == ["ann"]
    assert board(server, "board=week&no_flags=true") == ["ann"]
    profiles = [server.client.get(f"/api/players/{name}").json() for name in ("ann", "bob")]
    assert [p["best_no_flags"] for p in profiles] == [{"beginner": 30.0}, {}]


def test_the_api_answers_a_board_by_period_and_measure(server: Server, clock: FakeClock) -> None:
    store_wins(server)
    clock.now = NOW
    answer = server.client.get(
        "/api/leaderboard?preset=beginner&board=week&measure=three_bv_per_second"
    ).json()
    assert (answer["board"], answer["period"], answer["measure"]) == (
        "week",
        "2026-W50",
        "three_bv_per_second",
    )
    assert figures(answer["entries"], "three_bv_per_second") == [("ann", 1.5), ("dan", 0.8)]
    refused = server.client.get("/api/leaderboard?preset=beginner&board=decade")
    assert refused.status_code == 422
    daily = server.client.get("/api/leaderboard?preset=beginner&board=daily&measure=efficiency")
    assert daily.status_code == 422
    assert "daily" in daily.json()["detail"]


def test_a_win_marked_assisted_later_leaves_the_boards_to_the_accounts_other_wins(
    server: Server, clock: FakeClock
) -> None:
    store_wins(server)
    clock.now = NOW
    server.service.mark_assisted("g1")  # ann's 15 s win, her best of the week
    _, entries = server.service.leaderboard("beginner", False, 10, period="week")
    assert figures(entries, "time") == [("ann", 20.0), ("dan", 25.0), ("bob", 30.0)]
    _, entries = server.service.leaderboard("beginner", False, 10, period="all")
    assert figures(entries, "time") == [("cat", 5.0), ("bob", 10.0), ("ann", 20.0), ("dan", 25.0)]
