"""Where a server keeps its games by default: a SQLite file in the data folder of `mines`."""

from __future__ import annotations

from pathlib import Path

from mines.datadir import data_dir


def default_database(folder: Path | None = None) -> str:
    """The SQLite file `mines.sqlite3` in `folder`, by default the data folder of `mines`."""
    return f"sqlite:///{(folder or data_dir()) / 'mines.sqlite3'}"
