"""The HTTP API: every endpoint, its answers and its errors, on a SQLite file."""

from __future__ import annotations

import logging
import re

import pytest

from mines.server.common.auth import bearer_token
from mines.server.common.settings import Settings
from mines.server.web.handlers import STORAGE_UNAVAILABLE
from tests.server.conftest import FakeClock, Server, layout, safe_cells


def test_create_from_preset_gives_id_token_and_hidden_view(server: Server) -> None:
    game = server.create(preset="expert")
    assert set(game) == {"id", "token", "view", "board", "ranks"}
    assert game["board"] == {
        "rows": 16,
        "cols": 30,
        "mines": 99,
        "preset": "expert",
        "no_guess": False,
    }
    assert game["ranks"] is False  # nobody is signed in
    view = game["view"]
    assert view["version"] == 0
    assert (view["rows"], view["cols"], view["mines_left"]) == (16, 30, 99)
    assert view["status"] == "IN_PROGRESS"
    assert view["elapsed"] == 0
    assert view["cells"] == ["H" * 30] * 16


def test_a_game_created_signed_in_ranks(server: Server) -> None:
    server.sign_up("Ann")
    game = server.create(preset="expert")
    assert game["ranks"] is True  # a preset, a seed the server drew, the classic rule, signed in


def test_create_custom_board(server: Server) -> None:
    view = server.create(rows=5, cols=7, mines=3)["view"]
    assert (view["rows"], view["cols"], view["mines_left"]) == (5, 7, 3)
    assert [len(line) for line in view["cells"]] == [7] * 5


def test_get_returns_the_same_view(server: Server) -> None:
    game = server.create()
    server.move(game, "flag", 2, 3)
    answer = server.client.get(f"/api/games/{game['id']}")
    assert answer.status_code == 200
    assert answer.json()["id"] == game["id"]
    assert answer.json()["view"]["cells"][2][3] == "F"


def test_reveal_reports_changed_cells_with_symbols(server: Server) -> None:
    game = server.create(preset="beginner", seed=7)
    answer = server.move(game, "reveal", 4, 4)
    assert answer.status_code == 200
    body = answer.json()
    cells = body["view"]["cells"]
    assert body["changed_complete"] is True
    assert [4, 4, cells[4][4]] in body["changed"]
    assert len(body["changed"]) > 1  # the first click opens an area
    for row, col, symbol in body["changed"]:
        assert cells[row][col] == symbol
    opened = {(r, c) for r, line in enumerate(cells) for c, s in enumerate(line) if s != "H"}
    assert opened == {(r, c) for r, c, _ in body["changed"]}


def test_flag_toggles_and_counts(server: Server) -> None:
    game = server.create()
    first = server.move(game, "flag", 0, 0).json()
    assert first["changed"] == [[0, 0, "F"]]
    assert first["view"]["mines_left"] == 9
    second = server.move(game, "flag", 0, 0).json()
    assert second["changed"] == [[0, 0, "H"]]
    assert second["view"]["mines_left"] == 10


def test_a_won_games_counter_agrees_with_the_flags_it_shows(server: Server) -> None:
    seed = server.next_seed
    game = server.create(preset="beginner")
    mines = layout(seed, 9, 9, 10, (0, 0))
    server.move(game, "reveal", 0, 0)
    safe = safe_cells(9, 9, mines)
    server.move(game, "flag", *sorted(mines)[0])
    for r, c in safe:
        server.move(game, "reveal", r, c)
    view = server.client.get(f"/api/games/{game['id']}").json()["view"]
    assert view["status"] == "WON"
    assert all(view["cells"][r][c] == "F" for r, c in mines)
    assert view["mines_left"] == 0  # was 9: mines minus the one flag placed; the page patched it


def test_a_flag_with_its_state_is_safe_to_send_twice(server: Server) -> None:
    game = server.create()
    url = f"/api/games/{game['id']}/flag"
    headers = {"Authorization": f"Bearer {game['token']}"}
    answers = [
        server.client.post(url, json={"row": 0, "col": 0, "flagged": flagged}, headers=headers)
        for flagged in (True, True, False, False)
    ]
    assert [a.status_code for a in answers] == [200] * 4
    assert [a.json()["changed"] for a in answers] == [[[0, 0, "F"]], [], [[0, 0, "H"]], []]
    assert [a.json()["view"]["mines_left"] for a in answers] == [9, 9, 10, 10]
    stored = server.service.storage.moves_after(game["id"], 0)
    assert [m.move for m in stored] == ["F0,0", "F0,0"]  # the repeats stored nothing
    row = server.service.storage.load(game["id"])
    assert row is not None
    assert row.wasted == 0  # a retry is not a wasted click
    bad = server.client.post(url, json={"row": 0, "col": 0, "flagged": "yes"}, headers=headers)
    assert bad.status_code == 422
    assert "flagged" in bad.json()["detail"]


