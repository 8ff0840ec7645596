"""No-guess boards on the server: limits before any work, the worker's board is the
generator's, and the budget, a client that goes away and a busy server all stop cleanly."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from mines.server.common.errors import NoGuessTimeoutError, ServerFullError
from mines.server.common.settings import NoGuessLimits
from mines.server.services.generation import NoGuessWorkers
from mines.server.services.workers import NICE, Workers
from mines.solver.noguess import NoGuessPlacer
from tests.server.conftest import FakeClock, Server


@pytest.mark.parametrize(
    ("size", "words"),
    [
        ({"rows": 60, "cols": 60, "mines": 300}, "at most 2,500 cells"),
        ({"rows": 30, "cols": 30, "mines": 300}, "at most 189"),
    ],
)
def test_no_guess_boards_past_the_limits_are_refused_first(
    server: Server, size: dict[str, int], words: str
) -> None:
    answer = server.client.post("/api/games", json={**size, "no_guess": True})
    assert answer.status_code == 422
    assert answer.json()["code"] == "no_guess_too_large"
    assert words in answer.json()["detail"]


def test_the_worker_deals_the_generators_board() -> None:
    workers = NoGuessWorkers(NoGuessLimits())
    placed = workers.place(9, 9, 9, 10, (4, 4))
    expected = NoGuessPlacer(9).place(9, 9, 10, (4, 4))
    assert sorted(placed) == sorted((int(r), int(c)) for r, c in expected.tolist())
    assert multiprocessing.active_children() == []


def test_past_the_budget_the_worker_is_stopped() -> None:
    workers = NoGuessWorkers(NoGuessLimits(budget=0.05))
    with pytest.raises(NoGuessTimeoutError, match=r"within 0\.05 s"):
        workers.place(1, 50, 50, 525, (25, 25))
    assert multiprocessing.active_children() == []


def test_a_client_that_goes_away_stops_the_worker() -> None:
    workers = NoGuessWorkers(NoGuessLimits())
    with pytest.raises(NoGuessTimeoutError, match="went away"):
        workers.place(1, 50, 50, 525, (25, 25), cancelled=lambda: True)
    assert multiprocessing.active_children() == []


def test_when_every_worker_is_busy_the_request_waits_its_turn_outside() -> None:
    workers = NoGuessWorkers(NoGuessLimits(workers=1))
    workers._workers._slots.acquire()  # another request is generating
    try:
        with pytest.raises(ServerFullError) as busy:
            workers.place(9, 9, 9, 10, (4, 4))
        assert busy.value.retry_after >= 1
    finally:
        workers._workers._slots.release()


def test_a_reveal_past_the_budget_is_refused_and_changes_nothing(
    sqlite_url: str, clock: FakeClock
) -> None:
    server = Server(sqlite_url, clock, no_guess=NoGuessLimits(budget=0.05))
    try:
        game = server.create(rows=50, cols=50, mines=525, no_guess=True, seed=1)
        refused = server.move(game, "reveal", 25, 25)
        assert refused.status_code == 422
        assert refused.json()["code"] == "no_guess_timeout"
        assert "fewer mines" in refused.json()["detail"]
        view = server.client.get(f"/api/games/{game['id']}").json()["view"]
        assert view["cells"] == ["H" * 50] * 50
        assert server.move(game, "flag", 0, 0).status_code == 200  # the game goes on
    finally:
        server.close()


def test_a_no_guess_game_is_played_through_the_worker(server: Server) -> None:
    game = server.create(preset="beginner", no_guess=True, seed=9)
    answer = server.move(game, "reveal", 4, 4)
    assert answer.status_code == 200
    expected = {(int(r), int(c)) for r, c in NoGuessPlacer(9).place(9, 9, 10, (4, 4)).tolist()}
    cells = answer.json()["view"]["cells"]
    assert all(cells[r][c] == "H" for r, c in expected)
    assert sum(line.count("H") for line in cells) < 81 - 10


def test_a_worker_runs_below_the_servers_priority() -> None:
    workers = Workers(1, memory=NoGuessLimits().memory, name="mines-test")
    lowest = 19  # the most a niceness goes up to
    assert workers.run(os.nice, (0,), budget=10.0, busy="busy") == min(os.nice(0) + NICE, lowest)
