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
    """A saved game's record and what the app noted beside it."""

    record: GameRecord
    practice: bool = False
    """Played with undo allowed; such games do not count in the stats."""
    hints: int = 0
    three_bv: int | None = None
    saved_at: str = ""
    """When it was saved, as ISO 8601 text ("" for a plain record)."""


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
        saved_at=str(notes.get("at", "")),
    )


class RecordStore:
    """The folder of saved games; `now` names the files, so tests can fix it."""

    def __init__(self, folder: Path, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.folder = folder
        self._now = now

    def _data(self, game: Game, practice: bool, hints: int) -> dict[str, object]:
        data = game.record().to_dict()
        data["saved"] = {
            "at": self._now().isoformat(),
            "practice": practice,
            "hints": hints,
            "three_bv": game.three_bv if game.started else None,
        }
        return data

    def save(self, game: Game, *, practice: bool = False, hints: int = 0) -> Path:
        """Write a finished game's record, with 3BV and the app's notes, to a new file."""
        record = game.record()
        moment = self._now()
        data = self._data(game, practice, hints)
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

    @property
    def unfinished_path(self) -> Path:
        """The one slot for a game left unfinished at quit (a folder of its own, so that the
        stats, which read the folder's top level, never count it)."""
        return self.folder / "unfinished" / "game.json"

    def save_unfinished(self, game: Game, *, practice: bool = False, hints: int = 0) -> Path:
        """Keep a game in progress for `mines play` to offer next time (replacing any other)."""
        path = self.unfinished_path
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(".part")
        part.write_text(
            json.dumps(self._data(game, practice, hints), separators=(",", ":")), encoding="utf-8"
        )
        part.replace(path)  # all or nothing: a crash mid-write leaves the old file
        return path

    def unfinished(self) -> SavedGame | None:
        """The game left unfinished at the last quit, if there is one that can be read."""
        try:
            saved = read_saved(self.unfinished_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return None if saved.record.status.is_over else saved

    def drop_unfinished(self) -> None:
        self.unfinished_path.unlink(missing_ok=True)

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
