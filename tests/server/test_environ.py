"""`MINES_<OPTION>`: every `mines serve` option from the environment, the command line winning,
a malformed value refused at start naming its variable, and docs/server.md listing them all."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import pytest

from mines.cli.main import build_parser
from mines.server.ops.environ import variable
from tests.server.processes import get, server_process

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def serve_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices["serve"]
            return found
    raise AssertionError("no serve command")


def test_every_option_has_its_variable_in_the_docs_table() -> None:
    table = {
        match[1]: match[2]
        for match in re.finditer(
            r"^\| `(--[a-z-]+)`[^|]*\| `(MINES_[A-Z_]+)` \|", DOCS.read_text(), re.M
        )
    }
    options = [a for a in serve_parser()._actions if variable(a) is not None]
    assert len(options) >= 18
    for action in options:
        flag = action.option_strings[0]
        assert table.get(flag) == variable(action), f"docs/server.md's table lacks {flag}"
        assert variable(action) == "MINES_" + flag[2:].replace("-", "_").upper()


def test_the_environment_sets_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "MINES_PORT": "9001",
        "MINES_DB": "sqlite:///elsewhere.sqlite3",
        "MINES_MAX_CELLS": "500",
        "MINES_MEMORY": "512M",
        "MINES_ACCESS_LOG": "off",
        "MINES_LOG_FORMAT": "json",
        "MINES_METRICS_ALLOW": "10.0.0.0/8, ::1",
        "MINES_RATE_LIMIT_GAME": "5/second",
    }.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(["serve"])
    assert args.port == 9001
    assert args.db == "sqlite:///elsewhere.sqlite3"
    assert args.max_cells == 500
    assert args.memory == 512 * 2**20
    assert args.access_log is False
    assert args.log_format == "json"
    assert args.metrics_allow == ("10.0.0.0/8", "::1")
    assert args.rate_limit_game == "5/second"


def test_the_command_line_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINES_PORT", "9001")
    monkeypatch.setenv("MINES_ACCESS_LOG", "0")
    args = build_parser().parse_args(["serve", "--port", "8000", "--access-log"])
    assert args.port == 8000  # the default's own value, given on the command line, still wins
    assert args.access_log is True


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("MINES_PORT", "eighty", "whole number"),
        ("MINES_PORT", "70000", "1 to 65535"),
        ("MINES_LOG_LEVEL", "loud", "debug, info, warning, error"),
        ("MINES_ACCESS_LOG", "maybe", "true"),
        ("MINES_MEMORY", "12", "at least 1M"),
        ("MINES_FORWARDED_ALLOW_IPS", "nginx", "addresses or networks"),
    ],
)
def test_a_malformed_variable_stops_with_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    said: str,
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["serve"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"mines serve: {name}={value!r}: ")
    assert said in err


def test_other_commands_never_read_the_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINES_PORT", "eighty")
    assert build_parser().parse_args(["stats"]).command == "stats"


def test_a_real_server_configured_by_the_environment_alone(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "MINES_LOG_FORMAT": "json",
        "MINES_METRICS_ALLOW": "",  # nobody: loopback too gets 404
        "MINES_MAX_CELLS": "100",
    }
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", env=env) as server:
        assert get(f"{server.url}/metrics").status_code == 404
        assert get(f"{server.url}/api/meta").json()["limits"]["max_cells"] == 100
        server.process.terminate()
        server.process.wait()
        assert server.log().lstrip().startswith("{")  # JSON lines
