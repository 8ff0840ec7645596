"""One data folder for every part: the variable, XDG, the home default, and who uses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mines.cli.main import main
from mines.datadir import DATA_DIR_VARIABLE, data_dir
from mines.server.common.places import default_database

ROOT = Path(__file__).resolve().parents[1]


def test_the_variable_wins_then_xdg_then_home() -> None:
    assert data_dir({"MINES_DATA_DIR": "/a", "XDG_DATA_HOME": "/b"}) == Path("/a")
    assert data_dir({"XDG_DATA_HOME": "/b"}) == Path("/b/mines")
    assert data_dir({}) == Path.home() / ".local/share/mines"
    assert data_dir({"MINES_DATA_DIR": "~/games"}) == Path.home() / "games"


def test_the_server_and_the_saved_games_share_the_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    assert default_database() == f"sqlite:///{tmp_path / 'mines.sqlite3'}"
    assert main(["stats"]) == 0
    assert f"Saved games are in {tmp_path}" in capsys.readouterr().out
    monkeypatch.delenv(DATA_DIR_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database() == f"sqlite:///{tmp_path / 'mines' / 'mines.sqlite3'}"


def test_no_other_module_or_page_picks_a_folder_of_its_own() -> None:
    """The folder's rules live in mines/datadir.py and the README; nowhere names another."""
    texts = {path: path.read_text(encoding="utf-8") for path in (ROOT / "src").rglob("*.py")}
    texts |= {path: path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("*.md")}
    home = ROOT / "src" / "mines" / "datadir.py"
    for path, text in texts.items():
        assert not re.search(r"\bMINES_DATA\b", text), f"{path} names the old variable"
        if path != home:
            assert "XDG_DATA_HOME" not in text, f"{path} reads XDG_DATA_HOME itself"
            assert "local/share" not in text, f"{path} spells the default folder itself"
