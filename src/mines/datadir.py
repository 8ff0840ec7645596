"""The one data folder where every part of `mines` keeps its files (saved games, the server's)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DATA_DIR_VARIABLE = "MINES_DATA_DIR"


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """`$MINES_DATA_DIR`, else `$XDG_DATA_HOME/mines`, else `~/.local/share/mines`.

    Only the path: the folder is made by whoever first writes to it.
    """
    if folder := environ.get(DATA_DIR_VARIABLE):
        return Path(folder).expanduser()
    if xdg := environ.get("XDG_DATA_HOME"):
        return Path(xdg).expanduser() / "mines"
    return Path.home() / ".local" / "share" / "mines"