def test_chord_opens_the_neighbours_of_a_satisfied_number(server: Server) -> None:
    rows, cols, mines = 9, 9, 10
    mine_set = layout(11, rows, cols, mines, (4, 4))
    game = server.create(preset="beginner", seed=11)
    cells = server.move(game, "reveal", 4, 4).json()["view"]["cells"]
    # A revealed number with hidden mine neighbours: flag them all, then chord.
    for r in range(rows):
        for c in range(cols):
            if cells[r][c] not in "12345678":
                continue
            around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
            around = [(y, x) for y, x in around if 0 <= y < rows and 0 <= x < cols]
            hidden = [(y, x) for y, x in around if cells[y][x] == "H"]
            hidden_safe = [cell for cell in hidden if cell not in mine_set]
            if hidden_safe:
                for y, x in around:
                    if (y, x) in mine_set:
                        server.move(game, "flag", y, x)
                answer = server.move(game, "chord", r, c).json()
                changed = {(y, x) for y, x, _ in answer["changed"]}
                assert set(hidden_safe) <= changed
                return
    pytest.fail("no number with hidden safe neighbours on this board")


def test_win_freezes_the_timer_and_publishes_the_record(server: Server, clock: FakeClock) -> None:
    mine_set = layout(5, 9, 9, 10, (0, 0))
    game = server.create(preset="beginner", seed=5)
    server.move(game, "reveal", 0, 0)
    clock.now += 12.5
    record_before = server.client.get(f"/api/games/{game['id']}/record")
    assert record_before.status_code == 409
    assert "in progress" in record_before.json()["detail"]
    last = None
    for r, c in safe_cells(9, 9, mine_set):
        last = server.move(game, "reveal", r, c).json()
        if last["view"]["status"] == "WON":
            break
    assert last is not None
    assert last["view"]["status"] == "WON"
    assert last["view"]["elapsed"] == 12.5
    clock.now += 100
    assert server.client.get(f"/api/games/{game['id']}").json()["view"]["elapsed"] == 12.5
    record = server.client.get(f"/api/games/{game['id']}/record").json()
    assert record["status"] == "WON"
    assert {tuple(p) for p in record["layout"]} == mine_set
    assert record["moves"][0] == ["O0,0", 0.0]
    assert record["elapsed"] == 12.5
    assert (record["id"], record["created_at"]) == (game["id"], 1_700_000_000.0)


def test_loss_shows_the_mines_and_ends_the_game(server: Server) -> None:
    mine_set = layout(3, 9, 9, 10, (0, 0), rule="any")
    game = server.create(preset="beginner", seed=3, first_click="any")
    row, col = sorted(mine_set)[0]
    view = server.move(game, "reveal", row, col).json()["view"]
    assert view["status"] == "LOST"
    assert view["cells"][row][col] == "X"
    lines = view["cells"]
    shown = {(r, c) for r, line in enumerate(lines) for c, s in enumerate(line) if s in "MX"}
    assert shown == mine_set
    again = server.move(game, "reveal", 0, 0)
    assert again.status_code == 409
    assert "over" in again.json()["detail"]


