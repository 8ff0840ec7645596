"""A test's missing service (PostgreSQL, Redis, Chromium, nginx): a skip with the reason on a
laptop, a failure under CI (`CI=true`), where a green run must mean every test ran."""

from __future__ import annotations

import os
from types import ModuleType
from typing import NoReturn

import pytest

TRUE = ("1", "true", "yes", "on")


def in_ci() -> bool:
    """Whether this run is CI's (`CI` set to true, as GitHub, GitLab and `.ci/run` set it)."""
    return os.environ.get("CI", "").strip().lower() in TRUE


def service_missing(reason: str) -> NoReturn:
    """Skip the test for `reason`; under CI, fail it: CI installs and starts every service."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a test's missing service fails the run)", pytrace=False)
    pytest.skip(reason)


def import_for_service(name: str, reason: str) -> ModuleType:
    """`pytest.importorskip` that fails under CI, for a service's client library."""
    try:
        return __import__(name)
    except ImportError:
        service_missing(reason)


def unless_present(present: bool, reason: str) -> pytest.MarkDecorator:
    """A mark skipping the tests when the service is absent, except under CI: there they run
    and their fixture (`service_missing`) fails them with the reason."""
    return pytest.mark.skipif(not present and not in_ci(), reason=reason)
