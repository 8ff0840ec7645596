"""The sdist and the wheel: the licence in both, the docs the README links to in the sdist."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import mines

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str]]:
    """The names in a freshly built sdist and wheel, built from a copy of the tree."""
    tree = tmp_path_factory.mktemp("tree")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in listed:
        if (ROOT / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
        capture_output=True,
        check=True,
    )
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    with tarfile.open(sdist) as archive:
        sdist_names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = archive.namelist()
    return sdist_names, wheel_names


def test_the_sdist_carries_the_licence_and_the_docs(
    archives: tuple[list[str], list[str]],
) -> None:
    sdist, _ = archives
    assert "LICENSE" in sdist
    docs = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").iterdir())
    assert docs
    assert set(docs) <= set(sdist)
    assert "README.md" in sdist
    assert "CHANGELOG.md" in sdist  # tests/test_changelog.py reads it


def test_the_wheel_carries_the_licence_and_the_package_data(
    archives: tuple[list[str], list[str]],
) -> None:
    _, wheel = archives
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in wheel), wheel
    for data in ("mines/py.typed", "mines/server/static/index.html", "mines/tui/mines.tcss"):
        assert data in wheel
    assert not any(name.startswith(("tests/", "benchmarks/", "docs/")) for name in wheel)
    # The build took its version from the one source, mines.__version__.
    assert f"mines-{mines.__version__}.dist-info/METADATA" in wheel


def test_the_licence_is_mit_for_the_developers() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the mines developers\n")