def test_moves_need_the_games_token(server: Server) -> None:
    game = server.create()
    other = server.create()
    url = f"/api/games/{game['id']}/reveal"
    missing = server.client.post(url, json={"row": 0, "col": 0})
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = server.client.post(
        url, json={"row": 0, "col": 0}, headers={"Authorization": f"Bearer {other['token']}"}
    )
    assert wrong.status_code == 403
    basic = server.client.post(url, json={"row": 0, "col": 0}, headers={"Authorization": "Basic x"})
    assert basic.status_code == 401
    cells = server.client.get(f"/api/games/{game['id']}").json()["view"]["cells"]
    assert cells == ["H" * 9] * 9  # nothing changed


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rows": 0, "cols": 5, "mines": 1}, "rows"),
        ({"rows": 3, "cols": 3, "mines": 9}, "mines must be"),
        ({"rows": 3000, "cols": 3000, "mines": 1}, "at most 1,000,000"),
        ({"preset": "expert", "rows": 3, "cols": 3, "mines": 1}, "not both"),
        ({"rows": 3, "cols": 3}, "all three"),
        ({"preset": "huge"}, "preset"),
        ({"preset": "beginner", "seed": -1}, "seed"),
        ({"preset": "beginner", "first_click": "corner"}, "first_click"),
        ({"preset": "beginner", "player": "<script>"}, "player"),
        ({"preset": "beginner", "colour": "red"}, "colour"),
        ({"rows": "9", "cols": 9, "mines": 1}, "rows"),
    ],
)
def test_bad_new_games_are_422_with_a_reason(
    server: Server, body: dict[str, object], words: str
) -> None:
    answer = server.client.post("/api/games", json=body)
    assert answer.status_code == 422
    assert words in answer.json()["detail"]


def test_malformed_json_is_422(server: Server) -> None:
    answer = server.client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"]


def test_move_errors(server: Server) -> None:
    game = server.create()
    outside = server.move(game, "reveal", 9, 0)
    assert (outside.status_code, outside.json()["code"]) == (422, "invalid_request")
    assert (
        outside.json()["detail"] == "cannot reveal (9, 0): outside the board (rows 0..8, cols 0..8)"
    )
    for verb in ("flag", "chord"):  # the core's refusal, worded for the move
        assert server.move(game, verb, 0, 9).json()["detail"].startswith(f"cannot {verb} (0, 9)")
    server.move(game, "flag", 1, 1)
    flagged = server.move(game, "reveal", 1, 1)
    assert flagged.status_code == 409
    assert "flagged" in flagged.json()["detail"]
    bad_body = server.client.post(
        f"/api/games/{game['id']}/reveal",
        json={"row": -1},
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    assert bad_body.status_code == 422


def test_unknown_game_is_404(server: Server) -> None:
    assert server.client.get("/api/games/nope").status_code == 404
    assert server.client.get("/api/games/nope/record").status_code == 404
    answer = server.client.post(
        "/api/games/nope/flag", json={"row": 0, "col": 0}, headers={"Authorization": "Bearer x"}
    )
    assert answer.status_code == 404
    assert "nope" in answer.json()["detail"]


def test_window_reads_part_of_the_board(server: Server) -> None:
    game = server.create(rows=50, cols=40, mines=100, seed=2)
    server.move(game, "flag", 10, 12)
    answer = server.client.get(f"/api/games/{game['id']}?top=9&left=11&height=3&width=4")
    view = answer.json()["view"]
    assert (view["top"], view["left"]) == (9, 11)
    assert view["cells"] == ["HHHH", "HFHH", "HHHH"]
    outside = server.client.get(f"/api/games/{game['id']}?top=48&height=5")
    assert outside.status_code == 422
    assert "does not fit" in outside.json()["detail"]


def test_big_boards_need_a_window(sqlite_url: str, clock: FakeClock) -> None:
    small = Server(sqlite_url, clock, view_limit=100, move_window=6, changed_limit=5)
    try:
        game = small.create(rows=30, cols=30, mines=10, seed=4)
        assert len(game["view"]["cells"]) == 6  # created: a window at the top left
        whole = small.client.get(f"/api/games/{game['id']}")
        assert whole.status_code == 422
        assert "ask for a window" in whole.json()["detail"]
        answer = small.move(game, "reveal", 15, 15).json()
        view = answer["view"]
        assert (view["top"], view["left"], len(view["cells"]), len(view["cells"][0])) == (
            12,
            12,
            6,
            6,
        )
        # A flood bigger than the limit: the list is cut and says so; the view is complete.
        assert answer["changed_complete"] is False
        assert len(answer["changed"]) == 5
        for row, col, symbol in answer["changed"]:
            assert view["cells"][row - 12][col - 12] == symbol
    finally:
        small.close()


def test_leaderboard_ranks_won_games_by_time(server: Server, clock: FakeClock) -> None:
    # Server-drawn seeds rank; the fixture's seeds come from a counter the test knows.
    times = {"ann": 30.0, "bob": 10.0, "cy": 20.0}
    for player, seconds in times.items():
        server.sign_up(player)
        seed = server.next_seed
        game = server.create(preset="beginner")
        mine_set = layout(seed, 9, 9, 10, (0, 0))
        server.move(game, "reveal", 0, 0)
        clock.now += seconds
        for r, c in safe_cells(9, 9, mine_set):
            if server.move(game, "reveal", r, c).json()["view"]["status"] == "WON":
                break
    seeded = server.create(preset="beginner", seed=5, player="cheater")
    for r, c in [(0, 0), *safe_cells(9, 9, layout(5, 9, 9, 10, (0, 0)))]:
        server.move(seeded, "reveal", r, c)
    board = server.client.get("/api/leaderboard?preset=beginner").json()
    assert [e["player"] for e in board["entries"]] == ["bob", "cy", "ann"]
    assert [e["time"] for e in board["entries"]] == [10.0, 20.0, 30.0]
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3]
    no_guess = server.client.get("/api/leaderboard?preset=beginner&no_guess=true").json()
    assert no_guess["entries"] == []
    assert server.client.get("/api/leaderboard?preset=huge").status_code == 422


