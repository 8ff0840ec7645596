"""The endpoints the browser client needs: presets and limits, replay frames, a game's summary."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mines.presets import PRESETS
from mines.record import GameRecord
from mines.replay import replay, replay_steps
from mines.server import finished
from tests.server.conftest import Server


def play_to_the_end(server: Server, seed: int, rows: int = 6, cols: int = 7) -> dict[str, Any]:
    """A game of random flags, reveals and chords, played until it is won or lost."""
    game = server.create(rows=rows, cols=cols, mines=8, seed=seed, first_click="safe")
    pick = random.Random(seed)
    for _ in range(500):
        kind = pick.choice(["reveal", "reveal", "flag", "chord"])
        answer = server.move(game, kind, pick.randrange(rows), pick.randrange(cols))
        if answer.status_code == 200 and answer.json()["view"]["status"] != "IN_PROGRESS":
            return game
    raise AssertionError("the game did not end")


def apply(replay_answer: dict[str, Any], upto: int) -> list[str]:
    cells = [list(line) for line in replay_answer["initial"]]
    top, left = replay_answer["top"], replay_answer["left"]
    for frame in replay_answer["frames"][:upto]:
        for row, col, symbol in frame["changed"]:
            cells[row - top][col - left] = symbol
    return ["".join(line) for line in cells]


def test_meta_gives_the_presets_and_the_servers_limits(server: Server) -> None:
    meta = server.client.get("/api/meta").json()
    assert [(p["name"], p["rows"], p["cols"], p["mines"]) for p in meta["presets"]] == [
        tuple(p) for p in PRESETS.values()
    ]
    assert meta["limits"]["max_cells"] == server.settings.max_cells
    assert meta["first_click"][0] == "opening"
    assert meta["player_pattern"]


@pytest.mark.parametrize("seed", range(8))
def test_replay_frames_end_exactly_on_the_servers_final_view(server: Server, seed: int) -> None:
    game = play_to_the_end(server, seed)
    final = server.client.get(f"/api/games/{game['id']}").json()["view"]
    answer = server.client.get(f"/api/games/{game['id']}/replay").json()
    record = server.client.get(f"/api/games/{game['id']}/record").json()
    assert [frame["move"] for frame in answer["frames"]] == [m[0] for m in record["moves"]]
    assert answer["initial"] == ["H" * 7] * 6
    assert apply(answer, len(answer["frames"])) == final["cells"]
    assert answer["final"]["cells"] == final["cells"]
    assert answer["frames"][-1]["status"] == final["status"]
    assert answer["frames"][-1]["mines_left"] == final["mines_left"]
    # After every step the frames so far show what the core's replay shows after that move.
    # and each frame holds exactly the cells that move changed, so stepping back works too.
    before = answer["initial"]
    for step, (game_then, _) in enumerate(replay_steps(GameRecord.from_dict(record)), 1):
        after = game_then.view().to_strings()
        assert apply(answer, step) == after
        differ = {(r, c) for r in range(6) for c in range(7) if before[r][c] != after[r][c]}
        assert {(r, c) for r, c, _ in answer["frames"][step - 1]["changed"]} == differ
        before = after
        assert answer["frames"][step - 1]["status"] == game_then.status.value


def test_replay_in_a_window_has_only_that_windows_cells(server: Server) -> None:
    game = play_to_the_end(server, 3)
    whole = server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"]
    answer = server.client.get(f"/api/games/{game['id']}/replay?top=1&left=2&height=3&width=4")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert apply(data, len(data["frames"])) == [line[2:6] for line in whole[1:4]]
    for frame in data["frames"]:
        assert all(1 <= r < 4 and 2 <= c < 6 for r, c, _ in frame["changed"])


def test_replay_and_summary_wait_for_the_end_of_the_game(server: Server) -> None:
    game = server.create(preset="beginner", seed=1)
    server.move(game, "reveal", 0, 0)
    for path in ("replay", "summary"):
        answer = server.client.get(f"/api/games/{game['id']}/{path}")
        assert answer.status_code == 409, answer.text
    assert server.client.get("/api/games/0123456789abcdef/replay").status_code == 404


def test_a_replay_too_big_to_compute_is_refused(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_to_the_end(server, 5)
    monkeypatch.setattr(finished, "REPLAY_WORK_LIMIT", 10)
    answer = server.client.get(f"/api/games/{game['id']}/replay")
    assert answer.status_code == 422
    assert "smaller window" in answer.json()["detail"]


def test_summary_gives_the_result_and_3bv(server: Server) -> None:
    game = play_to_the_end(server, 2)
    summary = server.client.get(f"/api/games/{game['id']}/summary").json()
    record = server.client.get(f"/api/games/{game['id']}/record").json()
    rebuilt = replay(GameRecord.from_dict(record))
    assert summary["three_bv"] == rebuilt.three_bv
    assert summary["status"] == record["status"]
    assert summary["preset"] is None
    assert summary["no_guess"] is False
    assert (summary["rows"], summary["cols"], summary["mines"]) == (6, 7, 8)
