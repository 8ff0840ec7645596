"""The solver's commands, run through `mines.cli.main.main`."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from mines.cli.main import main


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_reads_a_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["hint", "--mines", "2"], capsys, monkeypatch, "HHH\n121\n000\n")
    assert code == 0
    assert out.startswith("open (0, 1): certainly safe")
    assert "why: The " in out
    assert "the 1 at" in out


def test_solve_prints_every_cell(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["solve", "--mines", "1", "--exact"], capsys, monkeypatch, "H1HH\n")
    assert code == 0
    assert "1 mine among 3 unrevealed cells; 2 arrangements" in out
    assert " 50  1 50  S" in out
    assert "(0, 0): 1/2" in out


@pytest.mark.parametrize(
    ("args", "text", "message"),
    [
        (["solve", "--mines", "1"], "", "no position"),
        (["solve", "--mines", "1"], "H1\nH\n", "same length"),
        (["hint", "--mines", "1"], "HQ\n", "unknown symbols"),
        (["hint", "--mines", "5"], "H1\n", "mine total"),
        (["solve", "--mines", "0"], "H1\n", "no arrangement"),
        (["bench", "decide", "--draws", "5"], "11\nHH\n", "give --positions FILE"),
        (["bench", "decide", "--mines", "1", "--cell", "x"], "11\nHH\n", "--cell takes ROW,COL"),
        (["bench", "decide", "--mines", "1", "--cell", "0,0"], "11\nHH\n", "not an unrevealed"),
        (["bench", "decide", "--positions", "/nonexistent/p.jsonl"], "", "cannot read"),
    ],
)
def test_bad_positions_get_a_clear_message(
    args: list[str],
    text: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, _, err = run(args, capsys, monkeypatch, text)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_bench_solver_reports_rate_interval_and_speed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["bench", "winrate", "--preset", "beginner", "--games", "6", "--seed", "3"]
    code, out, _ = run(args, capsys, monkeypatch, "")
    assert code == 0
    assert re.search(r"won \d of 6: [\d.]+% \(95% interval [\d.]+% to [\d.]+%", out)
    assert "games per CPU second" in out


def test_bench_nog_verifies_every_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["bench", "nog", "--rows", "9", "--cols", "9", "--mines", "10", "--boards", "3"]
    code, out, _ = run(args, capsys, monkeypatch, "")
    assert code == 0
    assert "median" in out
    assert "p99" in out
    assert "verified by a deduction-only replay through Game: 3 of 3" in out


def test_bench_options_are_checked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["bench", "winrate", "--games", "0"], capsys, monkeypatch, "")
    assert code == 2
    assert "--games must be at least 1" in err


def test_bench_solver_resumes_from_its_results_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    results = str(tmp_path / "run.jsonl")
    args = ["bench", "winrate", "--preset", "beginner", "--games", "4", "--block", "2"]
    code, first, _ = run([*args, "--results", results], capsys, monkeypatch, "")
    assert code == 0
    assert "guesses per game" in first
    code, again, _ = run([*args, "--results", results], capsys, monkeypatch, "")
    assert code == 0
    assert f"4 games read back from {results}, 0 played" in again
    assert first.splitlines()[1] == again.splitlines()[1]  # the same wins


def test_bench_decide_evaluates_one_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["bench", "decide", "--mines", "1", "--cell", "1,0", "--cell", "1,1", "--draws", "40"]
    code, out, _ = run(args, capsys, monkeypatch, "11\nHH\n")
    assert code == 0
    # A true 50/50: each wins exactly when it is safe, and the two never both win.
    assert re.search(r"\(1, 0\): wins [\d.]+% ± [\d.]+%", out)
    assert re.search(r"\(1, 0\) - \(1, 1\): [+-][\d.]+% ± [\d.]+%", out)


def test_bench_decide_resumes_one_position_from_its_results_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    results = str(tmp_path / "run.jsonl")
    args = ["bench", "decide", "--mines", "2", "--cell", "0,2", "--cell", "2,2", "--draws", "30"]
    args += ["--block", "10", "--results", results]
    code, first, _ = run(args, capsys, monkeypatch, "1HH\nHHH\nHHH\n")
    assert code == 0
    assert len(Path(results).read_text().splitlines()) == 1 + 3  # settings, then 3 blocks
    code, again, _ = run(args, capsys, monkeypatch, "1HH\nHHH\nHHH\n")
    assert (code, again) == (0, first)
    code, _, err = run([*args[:-2], "--block", "0"], capsys, monkeypatch, "1HH\nHHH\nHHH\n")
    assert code == 2
    assert "--block must be at least 1" in err


def test_bench_decide_compares_two_policies_on_a_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "positions.jsonl"
    record = {"board": ["11", "HH"], "mines_left": 1, "jsm_choice": [1, 0], "mines_choice": [1, 1]}
    path.write_text(json.dumps(record) + "\n")
    args = ["bench", "decide", "--positions", str(path), "--draws", "20"]
    code, out, _ = run(args, capsys, monkeypatch, "")
    assert code == 0
    assert "1 positions: jsm_choice wins" in out
