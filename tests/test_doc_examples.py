"""Every ```python block of README.md and docs/*.md runs as written, in order, per file.

A file's blocks share one namespace, as a reader typing them one after the other would, so
a later block may use what an earlier one made. A block that is not meant to run on its own
(an excerpt, or code that needs a running server) is tagged ```python fragment: it is still
highlighted as Python, and this test leaves it out. Any other Python-like tag (```py,
```python3, ```pycon) fails here, so that no example is skipped by a typo.
"""

from __future__ import annotations

import contextlib
import io
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```", flags=re.S | re.M)
"""A fenced block, also one indented in a list item: its indent, tag and code."""
RUNS, FRAGMENT = "python", "python fragment"
EXTRAS = {"rl.md": ("gymnasium", "torch", "sb3_contrib")}
"""Modules a file's examples need beyond the core (its extra is installed in CI)."""


def blocks(path: Path) -> list[tuple[str, int, str]]:
    """(tag, first line number, code) of every fenced block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [
        (match[2].strip(), text.count("\n", 0, match.start()) + 2, textwrap.dedent(match[3]))
        for match in FENCE.finditer(text)
    ]


def run_examples(path: Path) -> str:
    """Run a file's runnable blocks in order in one namespace; return what they printed."""
    namespace: dict[str, object] = {"__name__": f"docs:{path.name}"}
    out = io.StringIO()
    for tag, line, code in blocks(path):
        if tag != RUNS:
            continue
        # Padded with blank lines so a traceback points at the line of the Markdown file.
        compiled = compile("\n" * (line - 1) + code, str(path), "exec")
        with contextlib.redirect_stdout(out):
            exec(compiled, namespace)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Examples that save something save it in a scratch folder, not the user's data."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MINES_DATA_DIR", str(tmp_path / "data"))


@pytest.mark.parametrize("path", DOCS, ids=[path.name for path in DOCS])
def test_python_tags_are_known(path: Path) -> None:
    unknown = [
        (line, tag)
        for tag, line, _ in blocks(path)
        if tag.lower().startswith("py") and tag not in (RUNS, FRAGMENT)
    ]
    assert not unknown, f"use ```{RUNS} (runs) or ```{FRAGMENT} (does not): {unknown}"


RUNNABLE = [path for path in DOCS if any(tag == RUNS for tag, _, _ in blocks(path))]


@pytest.mark.parametrize("path", RUNNABLE, ids=[path.name for path in RUNNABLE])
def test_examples_run_in_order(path: Path) -> None:
    for module in EXTRAS.get(path.name, ()):
        pytest.importorskip(module, reason=f"{path.name}'s examples need {module}")
    run_examples(path)


def test_readme_observers_see_the_moves_of_the_tour() -> None:
    """The README's observers are registered before its moves, so they print; its chord
    opens cells, and its puzzle's status observer prints the win."""
    printed = run_examples(ROOT / "README.md").splitlines()
    changed = [int(line.split()[0]) for line in printed if "cells changed" in line]
    # The first reveal opens 9, the flag changes 1, the chord opens (1, 3), then (1, 4) and
    # the 11 its zero floods to, the flag given as text 1.
    assert changed == [9, 1, 1, 12, 1], printed
    assert "game over: WON" in printed
