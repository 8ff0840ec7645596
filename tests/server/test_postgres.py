"""PostgreSQL: the same games on the machine's server, and two processes racing on one game."""

from __future__ import annotations

import json
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from mines.server.db.race_store import RaceStore
from tests.patience import PATIENCE
from tests.server.conftest import PG_URL, FakeClock, Server, layout, safe_cells
from tests.server.processes import get, patient_client, post, server_process
from tests.server.tcpproxy import proxy_to

pytestmark = pytest.mark.postgres


def test_a_game_is_played_won_and_ranked(pg_url: str) -> None:
    clock = FakeClock()
    server = Server(pg_url, clock)
    try:
        server.sign_up("pg")
        seed = server.next_seed
        game = server.create(preset="beginner")
        server.move(game, "reveal", 0, 0)
        clock.now += 4.25
        for r, c in safe_cells(9, 9, layout(seed, 9, 9, 10, (0, 0))):
            server.move(game, "reveal", r, c)
        assert server.client.get(f"/api/games/{game['id']}").json()["view"]["status"] == "WON"
        board = server.client.get("/api/leaderboard?preset=beginner").json()["entries"]
        assert [(e["player"], e["time"]) for e in board] == [("pg", 4.25)]
    finally:
        server.close()
    again = Server(pg_url, clock)  # a restart reads the same games back
    try:
        record = again.client.get(f"/api/games/{game['id']}/record").json()
        assert record["status"] == "WON"
        assert record["elapsed"] == 4.25
    finally:
        again.close()