def test_no_guess_games(server: Server) -> None:
    game = server.create(preset="beginner", no_guess=True, seed=9)
    answer = server.move(game, "reveal", 4, 4)
    assert answer.status_code == 200
    assert answer.json()["view"]["status"] != "LOST"
    clash = server.client.post(
        "/api/games", json={"preset": "beginner", "no_guess": True, "first_click": "any"}
    )
    assert clash.status_code == 422


def test_the_browser_client_is_served(server: Server) -> None:
    page = server.client.get("/")
    assert page.status_code == 200
    script = re.search(r'"(/static/[0-9a-f]{12}/js/main\.js)"', page.text)
    assert script, page.text[:300]  # a versioned address (test_static.py checks its caching)
    assert server.client.get(script[1]).status_code == 200
    assert server.client.get("/static/js/main.js").status_code == 200
    assert server.client.get("/openapi.json").json()["paths"]["/api/games"]


def test_websocket_pushes_each_move(server: Server) -> None:
    game = server.create()
    with server.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        first = socket.receive_json()
        assert first["type"] == "view"
        assert first["view"]["cells"] == ["H" * 9] * 9
        server.move(game, "flag", 3, 4)
        pushed = socket.receive_json()
        assert pushed["type"] == "move"
        assert pushed["move"] == "F3,4"
        assert pushed["changed"] == [[3, 4, "F"]]
        assert pushed["mines_left"] == 9


def test_websocket_for_an_unknown_game_closes(server: Server) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        server.client.websocket_connect("/api/games/nope/live") as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 4404


def test_settings_defaults_allow_1000_by_1000() -> None:
    settings = Settings(database="sqlite:///x")
    assert settings.max_cells >= 1000 * 1000


def test_a_huge_board_is_played_through_windows(sqlite_url: str, clock: FakeClock) -> None:
    huge = Server(sqlite_url, clock, max_cells=10**12)
    try:
        game = huge.create(rows=1_000_000, cols=1_000_000, mines=1000, seed=1)
        assert len(game["view"]["cells"]) == 100  # the default window at the top left
        assert huge.client.get(f"/api/games/{game['id']}").status_code == 422
        url = f"/api/games/{game['id']}/reveal?top=500000&left=500000&height=20&width=40"
        answer = huge.client.post(
            url,
            json={"row": 500_005, "col": 500_005},
            headers={"Authorization": f"Bearer {game['token']}"},
        ).json()
        view = answer["view"]
        assert (view["top"], view["left"], len(view["cells"]), len(view["cells"][0])) == (
            500_000,
            500_000,
            20,
            40,
        )
        # The flood opens far more than the window; `changed` lists only the window's cells.
        assert len(answer["changed"]) <= 20 * 40
        assert all(
            500_000 <= r < 500_020 and 500_000 <= c < 500_040 for r, c, _ in answer["changed"]
        )
        assert [500_005, 500_005, view["cells"][5][5]] in answer["changed"]
    finally:
        huge.close()


def test_bad_windows_are_422(server: Server) -> None:
    game = server.create()
    for query in ("top=abc", "height=0", "left=-1", "width=99999999999"):
        answer = server.client.get(f"/api/games/{game['id']}?{query}")
        assert answer.status_code == 422, query
        assert "query." in answer.json()["detail"]


