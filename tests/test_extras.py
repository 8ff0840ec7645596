"""A missing extra gets one line that names it, wherever it is missing."""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from pathlib import Path

import pytest

from mines import Game
from mines.cli.main import main
from mines.extras import EXTRAS, MissingExtraError, missing_extra, require_extra


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make `modules` unimportable, as if their extra were not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_the_message_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    assert missing_extra("server", "mines serve") is None
    hide(monkeypatch, "uvicorn")
    assert missing_extra("server", "mines serve") == (
        'mines serve needs uvicorn, which is not installed: pip install "mines[server]"'
    )
    with pytest.raises(MissingExtraError, match=r'pip install "mines\[server\]"'):
        require_extra("server", "mines serve")


def test_the_extras_are_those_of_pyproject() -> None:
    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    extras = tomllib.loads(text)["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    for extra, modules in EXTRAS.items():
        # Each module named here comes from a package the extra lists.
        listed = " ".join(extras[extra]).lower()
        assert all(name in listed for name in modules), extra


def test_serve_without_the_server_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "uvicorn", "fastapi")
    assert main(["serve", "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "mines: mines serve needs FastAPI and uvicorn, which are not installed: "
        'pip install "mines[server]"\n'
    )


def test_replay_without_textual_prints_the_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Game(3, 3, 1, seed=1)
    game.reveal(1, 1)
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game.record().to_dict()), encoding="utf-8")
    hide(monkeypatch, "textual")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["replay", str(saved)]) == 0
    out, err = capsys.readouterr()
    assert 'pip install "mines[tui]"' in err
    assert err.count("\n") == 1
    assert "Move 1 of 1" in out


def test_play_without_textual_plays_in_line_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "textual")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdin", iter(["q\n"]))
    assert main(["play", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == (
        "mines: the terminal app needs Textual, which is not installed: "
        'pip install "mines[tui]"; playing in line mode instead\n'
    )
    assert "Bye." in out


def test_import_gym_without_gymnasium(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "gymnasium")
    monkeypatch.delitem(sys.modules, "mines.gym", raising=False)
    with pytest.raises(ImportError) as raised:
        importlib.import_module("mines.gym")
    assert str(raised.value) == (
        'mines.gym needs Gymnasium, which is not installed: pip install "mines[gym]"'
    )
