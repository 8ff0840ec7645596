"""`./dev bench winrate` and `nog`: the figures of `mines bench`, then a verdict or "no target"."""

from __future__ import annotations

import re

import pytest

from benchmarks import nog, winrate


def run(
    main: object, args: list[str], capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch
) -> tuple[int, str]:
    mp.setattr("sys.argv", ["./dev bench", *args])
    assert callable(main)
    code = main()
    return code, capsys.readouterr().out


def test_winrate_judges_the_rate_against_the_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--preset", "beginner", "--games", "6", "--no-progress"]
    monkeypatch.setitem(winrate.RECORDS, ("beginner", "opening"), (0.0, "a record anyone beats"))
    code, out = run(winrate.main, args, capsys, monkeypatch)
    assert code == 0
    assert re.search(r"^won \d of 6: ", out, flags=re.M)  # mines bench winrate's own lines
    assert "PASS  win rate on beginner, opening first click: " in out
    assert "over 6 games against 0.00% (a record anyone beats)" in out
    assert "the record lies below the interval" in out

    monkeypatch.setitem(winrate.RECORDS, ("beginner", "opening"), (1.01, "a record none beats"))
    code, out = run(winrate.main, args, capsys, monkeypatch)
    assert code == 1
    assert "FAIL  win rate on beginner, opening first click" in out
    assert "the record lies above the interval" in out


def test_winrate_says_when_there_is_no_target(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--preset", "beginner", "--first-click", "safe", "--games", "3", "--no-progress"]
    code, out = run(winrate.main, args, capsys, monkeypatch)
    assert code == 0
    assert "no target: no published win rate for beginner with a safe click" in out
    assert not re.search(r"^(PASS|FAIL) ", out, flags=re.M)


def test_winrate_records_are_the_published_ones() -> None:
    assert winrate.RECORDS[("expert", "opening")][0] == 0.543
    assert winrate.RECORDS[("expert", "safe")][0] == 0.4113
    assert winrate.where(0.5, 0.4, 0.6).startswith("inside")


def test_nog_judges_expert_boards_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run(nog.main, ["--boards", "2"], capsys, monkeypatch)
    assert code == 0
    assert "generation ms (CPU time): median" in out
    assert "PASS  every board verified: 2 of 2" in out
    assert "PASS  no-guess Expert generation: median " in out

    monkeypatch.setattr(nog, "MEDIAN", 0.0)
    code, out = run(nog.main, ["--boards", "2"], capsys, monkeypatch)
    assert code == 1
    assert "FAIL  no-guess Expert generation" in out

    code, out = run(nog.main, ["--preset", "beginner", "--boards", "2"], capsys, monkeypatch)
    assert code == 0
    assert "no target: generation times are a target only for Expert boards" in out


def test_a_bad_option_is_a_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["./dev bench winrate", "--games", "0"])
    assert winrate.main() == 2
    assert "--games must be at least 1, got 0" in capsys.readouterr().err
