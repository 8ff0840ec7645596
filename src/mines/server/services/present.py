"""What clients receive: views as JSON, the window a request sees, and the changed cells in it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mines.engine import CellChanges
from mines.placement import PlacementRule
from mines.presets import preset_of
from mines.server.common.errors import InvalidRequestError
from mines.server.common.settings import Settings
from mines.server.db.storage import GameRow
from mines.view import BoardView

Changed = list[tuple[int, int, str]]


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of the board a client asks for; any part left out takes its default."""

    top: int | None = None
    left: int | None = None
    height: int | None = None
    width: int | None = None

    @property
    def given(self) -> bool:
        return any(v is not None for v in (self.top, self.left, self.height, self.width))


Box = tuple[int, int, int, int]
"""(top, left, height, width)."""


def resolve_window(
    window: Window, rows: int, cols: int, settings: Settings, focus: tuple[int, int] | None
) -> Box:
    """The window to show: the one asked for, else the whole board when it is small enough,
    else (after a move) a `settings.move_window` square around the move."""
    if not window.given:
        if rows * cols <= settings.view_limit:
            return 0, 0, rows, cols
        if focus is None:
            raise InvalidRequestError(
                f"the {rows}x{cols} board has more cells than one view may show "
                f"({settings.view_limit:,}); ask for a window, "
                "for example ?top=0&left=0&height=100&width=100"
            )
        height, width = min(rows, settings.move_window), min(cols, settings.move_window)
        top = min(max(focus[0] - height // 2, 0), rows - height)
        left = min(max(focus[1] - width // 2, 0), cols - width)
        return top, left, height, width
    top, left = window.top or 0, window.left or 0
    height = rows - top if window.height is None else window.height
    width = cols - left if window.width is None else window.width
    if not (0 <= top < rows and 0 <= left < cols and height >= 1 and width >= 1) or (
        top + height > rows or left + width > cols
    ):
        raise InvalidRequestError(
            f"the window top={top}, left={left}, height={height}, width={width} does not fit "
            f"the {rows}x{cols} board (rows 0..{rows - 1}, cols 0..{cols - 1})"
        )
    if height * width > settings.view_limit:
        raise InvalidRequestError(
            f"a window of {height * width:,} cells is over the limit of {settings.view_limit:,}"
        )
    return top, left, height, width


def view_json(view: BoardView, elapsed: float, version: int | None = None) -> dict[str, Any]:
    """A view as JSON; `version`, the stored moves it shows, orders a game's views and
    WebSocket frames for a client."""
    answer = {
        "rows": view.rows,
        "cols": view.cols,
        "status": view.status.value,
        "mines_left": view.mines_left,
        "elapsed": round(elapsed, 3),
        "top": view.top,
        "left": view.left,
        "height": view.height,
        "width": view.width,
        "cells": view.to_strings(),
    }
    if version is not None:
        answer["version"] = version
    return answer


def without_cells(view: dict[str, Any]) -> dict[str, Any]:
    """A view's JSON less its cells: a client that asked for the changes patches its copy."""
    return {key: value for key, value in view.items() if key != "cells"}


def in_window(message: dict[str, Any], box: Box) -> dict[str, Any]:
    """A move's WebSocket message with only the changed cells inside `box`."""
    top, left, height, width = box
    changed = [
        cell
        for cell in message["changed"]
        if top <= cell[0] < top + height and left <= cell[1] < left + width
    ]
    return {**message, "changed": changed}


_CELL = re.compile(r"\((\d+), (\d+)\)")


def for_people(text: str) -> str:
    """The solver's sentences, whose cells are `(row, col)` counted from 0 as in the API, with
    each cell named as people count: "(row 1, column 1)" is the top left."""
    return _CELL.sub(lambda m: f"(row {int(m[1]) + 1}, column {int(m[2]) + 1})", text)


def changed_cells(
    view: BoardView, changes: Iterable[CellChanges], limit: int
) -> tuple[Changed, bool]:
    """The changed cells inside the view with their symbols now, at most `limit` of them;
    the flag says whether that is all of them."""
    seen: dict[tuple[int, int], None] = {}
    for change in changes:
        for cell in change.within(view.top, view.left, view.height, view.width):
            if cell not in seen:
                if len(seen) == limit:
                    return [(r, c, view.symbol(r, c)) for r, c in seen], False
                seen[cell] = None
    return [(r, c, view.symbol(r, c)) for r, c in seen], True


def changes_box(changes: Iterable[CellChanges]) -> Box | None:
    """The smallest window holding every changed cell, or None when nothing changed."""
    boxes = [box for change in changes if (box := change.bounds()) is not None]
    if not boxes:
        return None
    top, left = min(b[0] for b in boxes), min(b[1] for b in boxes)
    bottom, right = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return top, left, bottom - top, right - left


def game_facts(row: GameRow) -> dict[str, Any]:
    """What a client shows besides the view: the board (its preset, whether no-guess) and
    whether a win would rank (a ranked kind of game, created signed in, whose player had no
    help so far; a win past the human pace still does not)."""
    return {
        "board": {
            "rows": row.rows,
            "cols": row.cols,
            "mines": row.mines,
            "preset": preset_of(row.rows, row.cols, row.mines),
            "no_guess": row.rule == PlacementRule.NOGUESS,
        },
        "ranks": row.preset is not None and row.account_id is not None and not row.assisted,
    }
