"""The server's settings: where games are stored and how big a board, view or change list may be."""

from __future__ import annotations

from dataclasses import dataclass

MAX_CELLS = 1_000_000


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits a server applies to every request; the defaults suit one machine."""

    database: str
    """`sqlite:///path` or `postgresql://...`; see `mines.server.database.open_storage`."""
    max_cells: int = MAX_CELLS
    """The largest board a client may create (rows x cols); 1000x1000 by default."""
    view_limit: int = 1_000_000
    """The most cells one view may hold; bigger boards are read through a window."""
    changed_limit: int = 10_000
    """The most `changed` entries in one answer; past it the client redraws from the view."""
    move_window: int = 100
    """Side of the window around the move sent back when a move on a big board names none."""
    cache_cells: int = 50_000_000
    """Roughly how many cells of live games a process keeps in memory before dropping the
    least recently used (a sparse board counts about one cell per mine)."""
    body_limit: int = 16 * 1024
    """The largest request body in bytes (413 past it); a real request is under 300."""
    sockets_per_address: int = 32
    """The most live WebSockets one client address may hold at once."""
