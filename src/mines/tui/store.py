"""Saved games on disk: finished games' records, and games in progress, each in its own file."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.record import GameRecord

try:  # POSIX: a game being played holds a lock, so another terminal does not offer it
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locks, every kept game is offered
    fcntl = None  # type: ignore[assignment]

UNFINISHED = "unfinished"
"""The folder of games in progress, inside the store's: the stats read only the top level."""
PART = ".part"
"""A file being written: renamed to its name once whole, so a crash leaves the old one."""
LOCK = ".lock"


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
    cursor: tuple[int, int] | None = None
    """Where the cursor was when a game in progress was last kept (None: not noted)."""


@dataclass(frozen=True)
class Unfinished:
    """A game in progress kept on disk, and the file it is kept in."""

    path: Path
    saved: SavedGame


def read_saved(text: str) -> SavedGame:
    """A saved game from its JSON; a plain `GameRecord` reads as a game without notes."""
    record = GameRecord.from_json(text)
    notes = json.loads(text).get("saved") or {}
    if not isinstance(notes, dict):
        raise InvalidBoardError("the 'saved' notes of a record must be a JSON object")
    three_bv = notes.get("three_bv")
    cursor = notes.get("cursor")
    if not (isinstance(cursor, list) and len(cursor) == 2 and all(type(x) is int for x in cursor)):
        cursor = None  # not noted (or not readable): a note only, the game stands without it
    return SavedGame(
        record=record,
        practice=bool(notes.get("practice", False)),
        hints=int(notes.get("hints", 0)),
        three_bv=None if three_bv is None else int(three_bv),
        saved_at=str(notes.get("at", "")),
        cursor=None if cursor is None else (cursor[0], cursor[1]),
    )


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` all or nothing: to a side file, synced to the disk, then renamed
    over `path`. A crash, a kill or a power cut leaves the old file or the new one, never a
    part of either."""
    part = path.with_name(path.name + PART)
    with part.open("w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    part.replace(path)


def _sync_folder(folder: Path) -> None:
    """Make a new file's name itself survive a power cut (its data is synced already)."""
    with contextlib.suppress(OSError):  # some file systems cannot open or sync a folder
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


class Claim:
    """A game in progress held by this process: its file's lock, let go when the process ends
    however it ends (the system drops a dead process's locks)."""

    def __init__(self, path: Path, handle: IO[bytes] | None) -> None:
        self.path = path
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _lock(path: Path, *, exclusive: bool) -> IO[bytes] | None:
    """An open, locked handle on `path`'s lock file; None when another process holds it."""
    lock = path.with_name(path.stem + LOCK)
    handle = lock.open("ab")
    if fcntl is None:  # pragma: no cover
        return handle
    try:
        fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


class RecordStore:
    """The folder of saved games; `now` names the files, so tests can fix it."""

    def __init__(self, folder: Path, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.folder = folder
        self._now = now

    def _notes(self, practice: bool, hints: int, three_bv: int | None) -> dict[str, Any]:
        return {
            "at": self._now().isoformat(),
            "practice": practice,
            "hints": hints,
            "three_bv": three_bv,
        }

    def _text(self, record: GameRecord, notes: dict[str, Any]) -> str:
        return json.dumps({**record.to_dict(), "saved": notes}, separators=(",", ":"))

    def _free_path(self, folder: Path, record: GameRecord) -> Path:
        """A new file name in `folder`, from the time and the board: `20260102-030405-...`."""
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{self._now():%Y%m%d-%H%M%S-%f}-{record.rows}x{record.cols}n{record.mines}"
        for attempt in range(1000):
            path = folder / f"{stem}{f'-{attempt}' if attempt else ''}.json"
            part = path.with_name(path.name + PART)
            try:  # its side file taken at once, so that two processes never pick one name
                part.open("xb").close()
            except FileExistsError:
                continue
            if not path.exists():
                return path
            part.unlink()
        raise FileExistsError(f"no free file name for {stem} in {folder}")

    def save(self, game: Game, *, practice: bool = False, hints: int = 0) -> Path:
        """Write a finished game's record, with 3BV and the app's notes, to a new file."""
        record = game.record()
        three_bv = game.three_bv if game.started else None
        path = self._free_path(self.folder, record)
        write_whole(path, self._text(record, self._notes(practice, hints, three_bv)))
        _sync_folder(self.folder)
        return path

    def withdraw(self, path: Path) -> None:
        """Delete a finished game's record: its outcome was undone (a practice game)."""
        path.unlink(missing_ok=True)

    # --- games in progress ---------------------------------------------------------------

    @property
    def unfinished_folder(self) -> Path:
        return self.folder / UNFINISHED

    def claim_new(self, record: GameRecord) -> Claim:
        """A new file for a game in progress, held by this process until `release`."""
        path = self._free_path(self.unfinished_folder, record)
        claim = Claim(path, _lock(path, exclusive=True))
        _sync_folder(self.unfinished_folder)
        return claim

    def claim(self, path: Path) -> Claim | None:
        """Hold a kept game's file for this process; None when another process plays it."""
        handle = _lock(path, exclusive=True)
        return None if handle is None else Claim(path, handle)

    def keep(
        self,
        claim: Claim,
        record: GameRecord,
        *,
        practice: bool = False,
        hints: int = 0,
        cursor: tuple[int, int] | None = None,
    ) -> None:
        """Write a game in progress over its file, all or nothing (`write_whole`), with where
        the cursor is (to put it back there when the game is resumed)."""
        notes = self._notes(practice, hints, None)
        if cursor is not None:
            notes["cursor"] = list(cursor)
        write_whole(claim.path, self._text(record, notes))

    def drop(self, claim: Claim) -> None:
        """Forget a game in progress: it ended, or it has no move left to keep."""
        claim.path.unlink(missing_ok=True)
        claim.path.with_name(claim.path.stem + LOCK).unlink(missing_ok=True)
        claim.release()

    def unfinished(self) -> list[Unfinished]:
        """The games in progress kept on disk, newest first, but those another process plays
        now; files that cannot be read are left alone (and not offered)."""
        kept = []
        for path in self._kept_files():
            handle = _lock(path, exclusive=False)
            if handle is None:
                continue  # being played in another terminal
            handle.close()
            try:
                saved = read_saved(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not saved.record.status.is_over:
                kept.append(Unfinished(path, saved))
        return sorted(kept, key=lambda u: (u.saved.saved_at, u.path.name), reverse=True)

    def _kept_files(self) -> Iterator[Path]:
        if self.unfinished_folder.is_dir():
            yield from self.unfinished_folder.glob("*.json")

    def forget(self, path: Path) -> bool:
        """Delete a kept game the player does not want; False when another process plays it."""
        claim = self.claim(path)
        if claim is None:
            return False
        self.drop(claim)
        return True

    def load(self) -> tuple[list[SavedGame], list[str]]:
        """Every saved game in the folder, and a note for each file that could not be read."""
        games: list[SavedGame] = []
        problems: list[str] = []
        if not self.folder.is_dir():
            return games, problems
        for path in sorted(self.folder.glob("*.json")):
            try:
                text = path.read_text(encoding="utf-8")
                if not looks_like_a_record(text):
                    continue  # another part's file in the data folder (servers.json)
                games.append(read_saved(text))
            except (OSError, ValueError) as error:
                problems.append(f"{path.name}: {error}")
        return games, problems


def looks_like_a_record(text: str) -> bool:
    """Whether a JSON file in the data folder is meant as a game record (damaged or not): not
    JSON, or an object with a record's fields. The data folder holds other parts' files too
    (the sessions of `mines play --server`), which are none of the stats' business."""
    try:
        data = json.loads(text)
    except ValueError:
        return True  # a record cut short, say: worth a word
    return not isinstance(data, dict) or bool({"rows", "moves", "layout"} & data.keys())
