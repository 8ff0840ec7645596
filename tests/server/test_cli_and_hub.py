"""`mines serve` options, storage URLs, and the hub's handling of a slow watcher."""

from __future__ import annotations

import asyncio
import gc
import platform
from pathlib import Path
from typing import Any

import pytest

from mines.cli.main import build_parser
from mines.server.common.places import default_database
from mines.server.db.database import open_storage
from mines.server.db.storage import StorageError
from mines.server.ops import cli
from mines.server.services.hub import QUEUE_LIMIT, REFRESH, Hub


def test_serve_options() -> None:
    args = build_parser().parse_args(["serve", "--port", "9000", "--db", "sqlite:///x.db"])
    settings = cli.settings_from(args)
    assert (settings.host, settings.port) == ("127.0.0.1", 9000)
    assert settings.database == "sqlite:///x.db"
    assert settings.max_cells == 1_000_000


@pytest.mark.parametrize("option", [["--port", "80000"], ["--port", "x"], ["--max-cells", "0"]])
def test_bad_serve_options_are_refused(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.settings_from(build_parser().parse_args(["serve", *option]))
    assert option[0] in capsys.readouterr().err


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="a glibc setting")
def test_the_mmap_threshold_is_fixed_before_the_server_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert cli.fix_mmap_threshold()
    calls: list[str] = []

    def share() -> bool:
        calls.append("threshold")
        return True

    def serve(*args: Any, **kwargs: Any) -> None:
        calls.append("serve")

    monkeypatch.setattr(cli, "fix_mmap_threshold", share)
    monkeypatch.setattr(uvicorn.Server, "run", serve)
    args = build_parser().parse_args(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"])
    assert cli.run(args) == 0
    assert calls == ["threshold", "serve"]


def test_the_server_starts_with_its_long_lived_objects_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Full collections then skip the imported modules and the app (shorter pauses)."""
    import uvicorn

    frozen: list[int] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: frozen.append(gc.get_freeze_count()))
    args = build_parser().parse_args(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"])
    try:
        assert cli.run(args) == 0
    finally:
        gc.unfreeze()
    assert frozen
    assert frozen[0] > 0


def test_default_database_is_in_the_data_folder(tmp_path: Path) -> None:
    assert default_database(tmp_path) == f"sqlite:///{tmp_path / 'mines.sqlite3'}"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://host/db", "unknown database URL"),
        ("sqlite://", "needs a file"),
        ("sqlite:///tmp/x.db?synchronous=maybe", "synchronous mode"),
    ],
)
def test_bad_database_urls_say_what_is_accepted(url: str, words: str) -> None:
    with pytest.raises(StorageError, match=words):
        open_storage(url)


def test_a_slow_watcher_gets_a_refresh_instead_of_an_endless_queue() -> None:
    async def scenario() -> list[dict[str, object]]:
        hub = Hub()
        with hub.subscribe("g") as queue:
            assert hub.watchers("g") == 1
            for number in range(QUEUE_LIMIT + 5):
                hub.publish("g", {"type": "move", "n": number})
            received = []
            while not queue.empty():
                received.append(queue.get_nowait())
        assert hub.watchers("g") == 0
        return received

    received = asyncio.run(scenario())
    assert REFRESH in received
    assert len(received) <= QUEUE_LIMIT
    assert received[-1] == {"type": "move", "n": QUEUE_LIMIT + 4}  # the latest still arrive
