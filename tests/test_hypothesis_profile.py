"""The shared Hypothesis profile is in force: no test can fail on a slow machine's timings."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def test_no_hypothesis_test_has_a_deadline() -> None:
    default = settings()  # what every test gets, an explicit @settings(...) included
    assert default.deadline is None
    assert settings(max_examples=5).deadline is None
    assert HealthCheck.too_slow in default.suppress_health_check
