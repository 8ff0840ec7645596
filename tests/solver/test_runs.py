"""Long runs: results kept per block, a stopped run resumes to the same totals, progress shows."""

from __future__ import annotations

import io
import json
import re
from functools import partial
from pathlib import Path

import pytest

from mines import BoardView
from mines.errors import InvalidBoardError
from mines.solver import bench, cluster
from mines.solver.blocks import BlockLog
from mines.solver.cluster import ClusterError
from mines.solver.decide import Case, classify, compare, evaluate_position, read_cases, report
from mines.solver.evaluate import evaluate
from mines.solver.progress import RunProgress


class StopError(Exception):
    """Stands for a run stopped from outside (Ctrl-C, a killed job)."""


def test_a_stopped_solver_run_resumes_to_the_same_totals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = bench.win_rate(9, 9, 10, condition="opening", games=10, seed=40, block=3)
    results = tmp_path / "run.jsonl"
    real = bench.play_range
    calls: list[range] = []

    def stop_after_two(*args: object) -> tuple[int, int, float, int]:
        seeds = args[-1]
        assert isinstance(seeds, range)
        if len(calls) == 2:
            raise StopError
        calls.append(seeds)
        return real(9, 9, 10, "opening", seeds)

    monkeypatch.setattr(bench, "play_range", stop_after_two)
    with pytest.raises(StopError):
        bench.win_rate(9, 9, 10, condition="opening", games=10, seed=40, block=3, results=results)
    monkeypatch.setattr(bench, "play_range", real)
    resumed = bench.win_rate(
        9, 9, 10, condition="opening", games=10, seed=40, block=3, results=results
    )
    assert (resumed.games, resumed.wins, resumed.guesses) == (
        whole.games,
        whole.wins,
        whole.guesses,
    )
    assert resumed.played == 10 - 6  # the two finished blocks were not played again
    again = bench.win_rate(
        9, 9, 10, condition="opening", games=10, seed=40, block=3, results=results
    )
    assert again.played == 0
    assert again.wins == whole.wins


def test_a_results_file_of_other_settings_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    bench.win_rate(9, 9, 10, condition="opening", games=2, block=2, results=results)
    with pytest.raises(InvalidBoardError, match="other settings"):
        bench.win_rate(9, 9, 10, condition="safe", games=2, block=2, results=results)


def test_a_line_cut_short_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    log = BlockLog(path, {"x": 1})
    log.add("a", {"games": 1})
    with path.open("a") as out:
        out.write('{"block": "b", "gam')  # the run was killed mid-write
    assert set(BlockLog(path, {"x": 1}).done) == {"a"}


POSITIONS = [
    # A 50/50 against a safe-looking but doomed cell, and a tiny endgame: quick to play out.
    {"board": ["11", "HH"], "mines_left": 1, "jsm_choice": [1, 0], "mines_choice": [1, 1]},
    {"board": ["1HH", "HHH", "HHH"], "mines_left": 2, "jsm_choice": [0, 1], "mines_choice": [2, 2]},
    {"board": ["H1H", "HHH"], "mines_left": 1, "jsm_choice": [1, 1], "mines_choice": [0, 0]},
]


def write_positions(path: Path) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in POSITIONS))
    return path


def test_a_stopped_decision_run_resumes_to_the_same_totals(tmp_path: Path) -> None:
    cases = read_cases(write_positions(tmp_path / "p.jsonl"), "jsm_choice", "mines_choice")
    whole = compare(cases, draws=30, seed=3)
    results = tmp_path / "run.jsonl"

    def stop(record: object) -> None:
        raise StopError

    with pytest.raises(StopError):
        compare(cases, draws=30, seed=3, results=results, on_record=stop)
    seen: list[object] = []
    resumed = compare(cases, draws=30, seed=3, results=results, on_record=seen.append)
    assert len(seen) == 2  # the first position was kept, not evaluated again
    assert resumed.summary() == whole.summary()
    assert [r["wins"] for r in resumed.records] == [r["wins"] for r in whole.records]


CORNER = BoardView.from_strings(["1HHH", "HHHH", "HHHH"], mines_left=3)
"""A corner showing 1 on a small board: every candidate can win or lose."""


def test_consecutive_ranges_of_draws_add_up_to_one_run() -> None:
    cells = [(0, 3), (0, 2)]
    whole = evaluate(CORNER, cells, draws=10, seed=5)
    head = evaluate(CORNER, cells, draws=4, seed=5)
    tail = evaluate(CORNER, cells, draws=6, seed=5, first=4)
    for i in range(2):
        assert whole.won[i] == head.won[i] + tail.won[i]
        assert whole.guesses[i] == head.guesses[i] + tail.guesses[i]
    assert evaluate(CORNER, cells, draws=6, seed=5, first=3).won != tail.won


