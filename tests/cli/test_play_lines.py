"""`mines play` in line mode, driven through a pipe as a script or screen reader would."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np

from mines.cli.lines import LineGame
from mines.game import Game
from mines.placement import FixedPlacer
from mines.status import GameStatus
from tests.patience import PATIENCE


def run_play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mines.cli.main", "play", "--plain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


def test_a_game_through_a_pipe() -> None:
    result = run_play(
        "--rows", "3", "--cols", "3", "--mines", "1", "--seed", "5", stdin="O1,1\nq\n"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "New game 3x3n1#5: type help" in out
    assert "HHH" in out
    assert "mines left: 1" in out
    assert out.rstrip().endswith("Bye.")


def test_bad_moves_are_explained_and_the_game_goes_on() -> None:
    result = run_play("--preset", "beginner", "--seed", "1", stdin="hello\nO99,0\no 4 4\nq\n")
    assert "error: cannot read the move 'hello'" in result.stdout
    assert "error: cannot reveal (99, 0): outside the board (rows 0..8, cols 0..8)" in result.stdout
    assert "(4, 4) opened an area of" in result.stdout
    assert result.stdout.count("Playing  mines left") == 1
    # The board at the start, then each error's reply ends with the status line.
    assert result.stdout.count("Ready  mines left") == 3


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
    assert "needs all three of rows, cols and mines; cols and mines are missing" in partial.stderr
    both = run_play("--preset", "expert", "--rows", "9", "--cols", "9", "--mines", "10", stdin="")
    assert both.returncode == 2
    assert "mines: give either a preset or rows, cols and mines, not both" in both.stderr


def test_hint_before_and_after_the_first_click() -> None:
    result = run_play("--preset", "beginner", "--seed", "2", stdin="?\no 4 4\nhint\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Hint: Before the first click every cell is safe" in out
    assert "opens an area" in out
    after = out.split("(4, 4) opened an area", 1)[1]
    assert "Hint: " in after
    assert "Traceback" not in result.stderr


def test_a_board_over_the_view_limit_plays_through_a_window_that_view_moves() -> None:
    # 4000x4000 is 16 million cells: more than one view may hold.
    result = run_play(
        "--rows", "4000", "--cols", "4000", "--mines", "2000000", "--seed", "3",
        stdin="view 2000,3000\no 2000,3000\n?\nview 3999,3999\nview 5000,1\nq\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "limit" not in out
    assert "Rows 1990 to 2009, columns 1980 to 2019, of a 4000x4000 board:" in out
    assert "Rows 1990 to 2009, columns 2980 to 3019, of a 4000x4000 board:" in out
    assert "Rows 3980 to 3999, columns 3960 to 3999" in out
    assert "error: (5000, 1) is outside the board" in out
    assert "Hint: " in out
    assert "\n3999 " in out, "row numbers in full"
    # The tens ruler: 298 over column 2980's units.
    assert "     298       299       300       301\n     0123456789" in out


def head_of(command: str, tmp_path: Path) -> tuple[str, str, int]:
    """Run `command | head -n 3` in bash: head's output, the command's stderr and status."""
    script = f"{command} 2> {tmp_path}/err | head -n 3; echo ${{PIPESTATUS[0]}} > {tmp_path}/code"
    out = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=PATIENCE, check=True
    ).stdout
    return out, (tmp_path / "err").read_text(), int((tmp_path / "code").read_text())


def test_play_into_head_stops_cleanly(tmp_path: Path) -> None:
    (tmp_path / "moves").write_text("board\n" * 3000)
    command = f"{sys.executable} -m mines.cli.main play --plain --seed 1 < {tmp_path}/moves"
    out, err, code = head_of(command, tmp_path)
    assert out.startswith("New game 9x9n10#1")
    assert err == "", "no BrokenPipeError traceback"
    assert code == 141


def test_replay_into_head_stops_cleanly(tmp_path: Path) -> None:
    game = Game(30, 30, 100, seed=4)
    for _ in range(150):
        game.toggle_flag(0, 0)
    (tmp_path / "game.json").write_text(game.record().to_json())
    command = f"{sys.executable} -m mines.cli.main replay {tmp_path}/game.json --plain"
    out, err, code = head_of(command, tmp_path)
    assert out.startswith("Replay of a 30x30 game with 100 mines, 150 moves.")
    assert err == ""
    assert code == 141


def test_a_win_flags_every_mine_and_the_counter_reads_0() -> None:
    # One mine on 9x9: the first click opens all but the mine and the cell behind it.
    game = Game.from_id("9x9n1#4")
    game.reveal(4, 4)
    layout = game.record().layout
    assert layout is not None
    (mine,) = layout
    (last,) = [
        (r, c)
        for r, c in np.argwhere(game.view().array == ord("H")).tolist()
        if (r, c) != tuple(mine)
    ]
    moves = f"o 4 4\no {last[0]},{last[1]}\n"
    out = run_play("--game-id", "9x9n1#4", stdin=moves).stdout
    assert "You won!" in out
    assert "Won!  mines left: 0" in out
    drawn = out.split("Won!  mines left: 0")[0].splitlines()[-10:]  # the board above the status
    board = [line for line in drawn if line[:1].isdigit()]
    assert len(board) == 9
    assert sum(line.count("F") for line in board) == 1, "the mine is drawn flagged"
    assert not any("H" in line for line in board)


def test_big_counts_are_written_with_their_thousands_marked() -> None:
    out = run_play(
        "--rows", "1000", "--cols", "1000", "--mines", "3", "--seed", "4", stdin="o 500,500\n"
    ).stdout
    assert "New game 1000x1000n3#4" in out
    assert "cells." in out
    opened = [line for line in out.splitlines() if "opened an area of" in line]
    assert opened
    assert "," in opened[0].split("of ")[1], opened[0]


def test_line_mode_games_are_saved_and_counted_in_the_stats(data_folder: Path) -> None:
    won = run_play("--game-id", "9x9n1#4", stdin=f"o 4 4\no {winning_cell()}\n")
    assert "You won!" in won.stdout
    assert "Saved: mines stats counts it." in won.stdout
    # The line names the command that reviews the file just saved, ready to run.
    command = next(line for line in won.stdout.splitlines() if "mines review " in line)
    saved = Path(shlex.split(command.split(": ", 1)[1])[2])
    assert saved.parent == data_folder
    assert saved.exists()
    reviewed = subprocess.run(
        [sys.executable, "-m", "mines.cli.main", "review", str(saved)],
        capture_output=True, text=True, timeout=PATIENCE, check=True,
    ).stdout  # fmt: skip
    assert "Won in" in reviewed
    game = Game.from_id("16x30n99#5")
    game.reveal(8, 15)
    layout = game.record().layout
    assert layout is not None
    mine = layout[0]
    lost = run_play("--game-id", "16x30n99#5", stdin=f"o 8,15\no {mine[0]},{mine[1]}\n")
    assert "Boom!" in lost.stdout
    stats = subprocess.run(
        [sys.executable, "-m", "mines.cli.main", "stats"],
        capture_output=True, text=True, timeout=PATIENCE, check=True,
    ).stdout  # fmt: skip
    assert "9x9, 1 mine " in stats
    assert "expert" in stats
    assert not list((data_folder / "unfinished").glob("*.json")), "no game left unfinished"


def winning_cell() -> str:
    """The one safe cell the first click on 9x9n1#4 leaves closed (see the win test above)."""
    game = Game.from_id("9x9n1#4")
    game.reveal(4, 4)
    layout = game.record().layout
    assert layout is not None
    hidden = np.argwhere(game.view().array == ord("H")).tolist()
    (last,) = [(r, c) for r, c in hidden if (r, c) != tuple(layout[0])]
    return f"{last[0]},{last[1]}"


