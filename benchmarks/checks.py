"""PASS/FAIL lines for benchmark targets, and the exit code they add up to."""

from __future__ import annotations


class Checks:
    """Prints each target as it is measured and remembers the ones that missed."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def report(self, name: str, ok: bool, text: str) -> None:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {text}", flush=True)
        if not ok:
            self.failures.append(name)

    @property
    def exit_code(self) -> int:
        return 1 if self.failures else 0
