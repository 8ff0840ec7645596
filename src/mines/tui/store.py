"""Saved games: each finished game's record as a JSON file in the data folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.record import GameRecord


@dataclass(frozen=True)
class SavedGame:
    """A finished game's record and what the app noted beside it."""

    record: GameRecord
    practice: bool = False
    """Played with undo allowed; such games do not count in the stats."""
    hints: int = 0
    three_bv: int | None = None


def read_saved(text: str) -> SavedGame:
    """A saved game from its JSON; a plain `GameRecord` reads as a game without notes."""
    record = GameRecord.from_json(text)
    notes = json.loads(text).get("saved") or {}
    if not isinstance(notes, dict):
        raise InvalidBoardError("the 'saved' notes of a record must be a JSON object")
    three_bv = notes.get("three_bv")
    return SavedGame(
        record=record,
        practice=bool(notes.get("practice", False)),
        hints=int(notes.get("hints", 0)),
        three_bv=None if three_bv is None else int(three_bv),
    )


class RecordStore:
    """The folder of saved games; `now` names the files, so tests can fix it."""

    def __init__(self, folder: Path, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.folder = folder
        self._now = now

    def save(self, game: Game, *, practice: bool = False, hints: int = 0) -> Path:
        """Write a finished game's record, with 3BV and the app's notes, to a new file."""
        record = game.record()
        moment = self._now()
        data = record.to_dict()
        data["saved"] = {
            "at": moment.isoformat(),
            "practice": practice,
            "hints": hints,
            "three_bv": game.three_bv if game.started else None,
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        stem = f"{moment:%Y%m%d-%H%M%S-%f}-{record.rows}x{record.cols}n{record.mines}"
        for attempt in range(1000):
            path = self.folder / f"{stem}{f'-{attempt}' if attempt else ''}.json"
            try:
                with path.open("x", encoding="utf-8") as file:
                    json.dump(data, file, separators=(",", ":"))
            except FileExistsError:
                continue
            return path
        raise FileExistsError(f"no free file name for {stem} in {self.folder}")

    def load(self) -> tuple[list[SavedGame], list[str]]:
        """Every saved game in the folder, and a note for each file that could not be read."""
        games: list[SavedGame] = []
        problems: list[str] = []
        if not self.folder.is_dir():
            return games, problems
        for path in sorted(self.folder.glob("*.json")):
            try:
                games.append(read_saved(path.read_text(encoding="utf-8")))
            except (OSError, ValueError) as error:
                problems.append(f"{path.name}: {error}")
        return games, problems
