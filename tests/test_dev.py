"""`./dev`: its help, its benchmark list, and what each command installs into the venv."""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "dev"
BENCHMARKS = sorted(
    path.stem
    for path in (ROOT / "benchmarks").glob("*.py")
    if re.search(r"^def main\(", path.read_text(encoding="utf-8"), flags=re.M)
)
TOOLS = ("python", "mines", "ruff", "mypy")
"""A fake venv's programs: each only notes how it was called."""


def dev(*args: str, venv: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MINES_VENV": str(venv or "/nonexistent/venv")}
    return subprocess.run(
        [str(DEV), *args], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize("word", ["help", "--help", "-h"])
def test_help_lists_every_command_and_benchmark(word: str) -> None:
    done = dev(word)
    assert done.returncode == 0, done.stderr
    for command in ("play", "serve", "test", "bench", "mutate", "help"):
        assert re.search(rf"^  {command}\b", done.stdout, flags=re.M), command
    listed = re.findall(r"^  (\S+) ", done.stdout.split("Benchmarks:")[1], flags=re.M)
    assert listed == BENCHMARKS
    assert {"engine", "huge", "load", "solver", "tui", "winrate", "nog"} <= set(listed)


HELP_WIDTH = 100
"""Columns of a terminal that `./dev help` fits in, as ruff's line length for the code."""


def test_help_gives_each_benchmark_one_whole_line() -> None:
    """Each benchmark's summary is its docstring's first paragraph, on one line that fits."""
    listing = dev("help").stdout.split("Benchmarks:\n")[1].splitlines()
    assert len(listing) == len(BENCHMARKS), "one line per benchmark"
    for name, line in zip(BENCHMARKS, listing, strict=True):
        assert len(line) <= HELP_WIDTH, f"{name}'s line is {len(line)} columns: {line}"
        doc = ast.get_docstring(ast.parse((ROOT / "benchmarks" / f"{name}.py").read_text())) or ""
        first_paragraph = doc.split("\n\n")[0]
        assert "\n" not in first_paragraph, f"benchmarks/{name}.py: its summary runs on"
        assert line.split(None, 1) == [name, first_paragraph]


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["nope"], "unknown command 'nope'"),
        (["bench", "nope"], "no benchmark named 'nope'"),
        (["bench", "checks"], "no benchmark named 'checks'"),
        (["bench"], "name a benchmark"),
    ],
)
def test_an_unknown_name_gets_the_list(args: list[str], complaint: str) -> None:
    done = dev(*args)
    assert done.returncode == 2
    assert complaint in done.stderr
    assert "Benchmarks:" in done.stderr
    assert "engine" in done.stderr


def test_apt_waits_for_its_lock(tmp_path: Path) -> None:
    """Every apt-get that ./dev runs is told to wait for another apt's lock."""
    log = tmp_path / "apt.log"
    fake = tmp_path / "apt-get"
    fake.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\n', encoding="utf-8")
    fake.chmod(0o755)
    script = f'source "{DEV}"; apt_install "a test" chromium'
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert [call.split()[-1] for call in calls] == ["update", "chromium"]
    for call in calls:
        assert call.startswith("-o DPkg::Lock::Timeout=600 "), call
    assert "waiting for apt's lock" in done.stderr
    # Everything that installs Debian packages goes through apt_install.
    lines = DEV.read_text(encoding="utf-8").splitlines()
    assert [line.strip() for line in lines if "apt-get -" in line] == [
        'local apt=(apt-get -o "DPkg::Lock::Timeout=$APT_LOCK_WAIT" -qq)'
    ]


