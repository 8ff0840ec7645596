"""Every command run by these tests keeps its games in a folder of the test's own."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`MINES_DATA_DIR` for the test and the commands it starts (never the user's folder)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("MINES_DATA_DIR", str(folder))
    return folder
