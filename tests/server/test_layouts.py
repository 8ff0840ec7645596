"""Stored layouts: compact (a bit mask or cell indices, never JSON pairs), read back exactly,
old JSON ones migrated; and big finished games read in a worker process, not the server's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from mines.server.db import layouts
from mines.server.db.sql import SCHEMA_VERSION
from mines.server.db.storage import StorageError
from mines.server.services import finished, games
from tests.server.conftest import FakeClock, Server, database_from_dump, layout


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "form"),
    [(1000, 1000, 999_999, layouts.MASK), (1000, 1000, 100, layouts.CELLS), (9, 9, 10, None)],
)
def test_a_layout_reads_back_exactly_in_the_smaller_form(
    rows: int, cols: int, mines: int, form: str | None
) -> None:
    rng = np.random.default_rng(1)
    flat = np.sort(rng.choice(rows * cols, size=mines, replace=False))
    positions = np.stack(np.divmod(flat, cols), axis=1)
    text = layouts.encode(positions[::-1].copy(), rows, cols)
    if form is not None:
        assert text.startswith(form)
    assert len(text) <= 4 / 3 * min((rows * cols + 7) // 8, 8 * mines) + 16
    assert np.array_equal(layouts.decode(text, rows, cols), positions)


@pytest.mark.parametrize("text", ["mask:AAA", "cells:!!", "[[0,1]]", "mask:"])
def test_a_damaged_layout_is_a_storage_error(text: str) -> None:
    with pytest.raises(StorageError, match="damaged"):
        layouts.decode(text, 9, 9)


def stored_layout(path: Path) -> str:
    with sqlite3.connect(path) as db:
        text: str = db.execute("SELECT layout FROM games").fetchone()[0]
    return text


def test_a_dense_board_is_stored_in_a_bit_per_cell(tmp_path: Path, clock: FakeClock) -> None:
    server = Server(f"sqlite:///{tmp_path / 'dense.sqlite3'}", clock)
    try:
        game = server.create(rows=1000, cols=1000, mines=999_999, first_click="safe", seed=3)
        won = server.move(game, "reveal", 500, 500)
        assert won.json()["view"]["status"] == "WON"
    finally:
        server.close()
    text = stored_layout(tmp_path / "dense.sqlite3")
    assert len(text) < 170_000  # as JSON pairs it was 12 MB
    positions = layouts.decode(text, 1000, 1000)
    assert len(positions) == 999_999
    assert not np.any((positions[:, 0] == 500) & (positions[:, 1] == 500))  # the safe click


def test_a_layout_comes_back_from_storage_as_it_was_placed(
    sqlite_url: str, clock: FakeClock
) -> None:
    first = Server(sqlite_url, clock)
    game = first.create(preset="beginner", seed=7)
    first.move(game, "reveal", 4, 4)
    first.close()
    second = Server(sqlite_url, clock)
    try:
        mines = layout(7, 9, 9, 10, (4, 4))
        (row, col) = sorted(mines)[0]
        lost = second.move(game, "reveal", row, col)
        assert lost.json()["view"]["status"] == "LOST"
        record = second.client.get(f"/api/games/{game['id']}/record").json()
        assert {(r, c) for r, c in record["layout"]} == mines
    finally:
        second.close()


def test_a_database_of_schema_2_has_its_json_layouts_made_compact(
    tmp_path: Path, clock: FakeClock
) -> None:
    # schema_v2.sql is the dump of a database made by the server at schema version 2: an
    # 8x10 game with 12 mines (seed 41) by "Bea", opened at (3, 3), its layout as JSON pairs.
    path = database_from_dump("schema_v2.sql", tmp_path / "v2.sqlite3")
    old_layout = stored_layout(path)
    assert old_layout.startswith("[[")
    server = Server(f"sqlite:///{path}", clock)
    try:
        game = {"id": "6a901c57b8b9828e", "token": "OgDxY8em7nFb9ourmzU_vgoljbf43bZE"}
        view = server.client.get(f"/api/games/{game['id']}").json()["view"]
        assert view["cells"][3] == "00001HHHHH"
        mines = sorted(layouts.from_json(old_layout).tolist())
        lost = server.move(game, "reveal", *mines[0])
        assert lost.json()["view"]["status"] == "LOST"
    finally:
        server.close()
    with sqlite3.connect(path) as migrated:
        assert migrated.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)
        ]
    compact = stored_layout(path)
    assert compact.startswith(layouts.MASK)
    assert sorted(layouts.decode(compact, 8, 10).tolist()) == mines


def test_a_big_finished_games_reads_are_worked_out_in_a_worker(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = server.create(rows=101, cols=100, mines=1, first_click="safe", seed=2)
    assert server.move(game, "reveal", 50, 50).json()["view"]["status"] == "WON"

    # Here, in the server's process, reading is broken; the worker is a process of its own.
    def broken(*args: object) -> bytes:
        raise AssertionError("read in the server's process")

    monkeypatch.setattr(finished, "answer", broken)
    for read in ("record", "summary", "replay?top=0&left=0&height=2&width=2"):
        answer = server.client.get(f"/api/games/{game['id']}/{read}")
        assert answer.status_code == 200, answer.text
    assert server.client.get(f"/api/games/{game['id']}/summary").json()["status"] == "WON"


def test_a_big_game_in_progress_is_refused_its_record_before_any_worker(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = server.create(rows=101, cols=100, mines=2_000, seed=2)
    server.move(game, "reveal", 50, 50)
    monkeypatch.setattr(games, "read_in_worker", None)  # a worker started now would fail
    answer = server.client.get(f"/api/games/{game['id']}/record")
    assert answer.status_code == 409
    assert answer.json()["code"] == "game_in_progress"
