"""The classic difficulty presets, and the one answer to "a preset, or rows, cols and mines"."""

from __future__ import annotations

from typing import NamedTuple

from mines.errors import InvalidBoardError
from mines.params import check_board


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
    """The preset called `name`, in any case."""
    found = PRESETS.get(name.lower()) if isinstance(name, str) else None
    if found is None:
        raise InvalidBoardError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    return found


_named = preset
"""`preset`, under a name that `board_size`'s parameter of the same name does not hide."""


def preset_of(rows: int, cols: int, mines: int) -> str | None:
    """The name of the preset with these dimensions, if any."""
    for p in PRESETS.values():
        if (p.rows, p.cols, p.mines) == (rows, cols, mines):
            return p.name
    return None


class BoardSize(NamedTuple):
    """A board's size and mine count, as `board_size` resolves a request for one."""

    rows: int
    cols: int
    mines: int


def board_size(
    *,
    preset: str | None = None,
    rows: int | None = None,
    cols: int | None = None,
    mines: int | None = None,
    default: str | None = None,
) -> BoardSize:
    """The board a request names: a preset, or all three of rows, cols and mines.

    Every front end asks this one question the same way. A preset and a size together are
    refused, even when they agree (which of the two was meant cannot be known); so is a size
    with a part missing. With neither, the `default` preset, or a refusal when there is none.
    The size is checked as `Game` checks it; a front end's own limits (a server's largest
    board) are for the caller to add. Every refusal is an `InvalidBoardError`.
    """
    size = {"rows": rows, "cols": cols, "mines": mines}
    given = [name for name, value in size.items() if value is not None]
    if preset is not None and given:
        raise InvalidBoardError(
            f"give either a preset or rows, cols and mines, not both (got preset {preset!r} "
            f"and {', '.join(given)})"
        )
    if preset is not None:
        return BoardSize(*_named(preset)[1:])
    if given and len(given) < len(size):
        missing = [name for name in size if name not in given]
        raise InvalidBoardError(
            f"a custom board needs all three of rows, cols and mines; {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing"
        )
    if given:
        return BoardSize(*check_board(rows, cols, mines))
    if default is None:
        raise InvalidBoardError("give a preset, or all three of rows, cols and mines")
    return BoardSize(*_named(default)[1:])
