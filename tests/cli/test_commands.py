"""`mines replay` and `mines stats` as commands, and the replay app through the pilot."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mines.cli.main import main
from mines.game import Game
from mines.placement import FixedPlacer
from mines.tui.sessions import Kept, Sessions
from mines.tui.store import RecordStore
from tests.fake_time import FakeTime
from tests.patience import PATIENCE
from tests.sample_records import won_record


def run_mines(*args: str, data: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MINES_DATA_DIR": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "mines.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=PATIENCE,
        check=False,
    )


def test_replay_through_a_pipe_prints_every_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(won_record().to_json())
    result = run_mines("replay", str(path), data=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Replay of a 4x4 game with 2 mines, 3 moves." in out
    assert "Move 1 of 3, at 0.00s: open (0, 1)." in out
    assert "Move 3 of 3, at 3.00s: chord (0, 1)." in out
    assert "End: You won! Time 3.00s." in out, "the same words as the game uses"
    assert "\n0 F1HH\n" in out, "the board after the flag, with its row number"


def test_the_replay_of_an_unfinished_game_says_so(tmp_path: Path) -> None:
    game = Game(3, 3, 1, seed=2)
    game.reveal(1, 1)
    path = tmp_path / "left.json"
    path.write_text(game.record().to_json())
    out = run_mines("replay", str(path), data=tmp_path).stdout
    assert "End of the record: the game was left unfinished" in out
    assert "Boom" not in out


def test_replay_of_a_bad_file_says_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("[1, 2]")
    result = run_mines("replay", str(tmp_path / "bad.json"), data=tmp_path)
    assert result.returncode == 2
    assert "game record" in result.stderr
    assert "Traceback" not in result.stderr
    missing = run_mines("replay", str(tmp_path / "none.json"), data=tmp_path)
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr


def test_stats_reads_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MINES_DATA_DIR", str(tmp_path))
    time = FakeTime(0.0)
    game = Game(9, 9, 10, placer=FixedPlacer([(i // 9, i % 9) for i in range(10)]), clock=time)
    game.reveal(8, 8)
    RecordStore(tmp_path).save(game)
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "beginner" in out
    assert str(tmp_path) in out


def test_play_in_a_pipe_stays_in_line_mode(tmp_path: Path) -> None:
    result = run_mines("play", "--seed", "3", "--theme", "mono", data=tmp_path, stdin="O0,0\nq\n")
    assert result.returncode == 0, result.stderr
    assert "mines left: 10" in result.stdout
    assert "Bye." in result.stdout
    assert len(list((tmp_path / "unfinished").glob("*.json"))) == 1, "kept, as the app keeps it"


@pytest.mark.parametrize("how", [["--no-guess", "--seed", "3"], ["--game-id", "9x9n10:noguess#3"]])
def test_no_guess_games_start_from_the_solver_rule(tmp_path: Path, how: list[str]) -> None:
    result = run_mines("play", *how, data=tmp_path, stdin="O4,4\nq\n")
    assert result.returncode == 0, result.stderr
    assert "New game 9x9n10:noguess#3" in result.stdout


def test_play_on_a_terminal_starts_the_app(tmp_path: Path) -> None:
    pytest.importorskip("textual", reason="the terminal app needs Textual (the tui extra)")
    pty = pytest.importorskip("pty", reason="needs a POSIX pseudo-terminal")
    import fcntl
    import select
    import struct
    import termios

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "MINES_DATA_DIR": str(tmp_path), "TERM": "xterm-256color"}
    process = subprocess.Popen(
        [sys.executable, "-m", "mines.cli.main", "play", "--seed", "5"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
    )
    os.close(terminal)
    screen = b""
    try:
        for _ in range(120):  # up to a minute on a busy machine
            ready, _, _ = select.select([controller], [], [], 0.5)
            if ready:
                screen += os.read(controller, 65536)
            if b"mines left" in screen and b"Reveal" in screen:
                break
        assert b"beginner" in screen, "the app's status line is drawn on the terminal"
        assert b"Reveal" in screen, "and its key footer"
        os.write(controller, b"q")
        assert process.wait(timeout=PATIENCE) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_play_on_a_terminal_without_textual_falls_back_to_line_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)  # makes `import textual` fail
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--seed", "1"]) == 0
    assert "Bye." in terminal.getvalue()
    assert "needs Textual" in capsys.readouterr().err


def test_stats_beside_a_server_session_file_says_nothing_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MINES_DATA_DIR", str(tmp_path))
    RecordStore(tmp_path).save(finished_game())
    Sessions(tmp_path).put("https://mines.example", Kept(session="cookie", name="ada"))
    assert main(["stats"]) == 0
    captured = capsys.readouterr()
    assert "beginner" in captured.out
    assert captured.err == "", "servers.json is no game record, and no news to the player"


def test_stats_names_what_is_wrong_with_a_damaged_record_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MINES_DATA_DIR", str(tmp_path))
    path = RecordStore(tmp_path).save(finished_game())
    data = json.loads(path.read_text())
    del data["rows"]
    path.write_text(json.dumps(data))
    assert main(["stats"]) == 0
    err = capsys.readouterr().err
    assert f"skipped {path.name}" in err
    assert "'rows' is missing" in err
    assert "KeyError" not in err, err
    assert "Error(" not in err, err


def finished_game() -> Game:
    time = FakeTime(0.0)
    game = Game(9, 9, 10, placer=FixedPlacer([(i // 9, i % 9) for i in range(10)]), clock=time)
    game.reveal(8, 8)
    return game


def test_the_terminal_game_starts_without_the_solver_and_scipy() -> None:
    """`mines play` up to its first screen imports neither: they load when first needed (the
    first reveal's flood, a hint, a review, a no-guess board); `./dev bench start` times it."""
    code = (
        "import sys\n"
        "from mines.cli.main import build_parser\n"
        "build_parser().parse_args(['play'])\n"
        "import mines.cli.play, mines.tui.app\n"
        "from mines.cli.options import game_from_options\n"
        "game_from_options(build_parser().parse_args(['play', '--seed', '3']))\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] == 'scipy' or\n"
        "          (m.startswith('mines.solver.') and m != 'mines.solver.cli')]\n"
        "print(sorted(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=PATIENCE
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
