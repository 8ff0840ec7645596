"""`./dev bench review`: its games, its figures and its verdicts, on a few small runs."""

from __future__ import annotations

import re

import pytest

from benchmarks import review as bench
from mines import Game, GameStatus
from mines.solver import Verdict, review


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch
) -> tuple[int, str]:
    mp.setattr("sys.argv", ["./dev bench review", *args])
    code = bench.main()
    return code, capsys.readouterr().out


def test_the_bench_times_each_kind_of_game_and_judges_expert(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--games", "2", "--human-games", "2", "--presets", "expert", "beginner", "--no-largest"]
    code, out = run(args, capsys, monkeypatch)
    assert code == 0, out
    for preset in ("expert", "beginner"):
        for kind in ("bot", "human-like"):
            assert re.search(rf"^{preset}, 2 {kind} games .*: review median \d+ ms, p95", out, re.M)
    assert "PASS  Expert bot reviews: median " in out
    assert "PASS  Expert human-like reviews: median " in out
    assert "beginner" not in "".join(re.findall(r"^(?:PASS|FAIL).*$", out, re.M))

    monkeypatch.setattr(bench, "MEDIAN", 0.0)
    code, out = run(
        ["--games", "1", "--human-games", "1", "--presets", "expert", "--no-largest"],
        capsys,
        monkeypatch,
    )
    assert code == 1
    assert "FAIL  Expert bot reviews" in out


def test_the_largest_board_search_stops_past_its_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "SIDES", (8, 10, 12))
    code, out = run(
        ["--games", "1", "--human-games", "1", "--presets", "beginner"], capsys, monkeypatch
    )
    assert code == 0
    assert "largest board: 8x8, 13 mines" in out
    assert "no target: the largest board reviewed exactly within 10 s of CPU: 12x12" in out

    monkeypatch.setattr(bench, "LARGEST_SECONDS", -1.0)  # every review takes longer than this
    code, out = run(
        ["--games", "1", "--human-games", "1", "--presets", "beginner"], capsys, monkeypatch
    )
    assert "largest board: 10x10" not in out
    assert "none of the sizes tried was reviewed within 10 s" in out


def test_a_bad_count_is_a_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["./dev bench review", "--human-games", "0"])
    with pytest.raises(SystemExit) as stopped:
        bench.main()
    assert stopped.value.code == 2
    assert "--human-games must be at least 1, got 0" in capsys.readouterr().err


def test_the_human_like_games_make_the_mistakes_the_review_names() -> None:
    games = [review(bench.human_game("intermediate", seed)) for seed in range(20)]
    assert {m.verdict for game in games for m in game.moves} == set(Verdict)


def test_the_lucky_bot_always_finishes_a_won_game() -> None:
    for seed in range(3):
        record = bench.large_game(20, seed)
        assert record.status is GameStatus.WON
        assert review(record).lost_on is None


def test_on_no_guess_boards_every_risk_is_avoidable() -> None:
    """A no-guess board is cleared by deduction from its first click, and a player who has
    seen more can deduce at least as much: a certainly safe cell exists at every move, so no
    move there is a `GUESS` or `RISKY`, whatever the human-like player does."""
    risky = 0
    for seed in range(12):
        game = Game.from_id(f"16x16n40:noguess#{seed}")
        bench.HumanLike(seed).play(game)
        first, *rest = review(game.record()).moves
        assert first.verdict is Verdict.LOGIC  # the rule keeps the first click's block free
        for move in rest:
            assert move.safe_known, (seed, move.index)
            assert move.verdict not in (Verdict.GUESS, Verdict.RISKY)
            risky += move.risk > 0
    assert risky > 0, "the player took some risks, all of them avoidable"