def test_a_stopped_position_run_resumes_to_the_same_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cells = [(0, 3), (2, 0), (1, 1)]
    whole = evaluate(CORNER, cells, draws=25, seed=6)
    results = tmp_path / "run.jsonl"
    real = evaluate
    played: list[int] = []
    stop = [True]

    def stop_after_two(*args: object, **kwargs: int) -> object:
        if stop[0] and len(played) == 2:
            raise StopError
        played.append(kwargs["first"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("mines.solver.decide.evaluate", stop_after_two)
    with pytest.raises(StopError):
        evaluate_position(CORNER, cells, draws=25, seed=6, block=10, results=results)
    stop[0] = False
    resumed = evaluate_position(CORNER, cells, draws=25, seed=6, block=10, results=results)
    assert played == [0, 10, 20]  # the two finished blocks were read back, not played again
    assert resumed == whole
    # Asking for more draws plays only what is new: the short last block and those after.
    more = evaluate_position(CORNER, cells, draws=40, seed=6, block=10, results=results)
    assert more == evaluate(CORNER, cells, draws=40, seed=6)
    with pytest.raises(InvalidBoardError, match="other settings"):
        evaluate_position(CORNER, cells[:2], draws=40, seed=6, block=10, results=results)
    with pytest.raises(InvalidBoardError, match="not an unrevealed cell"):
        evaluate_position(CORNER, [(0, 0)], draws=5, results=tmp_path / "other.jsonl")
    assert not (tmp_path / "other.jsonl").exists()


def test_positions_are_classified_by_the_documented_rules() -> None:
    def kind(board: list[str], mines: int, a: tuple[int, int], b: tuple[int, int]) -> str:
        return classify(Case(0, tuple(board), mines, a, b))

    # (0, 5)/(1, 5) hold one mine no number can tell apart: a pseudo 50/50 against (0, 3).
    assert kind(["HHHHHH", "H2111H"], 3, (0, 5), (0, 3)) == "fifty-fifty"
    assert kind(["1" + "H" * 9] + ["H" * 10] * 4, 10, (0, 1), (4, 9)) == "opener"
    board = ["0001H", "0112H", "01HHH", "HHHHH", "HHHHH"]
    assert kind(board, 4, (4, 4), (2, 2)) == "far"
    assert kind(board, 4, (2, 2), (0, 4)) == "trade"


def test_bad_position_files_say_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"board": ["1H"], "mines_left": 1}\n')
    with pytest.raises(InvalidBoardError, match="line 1: expected an object"):
        read_cases(path, "jsm_choice", "mines_choice")


def test_the_report_names_both_policies(tmp_path: Path) -> None:
    cases = read_cases(write_positions(tmp_path / "p.jsonl"), "jsm_choice", "mines_choice")
    lines = report(compare(cases, draws=10, seed=1), ("jsm", "mines"))
    assert lines[0].startswith("3 positions: jsm wins")
    assert "jsm - mines = " in lines[0]


def test_progress_is_quiet_off_a_terminal_and_shown_on_one() -> None:
    quiet = io.StringIO()
    with RunProgress(10, unit="games", stream=quiet) as bar:
        bar.advance(5, status="won 50.00%", per_second=2.0)
    assert not bar.shown
    assert quiet.getvalue() == ""
    pytest.importorskip("rich", reason="the progress bar is drawn by rich (the bench extra)")
    shown = io.StringIO()
    with RunProgress(10, unit="games", stream=shown, enabled=True) as bar:
        bar.advance(5, status="won 50.00% (95% 20%-80%)", per_second=2.0)
    assert bar.shown
    text = shown.getvalue()
    assert "5/10" in text
    assert "won 50.00%" in text
    assert "2.0 games/s" in text


def test_a_run_spread_over_a_local_dask_cluster_equals_a_serial_run_and_resumes(
    tmp_path: Path,
) -> None:
    """Blocks spread over two Dask workers give the serial totals; stopped with two blocks
    kept, the same run on the cluster plays only the rest, to the same totals."""
    pytest.importorskip("distributed")
    run = partial(bench.win_rate, 16, 30, 99, condition="safe", games=12, seed=3, block=3)
    serial = run()
    assert 0 < serial.wins < serial.games  # a total that a lost block would change
    results = tmp_path / "run.jsonl"
    spread = run(jobs=2, cluster="local", results=results)
    totals = (serial.games, serial.wins, serial.guesses)
    assert (spread.games, spread.wins, spread.guesses) == totals
    assert spread.played == 12
    header, *blocks = results.read_text(encoding="utf-8").splitlines()
    assert len(blocks) == 4
    results.write_text("\n".join([header, *blocks[:2]]) + "\n", encoding="utf-8")  # stopped
    resumed = run(jobs=2, cluster="local", results=results)
    assert (resumed.games, resumed.wins, resumed.guesses) == totals
    assert resumed.played == 6


def test_an_unreachable_scheduler_is_named_with_what_to_give(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with pytest.raises(ClusterError, match=re.escape("cannot reach a Dask scheduler at 'tcp://")):
        bench.win_rate(9, 9, 10, condition="opening", games=2, cluster="tcp://127.0.0.1:9")
