"""Progress of a long run on a terminal (through `rich`), and nothing when the output is not one."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO

MISSING = "progress is shown with the 'bench' extra: pip install 'mines[bench]'"


class RunProgress:
    """A bar with what a researcher wants to watch: done out of all, a status line (such as
    the running win rate with its interval), the rate per second and the time left.

    Quiet when `stream` is not a terminal (a log, a pipe, CI) or `enabled` is False; on a
    terminal without `rich` installed, it says once which extra shows it.
    """

    def __init__(
        self,
        total: int,
        *,
        unit: str,
        done: int = 0,
        stream: TextIO | None = None,
        enabled: bool | None = None,
    ):
        self.stream = stream or sys.stderr
        show = self.stream.isatty() if enabled is None else enabled
        self._bar: Any = None
        self._task: Any = None
        if not show:
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            print(MISSING, file=self.stream)
            return
        self._bar = Progress(
            TextColumn(f"{unit}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[status]}"),
            TextColumn("{task.fields[speed]}"),
            TimeRemainingColumn(),
            console=Console(file=self.stream),
            transient=False,
        )
        self._task = self._bar.add_task(unit, total=total, completed=done, status="", speed="")
        self._unit = unit

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def advance(self, count: int, *, status: str = "", per_second: float | None = None) -> None:
        """`count` more done; `status` replaces the status line; `per_second` the speed."""
        if self._bar is None:
            return
        speed = f"{per_second:.1f} {self._unit}/s" if per_second else ""
        self._bar.update(self._task, advance=count, status=status, speed=speed)

    def __enter__(self) -> RunProgress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
