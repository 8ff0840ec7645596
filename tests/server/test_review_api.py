"""`GET /api/games/{id}/review`: refused before any work while the game is on or when it is too
big, the solver's own review once it is over, worked out once in a worker and kept, one
computation for every request that asks meanwhile, and a dead worker's 503."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mines.record import GameRecord
from mines.server.api.deps import review_service
from mines.server.db.storage import StoredReview
from mines.server.services.reviews import REVIEW_FORMAT, Job, ReviewService
from mines.solver import review
from mines.solver.game_review import WORK_LIMIT
from tests.patience import PATIENCE
from tests.server import review_jobs
from tests.server.conftest import FakeClock, Server, layout, safe_cells


def use_job(server: Server, job: Job, **options: Any) -> ReviewService:
    """The app's review service, with `job` run in its workers instead of the real one: every
    route that takes `deps.Reviews` gets it (FastAPI's `dependency_overrides`)."""
    reviews = ReviewService(server.service, job=job, **options)

    async def swapped() -> ReviewService:
        return reviews

    server.app.dependency_overrides[review_service] = swapped
    return reviews


def won_game(server: Server, clock: FakeClock) -> dict[str, Any]:
    mines = layout(5, 9, 9, 10, (0, 0))
    game = server.create(preset="beginner", seed=5)
    server.move(game, "flag", *sorted(mines)[-1])
    for row, col in safe_cells(9, 9, mines):
        clock.now += 0.5
        if server.move(game, "reveal", row, col).json()["view"]["status"] == "WON":
            return game
    raise AssertionError("the game was not won")


def lost_game(server: Server) -> dict[str, Any]:
    mines = layout(3, 9, 9, 10, (0, 0), rule="any")
    game = server.create(preset="beginner", seed=3, first_click="any")
    safe = sorted(set(safe_cells(9, 9, mines)))
    server.move(game, "reveal", *safe[0])
    assert server.move(game, "reveal", *sorted(mines)[0]).json()["view"]["status"] == "LOST"
    return game


def get_review(server: Server, game: dict[str, Any]) -> Any:
    return server.client.get(f"/api/games/{game['id']}/review")


def solvers_review(server: Server, game: dict[str, Any]) -> Any:
    record = server.client.get(f"/api/games/{game['id']}/record").json()
    wasted = server.client.get(f"/api/games/{game['id']}/summary").json()["wasted_clicks"]
    return json.loads(review(GameRecord.from_dict(record), unrecorded=wasted).to_json())


FIGURES = ("three_bv", "clicks", "useful_clicks", "wasted_clicks", "three_bv_per_second")


def test_a_games_summary_and_review_give_the_same_figures_in_one_unit(
    server: Server, clock: FakeClock
) -> None:
    game = won_game(server, clock)
    summary = server.client.get(f"/api/games/{game['id']}/summary").json()
    body = get_review(server, game).json()
    assert summary["wasted_clicks"] > 0  # the stored moves alone were the review's clicks
    assert {key: body[key] for key in FIGURES} == {key: summary[key] for key in FIGURES}
    # One unit: percent (the review said 0.72 where the summary said 72.0).
    assert body["efficiency"] == summary["efficiency"] > 1
    assert summary["efficiency"] == round(100 * summary["three_bv"] / summary["clicks"], 1)


def test_a_won_games_review_is_the_solvers_review(server: Server, clock: FakeClock) -> None:
    game = won_game(server, clock)
    answer = get_review(server, game)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert body == solvers_review(server, game)
    assert body["status"] == "WON"
    assert body["moves"][0]["kind"] == "flag"


def test_a_lost_games_review_ends_on_the_move_that_lost(server: Server) -> None:
    game = lost_game(server)
    body = get_review(server, game).json()
    assert body == solvers_review(server, game)
    assert body["moves"][-1]["verdict"] == "lost"


def test_a_game_in_progress_is_refused_before_any_work(server: Server, tmp_path: Path) -> None:
    use_job(server, review_jobs.counted)
    game = server.create(preset="beginner", seed=5)
    server.move(game, "reveal", 0, 0)
    answer = get_review(server, game)
    assert answer.status_code == 409
    assert answer.json()["code"] == "game_in_progress"
    assert set(answer.json()) == {"code", "detail"}  # nothing of the board, let alone a mine
    assert review_jobs.starts(server.settings) == []  # no worker was started to say so


def test_an_unknown_game_is_404(server: Server) -> None:
    answer = server.client.get("/api/games/0123456789abcdef/review")
    assert answer.status_code == 404
    assert answer.json()["code"] == "game_not_found"


def test_a_game_past_the_limit_is_refused_before_any_work(server: Server) -> None:
    use_job(server, review_jobs.counted)
    # 7 moves on a million cells: 7,000,000 cell-moves, past the exact review's limit.
    side, seed = 1000, 4
    assert side * side * 7 > WORK_LIMIT
    game = server.create(rows=side, cols=side, mines=10, seed=seed, first_click="any")
    for col in range(6):
        assert server.move(game, "flag", side - 1, col).status_code == 200
    mine = sorted(layout(seed, side, side, 10, (0, 0), rule="any"))[0]
    assert server.move(game, "reveal", *mine).json()["view"]["status"] == "LOST"
    answer = get_review(server, game)
    assert answer.status_code == 422
    assert answer.json()["code"] == "review_too_large"
    assert "7,000,000 cell-moves" in answer.json()["detail"]
    assert review_jobs.starts(server.settings) == []


def test_the_review_is_worked_out_once_then_read_from_storage(
    server: Server, clock: FakeClock
) -> None:
    use_job(server, review_jobs.counted)
    game = won_game(server, clock)
    first = get_review(server, game)
    second = get_review(server, game)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert review_jobs.starts(server.settings) == [game["id"]]
    assert server.service.storage.load_review(game["id"], REVIEW_FORMAT) == StoredReview(
        first.content.decode()
    )


def test_a_review_kept_in_another_format_is_worked_out_again(
    server: Server, clock: FakeClock
) -> None:
    use_job(server, review_jobs.counted)
    game = won_game(server, clock)
    storage = server.service.storage
    storage.store_review(game["id"], REVIEW_FORMAT - 1, '{"old": true}')
    assert get_review(server, game).json() == solvers_review(server, game)
    assert review_jobs.starts(server.settings) == [game["id"]]
    assert storage.load_review(game["id"], REVIEW_FORMAT - 1) is None  # replaced
    assert storage.load_review(game["id"], REVIEW_FORMAT) is not None


def test_requests_for_one_game_meanwhile_share_one_computation(
    server: Server, clock: FakeClock
) -> None:
    reviews = use_job(server, review_jobs.gated)
    game = won_game(server, clock)
    answers: list[Any] = []
    joined: list[str] = []
    flight = reviews._flight

    def counted_flight(game_id: str) -> Any:
        joined.append(game_id)
        return flight(game_id)

    reviews._flight = counted_flight  # type: ignore[method-assign]

    def ask() -> None:
        answers.append(get_review(server, game))

    first = threading.Thread(target=ask)
    first.start()
    wait_for(lambda: review_jobs.starts(server.settings) == [game["id"]])
    second = threading.Thread(target=ask)
    second.start()
    wait_for(lambda: joined == [game["id"]] * 2)
    (review_jobs.folder(server.settings) / review_jobs.GO).touch()
    first.join(PATIENCE)
    second.join(PATIENCE)
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert review_jobs.starts(server.settings) == [game["id"]]  # one worker for both


def test_a_worker_that_dies_is_503_with_retry_after_and_the_next_try_works(
    server: Server, clock: FakeClock
) -> None:
    use_job(server, review_jobs.killed)
    game = won_game(server, clock)
    answer = get_review(server, game)
    assert answer.status_code == 503
    assert answer.json()["code"] == "worker_died"
    assert int(answer.headers["Retry-After"]) > 0
    assert server.service.storage.load_review(game["id"], REVIEW_FORMAT) is None
    use_job(server, review_jobs.counted)
    assert get_review(server, game).status_code == 200


def test_a_review_past_the_workers_time_is_422(server: Server, clock: FakeClock) -> None:
    # The gated job never goes on (the test makes no GO file): only the budget ends it.
    use_job(server, review_jobs.gated, budget=0.05)
    game = won_game(server, clock)
    answer = get_review(server, game)
    assert answer.status_code == 422
    assert answer.json()["code"] == "review_too_large"
    assert "(0.05 s)" in answer.json()["detail"]
    # A machine too busy this time may not be next time: nothing is kept.
    assert server.service.storage.load_review(game["id"], REVIEW_FORMAT) is None


def test_the_solvers_refusal_is_kept_and_answered_again_without_a_worker(
    server: Server, clock: FakeClock
) -> None:
    use_job(server, review_jobs.tangled)
    game = won_game(server, clock)
    first = get_review(server, game)
    second = get_review(server, game)
    assert first.status_code == second.status_code == 422
    assert first.json() == second.json()
    assert first.json()["code"] == "review_too_large"
    assert "too tangled" in first.json()["detail"]
    assert review_jobs.starts(server.settings) == [game["id"]]  # once, not twice


def test_a_review_past_the_workers_memory_is_422(server: Server, clock: FakeClock) -> None:
    use_job(server, review_jobs.greedy)
    game = won_game(server, clock)
    answer = get_review(server, game)
    assert answer.status_code == 422
    assert answer.json()["code"] == "review_too_large"
    assert "(1,024 MiB)" in answer.json()["detail"]


def test_when_every_review_worker_is_busy_another_review_is_503(
    server: Server, clock: FakeClock
) -> None:
    reviews = use_job(server, review_jobs.counted, workers=1)
    reviews._workers._slots.acquire()  # another review is being worked out
    try:
        game = won_game(server, clock)  # its end starts nothing: no worker is free
        answer = get_review(server, game)
    finally:
        reviews._workers._slots.release()
    assert answer.status_code == 503
    assert answer.json()["code"] == "server_full"
    assert "Retry-After" in answer.headers
    assert review_jobs.starts(server.settings) == []
    assert get_review(server, game).status_code == 200


def test_reviews_are_kept_in_postgresql_too(pg_url: str) -> None:
    from mines.server.db.database import open_storage
    from mines.server.db.storage import GameRow

    storage = open_storage(pg_url)
    try:
        row = GameRow("g1", "h", 9, 9, 10, "opening", 1, "p", None, 0.0, None, "WON", 1)
        storage.create(row)
        assert storage.load_review("g1", REVIEW_FORMAT) is None
        storage.store_review("g1", REVIEW_FORMAT - 1, "{}")
        storage.store_review("g1", REVIEW_FORMAT, "too tangled", refused=True)
        assert storage.load_review("g1", REVIEW_FORMAT) == StoredReview("too tangled", True)
        storage.store_review("g1", REVIEW_FORMAT, '{"moves": []}')
        assert storage.load_review("g1", REVIEW_FORMAT) == StoredReview('{"moves": []}')
        assert storage.load_review("g1", REVIEW_FORMAT - 1) is None
    finally:
        storage.close()


def wait_for(condition: Any) -> None:
    import time

    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("waited too long")
        time.sleep(0.01)


def test_the_review_is_worked_out_as_soon_as_the_game_ends(
    server: Server, clock: FakeClock
) -> None:
    use_job(server, review_jobs.counted)
    game = won_game(server, clock)  # no request for its review
    deadline = time.monotonic() + PATIENCE
    while server.service.storage.load_review(game["id"], REVIEW_FORMAT) is None:
        assert time.monotonic() < deadline, "the review was not worked out in the background"
        time.sleep(0.05)
    assert get_review(server, game).status_code == 200
    assert review_jobs.starts(server.settings) == [game["id"]]  # once: the request read it


def test_a_review_goes_compressed_to_a_client_that_accepts_it(
    server: Server, clock: FakeClock
) -> None:
    game = won_game(server, clock)
    packed = server.client.get(
        f"/api/games/{game['id']}/review", headers={"Accept-Encoding": "gzip"}
    )
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(packed.content) / 2
    plain = server.client.get(
        f"/api/games/{game['id']}/review", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers
    assert plain.json() == packed.json()
    small = server.client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers  # below the minimum: as it is
