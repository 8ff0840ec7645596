"""The server's one settings object: every `mines serve` option from the environment, the
command line winning, a malformed value refused at start with one line naming it, and
docs/server.md's table made from it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mines.cli.main import build_parser
from mines.server.common.settings import Settings, option, settings_table, variable
from mines.server.ops.cli import settings_from
from tests.server.processes import get, server_process

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def serve(*words: str) -> Settings:
    return settings_from(build_parser().parse_args(["serve", *words]))


def test_the_docs_table_is_the_one_the_settings_make() -> None:
    assert settings_table() in DOCS.read_text(encoding="utf-8")
    assert len(Settings.model_fields) >= 30
    assert (option("database"), variable("database")) == ("--db", "MINES_DB")
    assert (option("max_cells"), variable("max_cells")) == ("--max-cells", "MINES_MAX_CELLS")


def test_every_setting_is_an_option_of_mines_serve(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in Settings.model_fields:
        assert option(name) in shown
        assert variable(name) in shown


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
        "MINES_REVIEW_WORKERS": "3",
        "MINES_SESSION_DAYS": "7",
    }.items():
        monkeypatch.setenv(name, value)
    settings = serve()
    assert settings.port == 9001
    assert settings.database == "sqlite:///elsewhere.sqlite3"
    assert settings.max_cells == 500
    assert settings.memory == 512 * 2**20
    assert settings.access_log is False
    assert settings.log_format == "json"
    assert settings.metrics_allow == ("10.0.0.0/8", "::1")
    assert settings.rates.game == "5/second"
    assert settings.review_workers == 3
    assert settings.session_seconds == 7 * 86400


def test_the_command_line_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINES_PORT", "9001")
    monkeypatch.setenv("MINES_ACCESS_LOG", "0")
    settings = serve("--port", "8000", "--access-log")
    assert settings.port == 8000  # the default's own value, given on the command line, still wins
    assert settings.access_log is True


def test_python_callers_give_the_groups_by_keyword() -> None:
    """Built by name, never by position: reordering the fields cannot swap two rates."""
    settings = Settings.model_validate({"database": "sqlite:///x", "rates": {"game": "1/second"}})
    assert settings.rates.game == "1/second"
    assert settings.rates.create == Settings().rates.create


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("MINES_PORT", "eighty", "valid integer"),
        ("MINES_PORT", "70000", "65535"),
        ("MINES_LOG_LEVEL", "loud", "'debug', 'info', 'warning' or 'error'"),
        ("MINES_ACCESS_LOG", "maybe", "boolean"),
        ("MINES_MEMORY", "12", "at least 1M"),
        ("MINES_FORWARDED_ALLOW_IPS", "nginx", "addresses or networks"),
        ("MINES_RATE_LIMIT_CREATE", "fast", "a rate such as"),
        ("MINES_REVIEW_BUDGET", "0", "greater than 0"),
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
        serve()
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    flag = "--" + name.removeprefix("MINES_").lower().replace("_", "-")
    assert err.startswith(f"mines serve: {flag} / {name}: ")
    assert said in err


def test_two_mistakes_are_two_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MINES_PORT", "eighty")
    with pytest.raises(SystemExit):
        serve("--max-cells", "0")
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == [
        "--port / MINES_PORT",
        "--max-cells / MINES_MAX_CELLS",
    ]


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
