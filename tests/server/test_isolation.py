"""Isolation: a slow move on one game never holds up other games; moves on one game are
serialised and each stored once, in order."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from mines import placement
from mines.moves import MoveKind
from mines.placement import MinePlacer, RandomPlacer
from mines.server.db.storage import MoveWrite, StaleGameError, StoredMove
from mines.server.services.present import Window
from tests.server.conftest import Server

SLOW_SEED = 77


class GatedPlacer:
    """Places mines like the seeded placer, but only once the test opens the gate."""

    rule = "opening"
    seed = SLOW_SEED

    def __init__(self, entered: threading.Event, gate: threading.Event, seen: list[bool]):
        self._entered, self._gate, self._seen = entered, gate, seen

    def place(
        self, rows: int, cols: int, mines: int, first_click: tuple[int, int]
    ) -> npt.NDArray[np.int64]:
        self._entered.set()
        # The generous wait only breaks a deadlock: with isolation the gate opens at once.
        self._seen.append(self._gate.wait(60))
        return RandomPlacer(SLOW_SEED, "opening").place(rows, cols, mines, first_click)


def test_a_slow_move_does_not_delay_other_games(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, gate = threading.Event(), threading.Event()
    seen: list[bool] = []

    def placer_for_rule(rule: str, seed: int | None) -> MinePlacer:
        return (
            GatedPlacer(entered, gate, seen)
            if seed == SLOW_SEED
            else placement.placer_for_rule(rule, seed)
        )

    monkeypatch.setattr("mines.server.services.games.placer_for_rule", placer_for_rule)
    slow = server.create(preset="beginner", seed=SLOW_SEED)
    other = server.create(preset="beginner", seed=5)
    answers: list[Any] = []
    mover = threading.Thread(
        target=lambda: answers.append(
            server.service.move(slow["id"], slow["token"], MoveKind.OPEN, (4, 4), Window())
        )
    )
    mover.start()
    try:
        assert entered.wait(60)
        # While the slow game's first reveal is still placing its mines, everyone else is
        # served: a move in another game, a read, a new game, the leaderboard.
        assert server.move(other, "flag", 0, 0).status_code == 200
        assert server.move(other, "reveal", 4, 4).status_code == 200
        assert server.client.get(f"/api/games/{other['id']}").status_code == 200
        server.create(preset="beginner")
        assert server.client.get("/api/leaderboard").status_code == 200
    finally:
        gate.set()
        mover.join()
    assert seen == [True]
    assert answers[0].view["status"] != "LOST"
    record = server.client.get(f"/api/games/{slow['id']}").json()["view"]
    assert record["cells"][4][4] != "H"


def test_concurrent_moves_on_one_game_are_each_stored_once(server: Server) -> None:
    game = server.create(rows=10, cols=10, mines=5, seed=3)
    cells = [(r, c) for r in range(4) for c in range(10)]

    def flag(cell: tuple[int, int]) -> None:
        server.service.move(game["id"], game["token"], MoveKind.FLAG, cell, Window())

    threads = [threading.Thread(target=flag, args=(cell,)) for cell in cells]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = server.service.storage.moves_after(game["id"], 0)
    assert [m.seq for m in stored] == list(range(1, len(cells) + 1))
    assert sorted(m.move for m in stored) == sorted(f"F{r},{c}" for r, c in cells)
    view = server.client.get(f"/api/games/{game['id']}").json()["view"]
    assert sum(line.count("F") for line in view["cells"]) == len(cells)


def test_a_move_computed_on_an_old_version_is_not_stored(server: Server) -> None:
    game = server.create()
    server.move(game, "flag", 0, 0)
    storage = server.service.storage
    late = MoveWrite(StoredMove(1, "F1,1", 0.0), "IN_PROGRESS", None, None)
    with pytest.raises(StaleGameError):
        storage.append(game["id"], late)
    assert [m.move for m in storage.moves_after(game["id"], 0)] == ["F0,0"]
    # Through the service, a cached game behind the stored one catches up and moves on.
    storage.append(game["id"], MoveWrite(StoredMove(2, "F2,2", 0.0), "IN_PROGRESS", None, None))
    assert server.move(game, "flag", 3, 3).status_code == 200
    cells = server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"]
    assert (cells[0][0], cells[2][2], cells[3][3]) == ("F", "F", "F")
