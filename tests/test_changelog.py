"""CHANGELOG.md and the version: one source for the version, and the changelog moves with it."""

from __future__ import annotations

import re
import tomllib
from datetime import date
from pathlib import Path

import mines

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\S+))?$", flags=re.M)
"""A version's heading in the Keep a Changelog style: `## [1.2.0] - 2026-12-02`."""
SEMVER = re.compile(r"^\d+\.\d+\.\d+$")


def sections(text: str) -> list[tuple[str, str | None]]:
    """Each version heading of a changelog, newest first, as (version, date or None)."""
    return [(match["version"], match["date"]) for match in HEADING.finditer(text)]


def latest_release(text: str) -> str:
    """The newest version released in a changelog (the first heading that is not Unreleased)."""
    released = [version for version, _ in sections(text) if version != "Unreleased"]
    if not released:
        raise AssertionError("the changelog has no released version")
    return released[0]


def test_the_latest_release_in_the_changelog_is_the_package_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert latest_release(text) == mines.__version__


def test_the_changelog_keeps_the_style() -> None:
    """Unreleased on top, then releases newest first, each with a semantic version and a date."""
    found = sections((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert found[0] == ("Unreleased", None)
    released = found[1:]
    assert released
    for version, day in released:
        assert SEMVER.match(version), version
        assert day is not None, f"{version} has no date"
        date.fromisoformat(day)
    order = [tuple(int(part) for part in version.split(".")) for version, _ in released]
    assert order == sorted(order, reverse=True)


def test_the_version_has_one_source() -> None:
    """pyproject.toml reads the version from mines.__version__ rather than holding a copy."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert SEMVER.match(mines.__version__)


def test_the_check_reads_what_it_should() -> None:
    text = "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2027-01-05\n\n## [0.1.0] - 2026-12-02\n"
    assert latest_release(text) == "0.2.0"
    assert sections(text)[0] == ("Unreleased", None)
