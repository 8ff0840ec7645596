"""`mines play` in line mode, driven through a pipe as a script or screen reader would."""

from __future__ import annotations

import subprocess
import sys


def run_play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mines.cli.main", "play", "--plain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_game_through_a_pipe() -> None:
    result = run_play(
        "--rows", "3", "--cols", "3", "--mines", "1", "--seed", "5", stdin="O1,1\nq\n"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "New game 3x3n1#5" in out
    assert "HHH" in out
    assert "mines left: 1" in out
    assert out.rstrip().endswith("Bye.")


def test_bad_moves_are_explained_and_the_game_goes_on() -> None:
    result = run_play("--preset", "beginner", "--seed", "1", stdin="hello\nO99,0\no 4 4\nq\n")
    assert "error: cannot read the move 'hello'" in result.stdout
    assert "error: cannot reveal (99, 0): outside the board (rows 0..8, cols 0..8)" in result.stdout
    assert result.stdout.count("IN_PROGRESS") == 2


def test_a_win_ends_the_game() -> None:
    result = run_play("--game-id", "3x3n0#1", stdin="O0,0\n")
    assert "You won!" in result.stdout
    assert result.returncode == 0


def test_bad_options_give_a_message_not_a_traceback() -> None:
    result = run_play("--rows", "3", "--cols", "0", "--mines", "1", stdin="")
    assert result.returncode == 2
    assert "mines: cols must be at least 1" in result.stderr
    assert "Traceback" not in result.stderr
    partial = run_play("--rows", "3", stdin="")
    assert "needs all three of --rows, --cols and --mines" in partial.stderr