def test_a_line_mode_game_is_kept_after_every_move_and_resumed() -> None:
    first = run_play("--game-id", "16x30n99#5", stdin="o 8,15\nf 0,0\n")  # then the input ends
    assert "The game is kept" in first.stdout
    again = run_play("--preset", "beginner", stdin="kept\nresume 1\nboard\nq\n")
    out = again.stdout
    assert "1 game left unfinished: type kept to list them" in out
    assert "1. expert 16x30n99#5, 2 moves" in out
    assert "Resumed expert 16x30n99#5" in out
    assert "\n 0 F" in out.split("Resumed", 1)[1], "the flag at (0, 0) is back"
    assert "The game is kept" in out
    wrong = run_play(stdin="resume 7\nq\n")
    assert "error: resume needs the number of a kept game from 1 to 1; got '7'" in wrong.stdout


STATUS = re.compile(r"^(Ready|Playing|Won!|Lost)  mines left: -?\d+  time: \d+\.\ds$")
"""The status line: what every reply ends with, so a script reads up to it."""


def test_every_reply_ends_with_the_status_line() -> None:
    out = io.StringIO()
    game = Game(4, 4, 2, placer=FixedPlacer([(0, 0), (3, 3)]))
    player = LineGame(game, out)
    replies = []
    for command in ["?", "hint", "help", "kept", "board", "view 1,1", "bad", "o 9,9", "o 0,1"]:
        out.seek(0)
        out.truncate()
        assert player.reply(command)
        replies.append((command, out.getvalue().splitlines()))
    for command, lines in replies:
        assert lines, command
        assert STATUS.match(lines[-1]), (command, lines[-3:])
    out.seek(0)
    out.truncate()
    assert player.reply("?")
    assert out.getvalue().splitlines()[0].startswith("Hint:")


def test_opening_a_number_chords_as_in_the_terminal_game() -> None:
    out = io.StringIO()
    game = Game(3, 3, 1, placer=FixedPlacer([(0, 0)]))
    player = LineGame(game, out)
    for command in ["o 1,1", "f 0,0", "o 1,1"]:
        assert player.reply(command) or game.status.is_over
    assert game.status is GameStatus.WON, "o on the 1 beside its flag opened the rest"
    assert "Chorded (1, 1)" in out.getvalue()
