"""What clients see of a race room: the room as a player or a watcher sees it, its events,
and a finished round's replay frames, as JSON."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from mines.clock import PinnedClock
from mines.presets import preset_of
from mines.race import MAX_PLAYERS, ROOM, Race, RaceAction, RaceEvent, RaceMove, RaceState
from mines.server.services.present import view_json
from mines.server.services.race_spec import build_race


def room_json(room_id: str, race: Race, player: int | None, now: float) -> dict[str, Any]:
    """A room as `player` sees it (None: a watcher) at wall time `now`: `RoomOut`'s shape."""
    return {
        "id": room_id,
        "state": race.state.value,
        "mode": race.settings.mode.value,
        "on_mine": race.settings.on_mine.value,
        "rule": race.rule,
        "seq": len(race.events),
        "starts_in": max(0.0, round(race.starts_at - now, 3))
        if race.state is RaceState.RACING
        else None,
        "you": player,
        "winner": race.winner if race.state is RaceState.OVER else None,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "score": p.score,
                "out": p.out,
                "frozen_for": max(0.0, round(p.frozen_until - now, 3)),
                "progress": round(share, 4),
            }
            for p, share in zip(race.players, race.progress(), strict=True)
        ],
        "view": view_json(race.view(player), 0.0),
        "openers": race.openers(player),
        "seed": race.seed if race.state is RaceState.OVER else None,
    }


def lobby_json(room_id: str, spec: dict[str, Any], race: Race) -> dict[str, Any]:
    """A public room as the lobby lists it: its name, its board and rules, who is in it."""
    rows, cols, mines = spec["rows"], spec["cols"], spec["mines"]
    return {
        "id": room_id,
        "name": spec.get("name") or (race.players[0].name if race.players else ""),
        "state": race.state.value,
        "board": {
            "rows": rows,
            "cols": cols,
            "mines": mines,
            "preset": preset_of(rows, cols, mines),
            "rule": race.rule,
        },
        "mode": race.settings.mode.value,
        "players": [player.name for player in race.players],
        "max_players": race.settings.max_players,
    }


def event_json(event: RaceEvent) -> dict[str, Any]:
    """A race event as answers and live updates carry it."""
    return {
        "seq": event.seq,
        "kind": event.kind.value,
        "player": event.player,
        "cells": [list(cell) for cell in event.cells],
        "scores": list(event.scores),
        "progress": [round(share, 4) for share in event.progress],
    }


OPENERS = {str(player): player for player in range(MAX_PLAYERS)} | {"*": ROOM}
"""`Race.openers`' marks as the players' ids (-1: nobody, `ROOM`: opened for everyone)."""
SEEN_MOVES = (RaceAction.OPEN, RaceAction.CHORD, RaceAction.REMATCH)
"""The moves a watcher sees (a flag is its player's alone, the lobby's moves change no cell)."""


def replay_frames(spec: dict[str, Any], log: list[RaceMove]) -> dict[str, Any]:
    """The log played again as a watcher saw it: the board at the start, then per move it
    saw the cells it changed, who opened each (-1: nobody), and the scores after it."""
    clock = PinnedClock(time.time)
    race = build_race(spec, clock)
    box = (0, 0, race.rows, race.cols)
    previous = race.view(None)
    initial = previous.to_strings()
    frames = []
    elapsed = 0.0
    for move in log:
        # The round the move belongs to: a rematch's frame closes the round before it.
        started = race.starts_at
        with clock.pinned_at(move.at):
            race.play(move)
        if move.action not in SEEN_MOVES:
            continue
        view = race.view(None)
        rows, cols = np.nonzero(previous.array != view.array)
        openers = race.openers(None)
        cells = list(zip(rows.tolist(), cols.tolist(), strict=True))
        elapsed = round(max(0.0, move.at - started), 3)
        frames.append(
            {
                "move": move.action.value,
                "player": move.player,
                "time": elapsed,
                "status": view.status.value,
                "mines_left": view.mines_left,
                "changed": [[r, c, chr(view.array[r, c])] for r, c in cells],
                "openers": [OPENERS.get(openers[r][c], -1) for r, c in cells],
                "scores": [player.score for player in race.players],
            }
        )
        previous = view
    top, left, height, width = box
    return {
        "top": top,
        "left": left,
        "height": height,
        "width": width,
        "initial": initial,
        "frames": frames,
        "final": view_json(previous, elapsed),
        "players": [player.name for player in race.players],
    }