@pytest.fixture
def fake_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A venv whose programs only log their arguments, so `./dev` runs in a moment."""
    log = tmp_path / "log"
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in TOOLS:
        script = bin_dir / tool
        # `python -c` (how ./dev runs a benchmark) goes to the real Python that runs the tests.
        real = f'[ "$1" = -c ] && exec "{sys.executable}" "$@"\n' if tool == "python" else ""
        script.write_text(f'#!/bin/sh\n{real}echo "{tool} $*" >> "{log}"\n', encoding="utf-8")
        script.chmod(0o755)
    return tmp_path / "venv", log


def installs(log: Path) -> list[str]:
    """The extras each `pip install` of the run asked for."""
    if not log.exists():
        return []
    lines = log.read_text(encoding="utf-8").splitlines()
    return [re.findall(r"-e \.\[(.*)\]", line)[0] for line in lines if "pip install" in line]


def test_play_installs_only_the_game_and_test_adds_the_rest(fake_venv: tuple[Path, Path]) -> None:
    venv, log = fake_venv
    assert dev("play", "--plain", venv=venv).returncode == 0
    assert installs(log) == ["tui"]
    assert "mines play --plain" in log.read_text(encoding="utf-8")

    log.unlink()
    assert dev("play", venv=venv).returncode == 0
    assert installs(log) == [], "a second ./dev play installs nothing"

    log.unlink()
    assert dev("test", "-x", venv=venv).returncode == 0
    assert installs(log) == ["dev,gym,rl,server,tui"]
    ran = log.read_text(encoding="utf-8")
    assert "ruff check" in ran
    assert "mypy" in ran
    assert "python -m pytest -x" in ran

    log.unlink()
    assert dev("play", venv=venv).returncode == 0
    assert installs(log) == [], "./dev play after ./dev test installs nothing"


def test_play_on_a_server_installs_its_client_too(
    fake_venv: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    venv, log = fake_venv
    monkeypatch.delenv("MINES_SERVER", raising=False)
    assert dev("play", "--server", "http://127.0.0.1:8000", venv=venv).returncode == 0
    assert installs(log) == ["remote,tui"]
    log.unlink()
    assert dev("play", "--server=http://127.0.0.1:8000", venv=venv).returncode == 0
    assert installs(log) == [], "installed already"


def test_a_changed_pyproject_reinstalls_what_was_there(fake_venv: tuple[Path, Path]) -> None:
    venv, log = fake_venv
    assert dev("serve", venv=venv).returncode == 0
    assert installs(log) == ["server"]
    # As if pyproject.toml had changed since: the stamp is older than it.
    os.utime(venv / ".mines-extras", (0, 0))
    log.unlink()
    assert dev("serve", venv=venv).returncode == 0
    assert installs(log) == ["server"]
    log.unlink()
    assert dev("play", venv=venv).returncode == 0
    assert installs(log) == ["server,tui"]


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_runs_as_its_help_says(name: str, fake_venv: tuple[Path, Path]) -> None:
    venv, _ = fake_venv
    done = dev("bench", name, "--help", venv=venv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: "), done.stdout
    # Its own docstring says how it runs: through ./dev bench, by its name.
    doc = (ROOT / "benchmarks" / f"{name}.py").read_text(encoding="utf-8")
    assert f"./dev bench {name}" in doc, f"benchmarks/{name}.py does not say how to run it"


def test_mutate_installs_mutmut_and_runs_the_mutation_driver(fake_venv: tuple[Path, Path]) -> None:
    """`./dev mutate` is its own command, not a benchmark nor part of `./dev test`."""
    venv, log = fake_venv
    done = dev("mutate", "--help", venv=venv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ./dev mutate"), done.stdout
    words = " ".join(done.stdout.split())
    assert "game, engine, dense, sparse, placement, view, grid, record, replay, race" in words
    assert installs(log) == ["dev,gym,mutate,server,tui"]
    assert "mutate" not in BENCHMARKS
    log.unlink()
    assert dev("test", venv=venv).returncode == 0
    assert "mutmut" not in log.read_text(encoding="utf-8")


def test_progress_lines_say_what_is_happening(fake_venv: tuple[Path, Path]) -> None:
    venv, _ = fake_venv
    done = dev("play", venv=venv)
    assert "./dev: installing mines[tui] into" in done.stderr
    assert "Textual" in done.stderr
    assert "./dev: starting the game" in done.stderr


def mines_bench_names() -> set[str]:
    """Every name `mines bench` takes, aliases included."""
    from benchmarks.solver_cli import subcommand
    from mines.cli.main import build_parser

    bench = subcommand(build_parser(), "bench")
    for action in bench._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    raise AssertionError("mines bench has no subcommands")


def test_a_name_in_both_benchmark_sets_is_one_benchmark() -> None:
    """`./dev bench NAME` and `mines bench NAME` are the same benchmark, or NAME is in one set."""
    names = mines_bench_names()
    assert {"winrate", "nog", "decide"} <= names
    for name in names & set(BENCHMARKS):
        source = (ROOT / "benchmarks" / f"{name}.py").read_text(encoding="utf-8")
        runs = (f'solver_cli.parse("{name}"', f'["bench", "{name}"')
        assert any(call in source for call in runs), f"./dev bench {name} is not mines bench {name}"


def test_installs_take_the_locked_versions(fake_venv: tuple[Path, Path]) -> None:
    venv, log = fake_venv
    assert dev("serve", venv=venv).returncode == 0
    (line,) = [
        line for line in log.read_text(encoding="utf-8").splitlines() if "pip install" in line
    ]
    assert "-c requirements.lock -e .[server]" in line


def test_the_lock_pins_a_version_of_everything_pyproject_asks_for() -> None:
    """requirements.lock is not stale: every dependency of every extra is in it, at a version
    its range allows (`./dev lock` remakes it after pyproject.toml changes)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        wanted += [Requirement(text) for text in extra]
    pinned = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith((" ", "#")):
            name, version = line.split("==")
            pinned[canonicalize_name(name)] = version.strip()
    assert "mines" not in pinned  # the project itself is never a constraint
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        if name == "mines":
            continue
        assert name in pinned, f"requirements.lock lacks {name}: run ./dev lock"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"requirements.lock pins {name}=={pinned[name]}, outside {requirement.specifier}"
        )
    assert (
        pinned[canonicalize_name("torch")] == "2.13.0"
    )  # without +cpu: the pin matches the CPU build anywhere
