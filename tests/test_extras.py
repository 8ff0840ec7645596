"""A missing extra gets one line that names it, wherever it is missing."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy
import pytest
import scipy

import mines
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
        listed = " ".join(extras[extra]).lower().replace("-", "_")
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


def test_play_on_a_server_without_httpx(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hide(monkeypatch, "httpx")
    assert main(["play", "--server", "http://127.0.0.1:9", "--plain"]) == 1
    assert capsys.readouterr().err == (
        "mines: mines play --server needs httpx, which is not installed: "
        'pip install "mines[remote]"\n'
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


def core_only(folder: Path) -> dict[str, str]:
    """An environment in which Python finds what `pip install mines` brings and nothing more:
    the standard library, numpy, scipy and mines (run it with `python -S`, without site)."""
    for package in (numpy, scipy):
        home = Path(str(package.__file__)).parent
        for name in (home.name, f"{home.name}.libs"):  # .libs: the wheels' shared libraries
            if (home.parent / name).exists():
                (folder / name).symlink_to(home.parent / name)
    source = Path(mines.__file__).resolve().parents[1]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(source)])}


@pytest.mark.parametrize(
    "options", [[], ["--rate-limit-game", "5/second"], ["--db", "sqlite:///x.db", "--port", "1"]]
)
def test_serve_on_a_core_only_install_says_in_one_line_what_to_install(
    options: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-S", "-m", "mines.cli.main", "serve", *options],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=core_only(tmp_path),
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("mines: mines serve needs FastAPI, uvicorn, "), done.stderr
    assert done.stderr.endswith('which are not installed: pip install "mines[server]"\n')


COMES_WITH = {"starlette": "fastapi", "pydantic": "fastapi", "anyio": "fastapi", "redis": "limits"}
"""Modules the server imports that come with a package its extra names (FastAPI is built on
Starlette, Pydantic and AnyIO; the extra asks for limits[redis])."""
OPTIONAL = {"brotli"}
"""Modules the server imports under `except ImportError`, doing without them."""


def test_every_module_the_server_imports_is_one_its_extra_checks() -> None:
    """`require_extra("server")` vouches for every import, so none fails after its one line."""
    server = Path(__file__).resolve().parents[1] / "src" / "mines" / "server"
    imported = set()
    for path in server.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"mines", "numpy", "scipy"}
    assert third_party - set(EXTRAS["server"]) - set(COMES_WITH) - OPTIONAL == set()
    assert set(COMES_WITH.values()) <= set(EXTRAS["server"])


@pytest.mark.parametrize("command", [["--help"], ["play", "--seed", "1", "--plain"]])
def test_the_command_and_line_mode_work_on_a_core_only_install(
    command: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-S", "-m", "mines.cli.main", *command],
        input="q\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**core_only(tmp_path), "MINES_DATA_DIR": str(tmp_path / "data")},
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
