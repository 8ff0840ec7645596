"""Stand-ins for the review's worker job, run in a real worker process: each counts its starts
in a file beside the test's SQLite database, so a test can see whether a worker ran."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from mines.server.common.settings import Settings
from mines.server.services.reviews import review_in_worker
from mines.solver.game_review import ReviewTooLargeError
from tests.patience import PATIENCE

STARTS = "review-starts"
GO = "review-go"


def folder(settings: Settings) -> Path:
    """The folder of the test's SQLite database (`sqlite:///folder/file`)."""
    return Path(settings.database.removeprefix("sqlite:///")).parent


def starts(settings: Settings) -> list[str]:
    """The games whose review a worker started, one line each."""
    path = folder(settings) / STARTS
    return path.read_text().split() if path.exists() else []


def _count(settings: Settings, game_id: str) -> None:
    with (folder(settings) / STARTS).open("a") as out:
        out.write(game_id + "\n")


def counted(settings: Settings, game_id: str) -> bytes:
    """The real review, its start counted."""
    _count(settings, game_id)
    return review_in_worker(settings, game_id)


def gated(settings: Settings, game_id: str) -> bytes:
    """The real review, its start counted, once the test has made the file `GO`."""
    _count(settings, game_id)
    deadline = time.monotonic() + PATIENCE
    while not (folder(settings) / GO).exists():
        if time.monotonic() > deadline:
            raise AssertionError("the test never let the review go on")
        time.sleep(0.01)
    return review_in_worker(settings, game_id)


def killed(settings: Settings, game_id: str) -> bytes:
    """A worker that dies as if the kernel's OOM killer had chosen it."""
    _count(settings, game_id)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not reached")


def greedy(settings: Settings, game_id: str) -> bytes:
    """A review that needs more memory than a worker may use (2 GiB at once)."""
    _count(settings, game_id)
    return bytes(2 * 2**30)


def tangled(settings: Settings, game_id: str) -> bytes:
    """The solver's refusal of a position too tangled to count, as `review` raises it."""
    _count(settings, game_id)
    raise ReviewTooLargeError("move 2 (O1,1): the position is too tangled to review exactly")