def _post(
    client: httpx.Client, url: str, game: dict[str, Any], kind: str, cell: tuple[int, int]
) -> int:
    answer = client.post(
        f"{url}/api/games/{game['id']}/{kind}",
        json={"row": cell[0], "col": cell[1]},
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    return answer.status_code


def test_two_processes_racing_on_one_game_lose_and_double_nothing(pg_url: str) -> None:
    toggles = 41
    with server_process(pg_url) as one, server_process(pg_url) as two:
        game = post(
            f"{one.url}/api/games", json={"rows": 30, "cols": 30, "mines": 150, "seed": 3}
        ).json()
        assert _post(patient_client(), one.url, game, "reveal", (15, 15)) == 200
        lines = get(f"{two.url}/api/games/{game['id']}").json()["view"]["cells"]
        hidden = [(r, c) for r, line in enumerate(lines) for c, s in enumerate(line) if s == "H"]
        toggled, singles = hidden[0], hidden[1:9]
        jobs = [(toggled, i) for i in range(toggles)]
        jobs += [(cell, i) for i, cell in enumerate(singles)]

        def run(job: tuple[tuple[int, int], int]) -> int:
            cell, i = job
            with patient_client() as client:
                return _post(client, (one.url, two.url)[i % 2], game, "flag", cell)

        with ThreadPoolExecutor(max_workers=12) as pool:
            statuses = list(pool.map(run, jobs))
        assert statuses == [200] * len(jobs)
        views = [get(f"{url}/api/games/{game['id']}").json()["view"] for url in (one.url, two.url)]
    assert views[0]["cells"] == views[1]["cells"]
    cells = views[0]["cells"]
    assert cells[toggled[0]][toggled[1]] == ("F" if toggles % 2 else "H")
    assert all(cells[r][c] == "F" for r, c in singles)
    assert views[0]["mines_left"] == 150 - len(singles) - toggles % 2

    import psycopg

    schema = pg_url.rsplit("schema=", 1)[1]
    with psycopg.connect(PG_URL) as check:
        check.execute(f'SET search_path TO "{schema}"')
        seqs = [row[0] for row in check.execute("SELECT seq FROM moves ORDER BY seq").fetchall()]
        version = check.execute("SELECT version FROM games").fetchone()
    assert seqs == list(range(1, len(jobs) + 2))  # the reveal, then every flag once
    assert version == (len(jobs) + 1,)


def test_watchers_hear_of_moves_made_through_another_process(pg_url: str) -> None:
    from websockets.sync.client import connect

    with server_process(pg_url) as one, server_process(pg_url) as two:
        game = post(f"{one.url}/api/games", json={"preset": "beginner"}).json()
        live = f"{two.url.replace('http', 'ws', 1)}/api/games/{game['id']}/live"
        with connect(live, open_timeout=PATIENCE) as socket:
            assert json.loads(socket.recv(timeout=PATIENCE))["type"] == "view"
            assert _post(patient_client(), one.url, game, "flag", (0, 0)) == 200
            assert json.loads(socket.recv(timeout=PATIENCE)) == {"type": "refresh"}
            assert _post(patient_client(), two.url, game, "flag", (1, 1)) == 200
            local = json.loads(socket.recv(timeout=PATIENCE))
            assert local["type"] == "move"
            assert local["changed"] == [[1, 1, "F"]]
        view = get(f"{two.url}/api/games/{game['id']}").json()["view"]
        assert view["cells"][0][0] == "F"


def test_servers_starting_together_on_a_new_schema_all_come_up(pg_url: str) -> None:
    import psycopg

    from mines.server.db.postgres import PostgresStorage

    # Every table, the race rooms' included, comes from the migrations, which each storage
    # runs at start under the schema's lock: servers starting at once on a new schema must not
    # collide on a `CREATE TABLE` (a UniqueViolation on `races` once did).
    starters = 4
    for attempt in range(5):
        schema = f"{pg_url.partition('?schema=')[2]}_{attempt}"
        barrier = threading.Barrier(starters)
        storages: list[Any] = []

        def start(barrier: threading.Barrier = barrier, schema: str = schema) -> Any:
            barrier.wait()
            storage = PostgresStorage(PG_URL, schema=schema)
            RaceStore(storage)
            return storage

        try:
            with ThreadPoolExecutor(starters) as pool:
                for started in [pool.submit(start) for _ in range(starters)]:
                    storages.append(started.result())  # a UniqueViolation raises here
            with storages[0].transaction(write=False) as cursor:
                cursor.execute("SELECT count(*) FROM races")
                assert cursor.fetchone() == (0,)
        finally:
            for storage in storages:
                storage.close()
            with psycopg.connect(PG_URL, autocommit=True) as admin:
                admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_watchers_hear_other_processes_again_after_the_listener_lost_its_connection(
    pg_url: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    from websockets.sync.client import connect

    name = f"mines-listen-{uuid.uuid4().hex[:8]}"
    parts = urlsplit(pg_url)
    with proxy_to(parts.port or 5432) as proxy:
        netloc = f"{parts.username}@127.0.0.1:{proxy.port}"
        proxied = f"{parts._replace(netloc=netloc).geturl()}&application_name={name}"
        with server_process(proxied) as one, server_process(pg_url) as two:
            game = post(f"{two.url}/api/games", json={"preset": "beginner"}).json()
            live = f"{one.url.replace('http', 'ws', 1)}/api/games/{game['id']}/live"
            with connect(live, open_timeout=PATIENCE) as socket:
                assert json.loads(socket.recv(timeout=PATIENCE))["type"] == "view"
                # Its connections ended by the database: once back, the listener has the
                # watchers read again (moves may have gone unheard), then hears moves again.
                with psycopg.connect(PG_URL, autocommit=True) as admin:
                    ended = admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE application_name = %s",
                        (name,),
                    ).fetchall()
                assert ended
                assert json.loads(socket.recv(timeout=PATIENCE)) == {"type": "refresh"}
                assert _post(patient_client(), two.url, game, "flag", (0, 0)) == 200
                assert json.loads(socket.recv(timeout=PATIENCE)) == {"type": "refresh"}
                # Cut off while another process moves: that move's notification reaches no
                # listener here, and only the reading again once back brings it.
                proxy.cut()
                assert _post(patient_client(), two.url, game, "flag", (1, 1)) == 200
                proxy.restore()
                assert json.loads(socket.recv(timeout=PATIENCE)) == {"type": "refresh"}
            with connect(live, open_timeout=PATIENCE) as again:  # a new watcher hears too
                assert json.loads(again.recv(timeout=PATIENCE))["type"] == "view"
                assert _post(patient_client(), two.url, game, "flag", (2, 2)) == 200
                assert json.loads(again.recv(timeout=PATIENCE)) == {"type": "refresh"}
            view = get(f"{one.url}/api/games/{game['id']}").json()["view"]
            assert [view["cells"][i][i] for i in range(3)] == ["F", "F", "F"]
            log = one.log()
    # Each of the two losses logged once, and each return once.
    assert log.count("listener lost its connection") == 2, log
    assert log.count("listener is connected again") == 2, log


def test_a_url_with_encoded_options_reaches_postgresql_as_written(pg_url: str) -> None:
    from mines.server.db.database import open_storage

    # The schema is taken out of the query and the rest rebuilt: encoded again, not as text.
    storage = open_storage(f"{pg_url}&options=-c%20statement_timeout%3D5000")
    try:
        with storage.transaction(write=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone() == ("5s",)
    finally:
        storage.close()
