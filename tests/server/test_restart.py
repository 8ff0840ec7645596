"""Durability: a server restarted, even after SIGKILL, resumes every game exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import FakeClock, Server, layout, safe_cells
from tests.server.processes import get, post, server_process


def test_a_new_server_on_the_same_file_resumes_games_and_clocks(sqlite_url: str) -> None:
    clock = FakeClock()
    first = Server(sqlite_url, clock)
    playing = first.create(preset="beginner", seed=21)
    first.move(playing, "reveal", 4, 4)
    first.move(playing, "flag", 0, 0)
    clock.now += 7.0
    before = first.client.get(f"/api/games/{playing['id']}").json()["view"]
    read_at = clock.now
    won = first.create(preset="beginner", seed=22)
    first.move(won, "reveal", 0, 0)
    clock.now += 3.0
    for r, c in safe_cells(9, 9, layout(22, 9, 9, 10, (0, 0))):
        first.move(won, "reveal", r, c)
    record = first.client.get(f"/api/games/{won['id']}/record").json()
    first.close()

    clock.now += 60.0
    second = Server(sqlite_url, clock)
    try:
        after = second.client.get(f"/api/games/{playing['id']}").json()["view"]
        assert after["cells"] == before["cells"]
        assert after["mines_left"] == before["mines_left"]
        # The clock ran on while the server was down.
        assert after["elapsed"] == before["elapsed"] + (clock.now - read_at)
        assert second.client.get(f"/api/games/{won['id']}/record").json() == record
        assert record["elapsed"] == 3.0
        # The old token still moves the game, and the move follows on from the stored ones.
        answer = second.move(playing, "flag", 0, 0)
        assert answer.status_code == 200
        assert answer.json()["changed"] == [[0, 0, "H"]]
    finally:
        second.close()


def _move(url: str, game: dict[str, Any], kind: str, row: int, col: int) -> dict[str, Any]:
    answer = post(
        f"{url}/api/games/{game['id']}/{kind}",
        json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_every_answered_move_survives_sigkill(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    games: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with server_process(database) as server:
        for seed in range(5):
            created = post(f"{server.url}/api/games", json={"preset": "expert", "seed": seed})
            body = created.json()
            _move(server.url, body, "reveal", 8, 15)
            _move(server.url, body, "flag", 0, seed)
            last = _move(server.url, body, "flag", 15, 29)
            games.append((body, last["view"]))
        server.process.kill()
        server.process.wait()
    with server_process(database) as server:
        for game, view in games:
            after = get(f"{server.url}/api/games/{game['id']}").json()["view"]
            assert after["cells"] == view["cells"]
            assert after["mines_left"] == view["mines_left"]
            assert after["elapsed"] >= view["elapsed"]
            _move(server.url, game, "flag", 15, 29)  # the old token works on the new process
