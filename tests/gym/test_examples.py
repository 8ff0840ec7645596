"""The examples run as their docstrings say (briefly): PPO on the batched env, a race."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the rl extra is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_cleanrl_style_ppo_trains_on_the_batched_env_and_is_evaluated() -> None:
    out = run("ppo_batched.py", "--total-steps", "1024", "--envs", "16", "--eval-episodes", "20")
    assert "1,024 steps" in out
    assert "6x6n5, 20 boards (seed 0): won" in out


def test_a_race_against_the_bot() -> None:
    out = run("race_against_the_bot.py", "--races", "2", "--board", "6", "6", "5")
    assert "player_0 (the policy): won" in out
    assert "player_1 (the Bot): won" in out
    assert "of 2 races" in out
