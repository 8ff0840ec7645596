"""Server test fixtures: an app on a temporary SQLite file, with a clock and seeds tests control."""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mines.placement import RandomPlacer
from mines.server.app import create_app
from mines.server.common.settings import RateLimits, Settings
from mines.server.db.database import open_storage
from mines.server.services.accounts import AccountService
from mines.server.services.games import GameService
from tests.services import import_for_service, service_missing

DUMPS = Path(__file__).parent / "data"
"""SQL dumps of databases made by earlier versions of the server (`schema_v1.sql`, ...)."""

UNLIMITED = RateLimits(
    address="1000000/second",
    create="1000000/second",
    game="1000000/second",
    signin="1000000/second",
    denied="1000000/second",
)


PASSWORD = "correct horse battery"
"""The password of the tests' accounts."""


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> int:
    """Make an account with this client, which then holds its session cookie (signed in);
    the answer's status: 201, or the refusal's."""
    return client.post("/api/accounts", json={"name": name, "password": password}).status_code


def database_from_dump(dump: str, path: Path) -> Path:
    """A SQLite file at `path` holding the database of `DUMPS / dump`."""
    with sqlite3.connect(path) as database:
        database.executescript((DUMPS / dump).read_text())
    return path


class FakeClock:
    """Wall time that moves only when a test says so."""

    def __init__(self, now: float = 1_700_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Server:
    """A test client on an app whose storage, clock and seeds the test chose."""

    def __init__(self, database: str, clock: FakeClock, **options: Any):
        self.database = database
        self.clock = clock
        # Test clients all share one address and play fast: rate limits only where a test
        # asks for them.
        options.setdefault("rates", UNLIMITED)
        self.settings = Settings(database=database, **options)
        self.next_seed = 1000
        storage = open_storage(database)
        self.service = GameService(storage, self.settings, wall=clock, seeds=self._seed)
        self.accounts = AccountService(storage, wall=clock)
        self.app = create_app(self.service, account_service=self.accounts)
        self.client = TestClient(self.app)

    def _seed(self) -> int:
        """The seeds the server draws for games created without one, in an order tests know."""
        self.next_seed += 1
        return self.next_seed - 1

    def create(self, **body: Any) -> dict[str, Any]:
        response = self.client.post("/api/games", json=body or {"preset": "beginner"})
        assert response.status_code == 201, response.text
        game: dict[str, Any] = response.json()
        return game

    def sign_up(self, name: str, password: str = PASSWORD) -> None:
        """Make an account and sign this server's client in to it: its games then rank."""
        assert sign_up(self.client, name, password) == 201

    def move(self, game: dict[str, Any], kind: str, row: int, col: int) -> Any:
        return self.client.post(
            f"/api/games/{game['id']}/{kind}",
            json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {game['token']}"},
        )

    def close(self) -> None:
        self.service.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def server(sqlite_url: str, clock: FakeClock) -> Iterator[Server]:
    test_server = Server(sqlite_url, clock)
    yield test_server
    test_server.close()


def layout(
    seed: int, rows: int, cols: int, mines: int, first: tuple[int, int], rule: str = "opening"
) -> set[tuple[int, int]]:
    """The mines a seeded game gets for its first click: the server uses the same placer."""
    positions = RandomPlacer(seed, rule).place(rows, cols, mines, first)
    return {(int(r), int(c)) for r, c in positions.tolist()}


def safe_cells(rows: int, cols: int, mines: set[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in mines]


PG_URL = os.environ.get("MINES_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A schema of its own in the test database, dropped afterwards."""
    psycopg = import_for_service("psycopg", "PostgreSQL tests need psycopg")
    try:
        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        service_missing(f"PostgreSQL is not reachable at {PG_URL}: {error}")
    schema = f"mines_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{PG_URL}?schema={schema}"
    finally:
        admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_server(
    request: pytest.FixtureRequest, sqlite_url: str, clock: FakeClock
) -> Iterator[Server]:
    """A test server on SQLite, and again on PostgreSQL."""
    url = request.getfixturevalue("pg_url") if request.param == "postgres" else sqlite_url
    test_server = Server(url, clock)
    yield test_server
    test_server.close()


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """The address of a `mines serve` child process on a SQLite file of its own."""
    from tests.server.browsing import serving  # Playwright is imported only by browser tests

    with serving(tmp_path) as address:
        yield address


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's chromium, driven by Playwright."""
    from tests.server.browsing import chromium

    with chromium() as running:
        yield running
