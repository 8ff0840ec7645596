"""A missing service skips a test on a laptop and fails it under CI (`tests/services.py`)."""

from __future__ import annotations

import pytest

from tests.services import import_for_service, service_missing, unless_present


def test_a_missing_service_skips_with_its_reason_outside_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Redis is not reachable"):
        service_missing("Redis is not reachable at redis://nowhere")
    assert unless_present(False, "why").args == (True,)


@pytest.mark.parametrize("value", ["true", "1", "TRUE"])
def test_a_missing_service_fails_under_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="nginx is not installed"):
        service_missing("nginx is not installed")
    with pytest.raises(pytest.fail.Exception, match="needs a client"):
        import_for_service("mines_no_such_module", "needs a client")
    assert unless_present(False, "why").args == (False,)


def test_a_present_service_is_never_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert unless_present(True, "why").args == (False,)
