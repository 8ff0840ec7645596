"""`mines play` in a real terminal (tmux): a game survives its terminal closing and a kill -9,
and a resize, however it came, looks like a fresh start at that size."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.patience import PATIENCE

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="needs tmux (./dev test installs Debian's tmux where apt can)"
)


class Terminal:
    """A tmux server of the test's own, its sessions each a terminal running one command."""

    def __init__(self, data: Path) -> None:
        self.socket = f"mines-test-{uuid.uuid4().hex[:12]}"
        self.data = data

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        # Without COLUMNS and LINES (pytest sets them to its own terminal's size): a program
        # in the terminal reads them before the terminal's real size.
        env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
        return subprocess.run(
            [TMUX, "-L", self.socket, "-f", os.devnull, *args],
            capture_output=True, text=True, timeout=PATIENCE, check=True, env=env,
        ).stdout  # fmt: skip

    def start(self, session: str, *args: str, size: tuple[int, int] = (100, 30)) -> None:
        """`mines play ARGS` in a new terminal of `size` (columns, lines)."""
        command = " ".join(
            [f"MINES_DATA_DIR={self.data}", "TERM=xterm-256color", "exec", sys.executable,
             "-m", "mines.cli.main", "play", *args]
        )  # fmt: skip
        width, height = size
        self.tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height),
                  command)  # fmt: skip

    def screen(self, session: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", session)

    def keys(self, session: str, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", "-t", session, key)

    def wait_for(self, session: str, ready: Callable[[str], bool]) -> str:
        """The screen once `ready` says it is (a guard against a hang, not a speed target)."""
        deadline = time.monotonic() + PATIENCE
        while True:
            screen = self.screen(session)
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the terminal never got there; it shows:\n{screen}")
            time.sleep(0.1)

    def steady(self, session: str) -> str:
        """The screen once it has not changed for half a second: the app has drawn all it
        had to after a resize (a guard against a hang waits past that, not a speed target)."""
        deadline = time.monotonic() + PATIENCE
        last = self.screen(session)
        while True:
            time.sleep(0.5)
            screen = self.screen(session)
            if screen == last:
                return screen
            assert time.monotonic() < deadline, f"the screen never settled:\n{screen}"
            last = screen

    def pid(self, session: str) -> int:
        return int(self.tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path / "data")
    try:
        yield term
    finally:
        term.close()


def status_of(screen: str) -> str:
    return screen.splitlines()[0]


def gone(pid: int) -> bool:
    """Whether the process has ended (it is not our child: tmux's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_gone(pid: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while not gone(pid):
        assert time.monotonic() < deadline, f"process {pid} did not end"
        time.sleep(0.1)


def kept_files(data: Path) -> list[Path]:
    return sorted((data / "unfinished").glob("*.json"))


def play_some(terminal: Terminal, session: str) -> str:
    """Start expert 16x30n99#5, open the middle and flag a cell: the status line after."""
    terminal.start(session, "--game-id", "16x30n99#5")
    terminal.wait_for(session, lambda s: "mines left 99" in s and "Ready" in s)
    terminal.keys(session, "Space")
    terminal.wait_for(session, lambda s: "Playing" in s)
    terminal.keys(session, "k", "k", "h", "f")
    return status_of(terminal.wait_for(session, lambda s: "mines left 98" in s))


@pytest.mark.parametrize("how", ["kill-session", "kill -9"])
def test_a_game_survives_its_terminal_closing_or_a_kill(terminal: Terminal, how: str) -> None:
    play_some(terminal, "first")
    pid = terminal.pid("first")
    if how == "kill-session":
        terminal.tmux("kill-session", "-t", "first")  # the terminal closes: SIGHUP
    else:
        os.kill(pid, 9)
    wait_gone(pid)
    assert len(kept_files(terminal.data)) == 1
    terminal.start("second")
    offer = terminal.wait_for("second", lambda s: "left unfinished" in s)
    assert "expert 16x30n99#5, 2 moves" in offer
    terminal.keys("second", "Enter")
    resumed = terminal.wait_for("second", lambda s: "Resumed" in s)
    assert "mines left 98" in status_of(resumed)
    assert "Playing" in status_of(resumed)
    second = terminal.pid("second")
    terminal.keys("second", "q")
    wait_gone(second)
    assert len(kept_files(terminal.data)) == 1, "the same game, kept in its file"


def screen_at(terminal: Terminal, session: str, sizes: list[tuple[int, int]]) -> str:
    """The screen of a new expert game after its terminal took each size in turn."""
    terminal.start(session, "--game-id", "16x30n99#5", size=sizes[0])
    terminal.wait_for(session, lambda s: "Ready" in s or "Make the terminal" in s)
    terminal.steady(session)
    for width, height in sizes[1:]:
        terminal.tmux("resize-window", "-t", session, "-x", str(width), "-y", str(height))
        size = terminal.tmux(
            "display-message", "-p", "-t", session, "#{window_width}x#{window_height}"
        )
        assert size.strip() == f"{width}x{height}"
        terminal.steady(session)
    return terminal.steady(session)


def test_a_resize_looks_like_a_fresh_start_at_that_size(terminal: Terminal) -> None:
    fresh = screen_at(terminal, "fresh", [(60, 20)])
    assert "cursor" not in fresh, "at 60x20 the whole expert board fits: no position line"
    assert "mines left 99" in status_of(fresh)
    for n, sizes in enumerate(
        [[(80, 24), (60, 20)], [(60, 20), (62, 20), (60, 20)], [(39, 10), (60, 20)]]
    ):
        resized = screen_at(terminal, f"resized{n}", sizes)
        assert resized == fresh, f"{sizes}:\n{resized}\nagainst a fresh start:\n{fresh}"


def test_keys_work_after_the_too_small_notice(terminal: Terminal) -> None:
    terminal.start("small", "--game-id", "16x30n99#5", size=(80, 24))
    terminal.wait_for("small", lambda s: "Ready" in s)
    terminal.steady("small")
    terminal.tmux("resize-window", "-t", "small", "-x", "39", "-y", "10")
    terminal.wait_for("small", lambda s: "Make the terminal at least" in s)
    terminal.tmux("resize-window", "-t", "small", "-x", "80", "-y", "24")
    terminal.wait_for("small", lambda s: "Ready" in s)
    terminal.keys("small", "Space")
    assert "Playing" in status_of(terminal.wait_for("small", lambda s: "Playing" in s))


def test_keys_typed_while_the_game_starts_are_not_lost(terminal: Terminal) -> None:
    """Keys sent at once, before the first screen (the interpreter is still importing):
    three flags, a step right between each, all reach the board."""
    terminal.start("early", "--game-id", "16x30n99#5")
    terminal.keys("early", "f", "l", "f", "l", "f")
    status = status_of(terminal.wait_for("early", lambda s: "mines left 96" in s))
    assert "Ready" in status
