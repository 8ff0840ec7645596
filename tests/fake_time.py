"""A time source for tests: it stands still until the test moves it."""

from __future__ import annotations


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