def test_a_failing_database_is_503_in_the_servers_words_and_the_log_has_why(
    sqlite_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    broken = Server(sqlite_url, clock)
    game = broken.create()
    broken.close()
    with caplog.at_level(logging.WARNING, logger="mines.server.web.handlers"):
        answer = broken.move(game, "flag", 0, 0)
    assert answer.status_code == 503
    # No driver text ("Cannot operate on a closed database."), host or port.
    assert answer.json()["detail"] == f"the database is unavailable; {STORAGE_UNAVAILABLE}"
    assert answer.headers["retry-after"] == "5"
    assert any("SQLite database failed" in record.message for record in caplog.records)
    assert broken.client.get(f"/api/games/{game['id']}").status_code == 503


def test_a_move_that_changes_nothing_is_answered_but_not_stored(server: Server) -> None:
    game = server.create(preset="beginner", seed=4242)
    first = server.move(game, "reveal", 4, 4).json()
    assert first["view"]["version"] == 1
    hidden = next(
        (r, c)
        for r, line in enumerate(first["view"]["cells"])
        for c, s in enumerate(line)
        if s == "H"
    )
    for kind, cell in (("reveal", (4, 4)), ("chord", (4, 4)), ("chord", hidden)):
        same = server.move(game, kind, *cell)
        assert same.status_code == 200, (kind, cell)
        assert same.json()["changed"] == []
        assert same.json()["view"]["version"] == 1, (kind, cell)
    assert len(server.service.storage.moves_after(game["id"], 0)) == 1
    assert server.client.get(f"/api/games/{game['id']}").json()["view"]["version"] == 1


def test_a_watcher_gets_each_move_whole(sqlite_url: str, clock: FakeClock) -> None:
    for limit in (10_000, 3):
        server = Server(sqlite_url, clock, changed_limit=limit)
        game = server.create(preset="beginner", seed=4242)
        with server.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
            socket.receive_json()  # the view
            # A corner: a box with its sides mixed up would miss it. The answer comes first, so
            # a broken push fails here rather than leave the socket waiting.
            assert server.move(game, "flag", 8, 0).status_code == 200
            assert socket.receive_json() == {
                "type": "move",
                "move": "F8,0",
                "version": 1,
                "status": "IN_PROGRESS",
                "mines_left": 9,
                "elapsed": 0.0,
                "changed": [[8, 0, "F"]],
                "changed_complete": True,
            }
            first = server.move(game, "reveal", 4, 4).json()["view"]["cells"]
            clock.now += 2.5004  # elapsed times are told to the millisecond: 2.5
            mines = layout(4242, 9, 9, 10, (4, 4))
            zero = next(  # a hidden cell with no mine around it: its reveal floods
                (r, c)
                for r in range(9)
                for c in range(9)
                if first[r][c] == "H"
                and not any((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            )
            answered = server.move(game, "reveal", *zero)
            assert answered.status_code == 200, answered.text
            answer = answered.json()
            socket.receive_json()
            pushed = socket.receive_json()
        move = f"O{zero[0]},{zero[1]}"
        assert (pushed["move"], pushed["version"], pushed["elapsed"]) == (move, 3, 2.5)
        assert (pushed["status"], pushed["mines_left"]) == ("IN_PROGRESS", 9)
        cells = {tuple(cell) for cell in pushed["changed"]}
        if limit == 3:  # a flood past the limit: the first cells, and a word that there are more
            assert (len(cells), pushed["changed_complete"]) == (3, False)
        else:
            assert pushed["changed_complete"] is True
        assert cells <= {tuple(cell) for cell in answer["changed"]}
        assert len(cells) == min(limit, len(answer["changed"]))
        server.close()


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER"])
def test_one_reading_of_the_bearer_token_for_routes_limiter_and_sockets(
    server: Server, scheme: str
) -> None:
    game = server.create()
    header = {"Authorization": f"{scheme} {game['token']}"}
    assert bearer_token(f"{scheme} {game['token']}") == game["token"]
    move = server.client.post(
        f"/api/games/{game['id']}/flag", json={"row": 0, "col": 0}, headers=header
    )
    assert move.status_code == 200  # through the rate limiter's check and the route's
    hint = server.client.get(f"/api/games/{game['id']}/analysis", headers=header)
    assert hint.status_code != 401
    with server.client.websocket_connect(f"/api/games/{game['id']}/live", headers=header) as ws:
        assert ws.receive_json()["type"]


@pytest.mark.parametrize("value", ["Basic abc", "Bearer", "Bearer ", "", "abc"])
def test_what_is_not_a_bearer_token(value: str) -> None:
    assert bearer_token(value) is None
    assert bearer_token(None) is None
