"""The classic difficulty presets."""

from __future__ import annotations

from typing import NamedTuple

from mines.errors import InvalidBoardError


class Preset(NamedTuple):
    name: str
    rows: int
    cols: int
    mines: int


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("beginner", 9, 9, 10),
        Preset("intermediate", 16, 16, 40),
        Preset("expert", 16, 30, 99),
    )
}


def preset(name: str) -> Preset:
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise InvalidBoardError(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None


def preset_of(rows: int, cols: int, mines: int) -> str | None:
    """The name of the preset with these dimensions, if any."""
    for p in PRESETS.values():
        if (p.rows, p.cols, p.mines) == (rows, cols, mines):
            return p.name
    return None
