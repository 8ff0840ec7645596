"""A results file for long runs: one JSON line per finished block, so a stopped run resumes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mines.errors import InvalidBoardError

Record = dict[str, Any]


class BlockLog:
    """Finished blocks of a run, each kept as one JSON line under its key as soon as it ends.

    The first line records the run's settings; a file written for other settings is
    refused rather than mixed with this run's results. Opening an existing file reloads
    its blocks, so the caller plays only the blocks it lacks. A line cut short by a
    crash mid-write is ignored (its block is played again).
    """

    def __init__(self, path: str | os.PathLike[str] | None, settings: Record):
        self.path = Path(path) if path is not None else None
        self.settings = settings
        self.done: dict[str, Record] = {}
        if self.path is None:
            return
        if self.path.exists() and self.path.stat().st_size:
            self._load(self.path)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._write({"settings": settings})

    def _load(self, path: Path) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()
        try:
            header = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            header = None
        if not isinstance(header, dict) or header.get("settings") != self.settings:
            found = header.get("settings") if isinstance(header, dict) else None
            raise InvalidBoardError(
                f"the results file {path} was written for other settings ({found}), not "
                f"{self.settings}: give another --results file, or the same settings to resume"
            )
        for line in lines[1:]:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # cut short by a stop mid-write: that block is played again
            if isinstance(record, dict) and "block" in record:
                self.done[str(record["block"])] = record

    def _write(self, record: Record) -> None:
        assert self.path is not None
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def add(self, key: str, record: Record) -> None:
        """Keep a finished block (in memory, and on disk when there is a file)."""
        record = {"block": key, **record}
        self.done[key] = record
        if self.path is not None:
            self._write(record)
