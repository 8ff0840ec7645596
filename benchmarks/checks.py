"""What every benchmark shares: CPU-time measurements and the PASS/FAIL lines of its targets."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def cpu_seconds(task: Callable[[], object]) -> float:
    """CPU seconds of one run of `task`: time spent waiting for a core is not counted."""
    gc.collect()
    start = time.process_time()
    task()
    return time.process_time() - start


def best_of(repeats: int, task: Callable[[], object]) -> float:
    """The least CPU time of several runs: the run least disturbed by what else the machine does."""
    return min(cpu_seconds(task) for _ in range(repeats))


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
