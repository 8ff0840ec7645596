"""`Sessions`: each server's session cookie and unfinished game, in a file only its owner reads."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE_NAME = "servers.json"
MODE = 0o600
"""Read and write for the owner only: the cookie signs in as the player, the token moves."""
VERSION = 1


@dataclass(frozen=True)
class Kept:
    """What is kept of one server: the session cookie and account name while signed in, and
    the game left unfinished there (its ID and move token)."""

    session: str | None = None
    name: str | None = None
    game_id: str | None = None
    token: str | None = None

    def to_dict(self) -> dict[str, Any]:
        game = None if self.game_id is None else {"id": self.game_id, "token": self.token}
        return {"session": self.session, "name": self.name, "game": game}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Kept:
        game = data.get("game") or {}
        return cls(
            session=_text(data.get("session")),
            name=_text(data.get("name")),
            game_id=_text(game.get("id")),
            token=_text(game.get("token")),
        )


class Sessions:
    """`servers.json` in the data folder: one entry per server address. Never a password.

    The file is written whole to a new file made with mode 0600, then renamed over the old,
    so it is never readable by others, not even for a moment, and never half written.
    """

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME

    def _all(self) -> dict[str, Kept]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}  # unreadable or damaged: as if nothing were kept (it is written anew)
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, dict):
            return {}
        return {
            url: Kept.from_dict(kept) for url, kept in servers.items() if isinstance(kept, dict)
        }

    def get(self, url: str) -> Kept:
        return self._all().get(url, Kept())

    def put(self, url: str, kept: Kept) -> None:
        servers = self._all()
        if kept == Kept():
            servers.pop(url, None)
        else:
            servers[url] = kept
        text = json.dumps(
            {"version": VERSION, "servers": {u: k.to_dict() for u, k in servers.items()}},
            indent=2,
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = self.path.with_name(f".{FILE_NAME}.{os.getpid()}")
        try:
            with os.fdopen(os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, MODE), "w") as file:
                os.fchmod(file.fileno(), MODE)  # one left by a crash may have had another mode
                file.write(text + "\n")
        except BaseException:
            new.unlink(missing_ok=True)
            raise
        os.replace(new, self.path)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
