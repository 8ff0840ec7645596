"""The endpoints the browser client needs: presets and limits, replay frames, a game's summary."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from mines.presets import PRESETS
from mines.record import GameRecord
from mines.replay import replay, replay_steps
from mines.server.services import finished
from tests.server.conftest import Server, layout, safe_cells


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


def test_a_move_asked_with_cells_changed_carries_only_what_changed(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    headers = {"Authorization": f"Bearer {game['token']}"}
    path = f"/api/games/{game['id']}"
    answer = server.client.post(
        f"{path}/flag?cells=changed", json={"row": 8, "col": 8}, headers=headers
    ).json()
    assert "cells" not in answer["view"]
    assert answer["changed"] == [[8, 8, "F"]]
    assert answer["view"]["version"] == 1
    assert (answer["view"]["height"], answer["view"]["width"]) == (9, 9)
    whole = server.client.post(f"{path}/flag", json={"row": 8, "col": 8}, headers=headers).json()
    assert whole["view"]["cells"][8] == "H" * 9  # without the query, the whole window as before
    wrong = server.client.post(f"{path}/flag?cells=all", json={"row": 0, "col": 0}, headers=headers)
    assert wrong.status_code == 422
    assert wrong.json()["code"] == "invalid_request"


def test_views_and_frames_carry_the_version_and_a_window_s_frames_only_its_cells(
    server: Server,
) -> None:
    game = server.create(preset="beginner", seed=5)
    path = f"/api/games/{game['id']}"
    assert server.move(game, "flag", 0, 0).json()["view"]["version"] == 1
    assert server.move(game, "reveal", 0, 0).status_code == 409  # flagged: not stored
    assert server.client.get(path).json()["view"]["version"] == 1
    with server.client.websocket_connect(f"{path}/live?top=0&left=0&height=3&width=3") as socket:
        first = socket.receive_json()
        assert first["view"]["version"] == 1
        assert len(first["view"]["cells"]) == 3
        server.move(game, "flag", 8, 8)  # outside the window
        server.move(game, "flag", 1, 1)
        outside, inside = socket.receive_json(), socket.receive_json()
    assert (outside["version"], outside["changed"]) == (2, [])
    assert (inside["version"], inside["changed"]) == (3, [[1, 1, "F"]])
    assert inside["mines_left"] == 7


def test_a_window_s_frames_hold_the_cells_on_its_edges_and_none_past_them(
    server: Server,
) -> None:
    game = server.create(preset="beginner", seed=5)
    path = f"/api/games/{game['id']}"
    # Rows 2-4 and columns 3-4: two opposite corners inside, then one cell past each side.
    cells = [(2, 3), (4, 4), (1, 3), (5, 4), (3, 2), (3, 5)]
    with server.client.websocket_connect(f"{path}/live?top=2&left=3&height=3&width=2") as socket:
        socket.receive_json()
        for row, col in cells:
            assert server.move(game, "flag", row, col).status_code == 200
        frames = [socket.receive_json() for _ in cells]
    assert [frame["changed"] for frame in frames] == [[[2, 3, "F"]], [[4, 4, "F"]], [], [], [], []]


def test_games_say_their_board_and_whether_they_rank(server: Server) -> None:
    server.sign_up("Ann")
    ranked = server.create(preset="beginner")
    practice = server.create(preset="beginner", seed=3)
    assert ranked["ranks"] is True
    assert practice["ranks"] is False  # a chosen seed never ranks
    read = server.client.get(f"/api/games/{ranked['id']}").json()
    assert read["board"] == {
        "rows": 9,
        "cols": 9,
        "mines": 10,
        "preset": "beginner",
        "no_guess": False,
    }
    hint = server.client.post(
        f"/api/games/{ranked['id']}/hint", headers={"Authorization": f"Bearer {ranked['token']}"}
    ).json()
    assert hint["ranks"] is False
    assert server.client.get(f"/api/games/{ranked['id']}").json()["ranks"] is False


def test_the_hint_names_cells_as_people_count_them(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    server.move(game, "reveal", 0, 0)
    found = server.client.post(
        f"/api/games/{game['id']}/hint", headers={"Authorization": f"Bearer {game['token']}"}
    ).json()
    assert f"(row {found['row'] + 1}, column {found['col'] + 1})" in found["reason"]
    assert not re.search(r"\(\d+, \d+\)", found["reason"])


def test_the_summary_counts_useful_and_wasted_clicks(server: Server) -> None:
    game = server.create(preset="beginner", seed=5)
    mines = layout(5, 9, 9, 10, (0, 0))
    assert server.move(game, "reveal", 0, 0).json()["changed"]
    assert server.move(game, "reveal", 0, 0).json()["changed"] == []  # open: wasted
    assert server.move(game, "chord", 0, 0).json()["changed"] == []  # nothing to chord: wasted
    assert server.move(game, "flag", 0, 0).status_code == 409  # open: refused, wasted
    for row, col in safe_cells(9, 9, mines):
        if server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"][row][col] == "H":
            assert server.move(game, "reveal", row, col).json()["changed"]
    assert server.move(game, "reveal", 0, 0).status_code == 409  # over: not counted
    summary = server.client.get(f"/api/games/{game['id']}/summary").json()
    useful = server.client.get(f"/api/games/{game['id']}").json()["view"]["version"]
    assert summary["status"] == "WON"
    assert (summary["useful_clicks"], summary["wasted_clicks"]) == (useful, 3)
    assert summary["clicks"] == useful + 3
    assert summary["efficiency"] == round(100 * summary["three_bv"] / (useful + 3), 1)
    assert summary["three_bv_per_second"] is None or summary["elapsed"] > 0
    assert summary["assisted"] is False
    assert summary["ranked"] is False  # a chosen seed


def test_meta_publishes_the_name_rule(server: Server) -> None:
    meta = server.client.get("/api/meta").json()
    assert meta["player_marks"] == 2
    for name in ("Zoë", "José María", "李小龍", "राम"):
        assert server.create(preset="beginner", player=name)
    refused = server.client.post("/api/games", json={"preset": "beginner", "player": "W" * 25})
    assert refused.status_code == 422
