"""`mines review FILE`: the summary and the guesses as text, the whole review as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mines.cli.main import main
from mines.game import Game
from mines.placement import FixedPlacer
from mines.record import GameRecord
from tests.fake_time import FakeTime


def lost_game() -> GameRecord:
    """A 3x5 game on a fixed layout: a wrong flag, a guess at 1 in 3 that survives, then a
    reveal beside a certainly safe cell that hits the mine."""
    clock = FakeTime(0.0)
    game = Game(3, 5, 2, placer=FixedPlacer([(0, 1), (2, 4)]), clock=clock)
    for text in ("O0,0", "F2,2", "O1,1", "O0,1"):
        clock.now += 1.5
        game.play(text)
    return game.record()


def write(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def test_review_prints_the_summary_and_the_guesses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(write(tmp_path, lost_game()))]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Review of a 3x5 game with 2 mines (first click: fixed), lost after 4 moves."
    # The losing guess counts as any other: it is the avoidable one.
    assert lines[1] == (
        "Lost in 4.50s, 4 clicks. 3 guesses, the losing one included. 1 avoidable move (a "
        "certainly safe cell existed) and 1 risky move (a much safer cell existed). The 2 "
        "risks survived before the losing move had a 57.8% chance to all go well. Lost on an "
        "avoidable guess: a certainly safe cell existed. The board's 3BV: 3."
    )
    assert lines[2:] == [
        "Guesses and wrong flags:",
        "  move 1 at 0.00s, open (0, 0): A guess at 13.3%: the game's rule (fixed) "
        "promises nothing for the first click.",
        "  move 2 at 1.50s, flag (2, 2): A flag on a cell that was not certainly "
        "a mine: a 9.1% chance, and it was safe.",
        "  move 3 at 3.00s, open (1, 1): A guess at 33.3% where a 9.1% cell existed.",
        "  move 4 at 4.50s, open (0, 1): Hit a mine. A guess at 50% where a certainly "
        "safe cell existed.",
    ]


def test_review_lists_every_move_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "--all", str(write(tmp_path, lost_game()))]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  move")]
    assert [line.split(":")[0] for line in listed] == [
        "  move 1 at 0.00s, open (0, 0)",
        "  move 2 at 1.50s, flag (2, 2)",
        "  move 3 at 3.00s, open (1, 1)",
        "  move 4 at 4.50s, open (0, 1)",
    ]


def test_review_as_json_for_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--json", str(write(tmp_path, lost_game()))]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "LOST"
    assert [m["verdict"] for m in data["moves"]][-1] == "lost"
    assert data["lost_on"] in ("guess", "risky", "avoidable")


def test_a_game_without_guesses_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Under the opening rule the first reveal is certainly safe, and (0, 0) opens the board
    # but for the mine's corner, which the numbers then give away.
    game = Game(3, 3, 1, placer=FixedPlacer([(2, 2)]), clock=FakeTime(0.0))
    game.reveal(0, 0)
    assert game.status.value == "WON"
    record = GameRecord.from_dict({**game.record().to_dict(), "rule": "opening"})
    assert main(["review", str(write(tmp_path, record))]) == 0
    out = capsys.readouterr().out
    assert "No guesses: every move was certainly safe." in out
    assert out.rstrip().endswith("No guesses and no wrong flags.")


def test_a_game_in_progress_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(4, 4, 3, seed=2)
    game.reveal(0, 0)
    assert main(["review", str(write(tmp_path, game.record()))]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "mines: a review needs a finished game: this one is still in progress (finish it first)\n"
    )


def test_a_missing_file_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "nothing.json")]) == 2
    assert capsys.readouterr().err.startswith(f"mines: cannot read {tmp_path / 'nothing.json'}")


def test_review_needs_only_the_core(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for extra_module in ("textual", "fastapi", "uvicorn", "gymnasium", "rich", "psycopg"):
        monkeypatch.setitem(sys.modules, extra_module, None)  # `import` of it now fails
    assert main(["review", str(write(tmp_path, lost_game()))]) == 0
    assert "Guesses and wrong flags:" in capsys.readouterr().out
