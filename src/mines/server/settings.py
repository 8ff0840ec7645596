"""The server's settings: where games are stored and how big a board, view or change list may be."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_CELLS = 1_000_000
MEMORY = 1024 * 1024 * 1024
SOCKETS_PER_ADDRESS = 32
SOCKETS = 800
"""Live WebSockets per process: under the usual open-file limit of 1,024, with room left for
HTTP connections, the database and the process's own files."""
METRICS_ALLOW = ("127.0.0.0/8", "::1")
REDIS_TIMEOUT = 0.1
"""Seconds a rate-limit check waits for Redis before counting in the process's memory."""
HEADER_TIMEOUT = 10.0
"""Seconds a client has from its request's first byte (or its connection) to the end of the
headers; then the connection is closed (`mines.server.protocol`)."""
BODY_TIMEOUT = 10.0
"""Seconds a client has from the end of its headers to the end of its body: 16 KiB at most,
under 300 bytes for a real request."""
KEEP_ALIVE_TIMEOUT = 5.0
"""Seconds an idle connection is kept between requests (uvicorn's default)."""
SHUTDOWN_TIMEOUT = 10.0
"""Seconds requests have to finish after SIGTERM; then the rest are closed and the process
exits (uvicorn alone waits for ever)."""


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The rates a server allows, in the `limits` notation (`"100/second;3000/minute"`)."""

    address: str = "200/second;6000/minute"
    """Every HTTP API request from one client address."""
    create: str = "20/second;600/minute"
    """New games (and race rooms) from one client address: each costs memory and storage."""
    game: str = "100/second"
    """Moves in one game with its token: only its player's moves spend it."""
    signin: str = "10/minute;100/hour"
    """Sign-ins (and new accounts) per name and per client address: each guess at a password
    costs the guesser one request and the server one Argon2id hash."""
    denied: str = "10/second;100/minute"
    """Moves refused for their token (none, another game's, no such game) from one client
    address: past it they are 429, so a stranger's tries cost the stranger."""


@dataclass(frozen=True, slots=True)
class NoGuessLimits:
    """The no-guess boards a server generates; measured in docs/server.md ("No-guess boards")."""

    max_cells: int = 2_500
    """50 x 50: the largest boards that generate within the budget at Expert density."""
    max_density: float = 0.21
    """Mines per cell; Expert is 0.206. Denser boards rarely have a no-guess layout at all."""
    budget: float = 10.0
    """Seconds one board may take; past it the worker is stopped and the request refused."""
    memory: int = 1024 * 1024 * 1024
    """Bytes of address space one worker may use."""
    workers: int = 2
    """Boards generated at once; another request meanwhile is refused with 503."""


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
    memory: int = MEMORY
    """Bytes the live games of one process may hold (by `Game.footprint`); past it the least
    recently used are dropped (storage rebuilds them), and a new game that cannot fit is
    refused with 503."""
    body_limit: int = 16 * 1024
    """The largest request body in bytes (413 past it); a real request is under 300."""
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    """The most live WebSockets one client address may hold at once."""
    sockets: int = SOCKETS
    """The most live WebSockets the process holds at once, every address together."""
    rates: RateLimits = field(default_factory=RateLimits)
    redis: str | None = None
    """`redis://host:port/db` to share the rate limits among server processes."""
    redis_prefix: str = "mines"
    """The prefix of the rate limits' Redis keys."""
    redis_timeout: float = REDIS_TIMEOUT
    """Seconds to connect to Redis, and for one rate-limit check, before counting in memory."""
    no_guess: NoGuessLimits = field(default_factory=NoGuessLimits)
    metrics: bool = True
    """Count requests and serve `/metrics`; off, `/metrics` is 404 and nothing is timed."""
    metrics_allow: tuple[str, ...] = METRICS_ALLOW
    """The client addresses or networks `/metrics` answers; the others get 404."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """The proxies whose `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Request-ID` are taken;
    from any other peer they are ignored. None by default."""
