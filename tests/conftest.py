"""Shared test settings: one Hypothesis profile with no timing checks, loaded for every test."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# A shared, loaded CI machine makes any timing check flaky, so none is used: no per-example
# deadline and no health check that measures speed. Every @settings(...) inherits this profile.
settings.register_profile(
    "mines",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("mines")
