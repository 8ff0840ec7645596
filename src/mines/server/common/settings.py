"""The server's settings, one object (`Settings`): every limit an operator may set, each from
`mines serve --OPTION` or `MINES_<OPTION>` (the command line wins), validated at start with one
line per mistake; `mines serve`'s options and docs/server.md's table are made from it."""

from __future__ import annotations

import ipaddress
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from mines.server.common.places import default_database

MAX_CELLS = 1_000_000
MEMORY = 1024 * 1024 * 1024
SOCKETS_PER_ADDRESS = 32
SOCKETS = 800
"""Live WebSockets per process: under the usual open-file limit of 1,024, with room left for
HTTP connections, the database and the process's own files."""
METRICS_ALLOW = ("127.0.0.0/8", "::1")
REDIS_TIMEOUT = 1.0
"""Seconds a rate-limit check waits for Redis before counting in the process's memory. On this
2-core host at load 10-12, with the event loop kept busy, 16 clients checking saw Redis answer
within 0.70 s at worst; 0.1 s fell back to per-process limits 75 times in 20 s, 0.25 s 32
times, 0.5 s and 1 s never (docs/server.md, "Redis"). Waiting longer costs little: once Redis
fails, requests count in memory and only a background ping waits for it."""
HEADER_TIMEOUT = 10.0
"""Seconds a client has from its request's first byte (or its connection) to the end of the
headers; then the connection is closed (`mines.server.web.protocol`)."""
BODY_TIMEOUT = 10.0
"""Seconds a client has from the end of its headers to the end of its body: 16 KiB at most,
under 300 bytes for a real request."""
KEEP_ALIVE_TIMEOUT = 5.0
"""Seconds an idle connection is kept between requests (uvicorn's default)."""
SHUTDOWN_TIMEOUT = 10.0
"""Seconds requests have to finish after SIGTERM; then the rest are closed and the process
exits (uvicorn alone waits for ever)."""
REVIEW_WORKERS = 2
REVIEW_BUDGET = 30.0
"""`WORK_LIMIT` keeps an exact review within about 10 s of CPU; the rest is room for a busy
machine (workers run below the server's priority)."""
REVIEW_MEMORY = 1024 * 1024 * 1024
SESSION_DAYS = 30
PREFIX = "MINES_"


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


_RATES = RateLimits()
_NO_GUESS = NoGuessLimits()


def _bytes(value: object) -> object:
    """`512M`, `2G`, `1048576`: a size in bytes, at least 1 MiB."""
    if not isinstance(value, str):
        return value
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}
    text = value.strip()
    number, unit = text[:-1], text[-1:].upper()
    if unit not in units or unit == "":
        number, unit = text, ""
    if not (number.isascii() and number.isdigit()) or int(number) * units[unit] < 2**20:
        raise ValueError(f"expected a size of at least 1M such as 512M or 2G, got {value!r}")
    return int(number) * units[unit]


def _networks(value: object) -> object:
    """`127.0.0.1,10.0.0.0/8`: addresses or networks separated by commas (`*`: any)."""
    if isinstance(value, str):
        value = tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list | tuple):
        for name in value:
            try:
                if name != "*":
                    ipaddress.ip_network(str(name), strict=False)
            except ValueError:
                raise ValueError(
                    "expected addresses or networks separated by commas, such as "
                    f"127.0.0.1,10.0.0.0/8 (* for every address, empty for none), got {name!r}"
                ) from None
    return value


Bytes = Annotated[int, BeforeValidator(_bytes), Field(ge=1)]
"""Bytes: as text (an option, a variable) at least 1M such as `512M`; from Python any size."""
Count = Annotated[int, Field(ge=1)]
Seconds = Annotated[float, Field(gt=0, le=3600)]
Networks = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_networks)]
Rate = Annotated[str, Field(min_length=1)]


DEFAULT_DATABASE = (
    "`mines.sqlite3` in the data folder ([README](../README.md#where-mines-keeps-its-files))"
)


def _setting(default: Any, text: str, *, shown: str | None = None) -> Any:
    """A field with its help text (the option's and the docs table's) and, when the default
    is not its literal value, the words the table shows for it."""
    extra: dict[str, Any] = {} if shown is None else {"shown": shown}
    return Field(default, description=text, json_schema_extra=extra)


class Settings(BaseSettings):
    """Limits a server applies to every request; the defaults suit one machine. Each field is
    `mines serve --NAME` (underscores as dashes) and `MINES_NAME`; only the database is
    `--db` and `MINES_DB`."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        frozen=True,
        extra="forbid",
        validate_default=True,
        populate_by_name=True,
    )

    host: str = _setting("127.0.0.1", "address to listen on (`0.0.0.0` for every interface)")
    port: Annotated[int, Field(ge=1, le=65535)] = _setting(8000, "port to listen on")
    database: str = Field(
        default_factory=default_database,
        # --db and MINES_DB, as before the settings had one home; `database` in Python.
        validation_alias="MINES_DB",
        description="where games are stored: `sqlite:///path/to/file` or "
        "`postgresql://user@host/dbname[?schema=name]`",
        json_schema_extra={"shown": DEFAULT_DATABASE},
    )
    max_cells: Count = _setting(MAX_CELLS, "the largest board a client may create (rows x cols)")
    memory: Bytes = _setting(
        MEMORY,
        "bytes the live games of one process may hold, by their real footprint (`512M`, `2G`, "
        "...); see [Bounded work](#bounded-work)",
        shown="1G",
    )
    view_limit: Count = _setting(
        1_000_000, "the most cells one view may hold; bigger boards are read through a window"
    )
    changed_limit: Count = _setting(
        10_000, "the most `changed` entries in one answer; past it the client redraws the view"
    )
    move_window: Count = _setting(
        100, "side of the window sent back around a move on a big board that names none"
    )
    body_limit: Count = _setting(
        16 * 1024, "the largest request body in bytes (413 past it); a real one is under 300"
    )
    redis: str | None = _setting(
        None,
        "`redis://host:port/db`: every server process counts the rate limits together (else "
        "each counts its own)",
    )
    redis_prefix: str = _setting("mines", "the prefix of the rate limits' Redis keys")
    redis_timeout: Seconds = _setting(
        REDIS_TIMEOUT,
        "seconds to connect to Redis and for one rate-limit check; past it the process counts "
        "alone (see [Rate limits](#rate-limits))",
    )
    rate_limit_address: Rate = _setting(_RATES.address, "every API request from one client address")
    rate_limit_create: Rate = _setting(
        _RATES.create, "new games and race rooms from one client address"
    )
    rate_limit_game: Rate = _setting(
        _RATES.game, "moves in one game with its token (only its player's moves count)"
    )
    rate_limit_denied: Rate = _setting(
        _RATES.denied,
        "moves refused for their token (none, another game's, no such game) from one client "
        "address",
    )
    rate_limit_signin: Rate = _setting(
        _RATES.signin,
        "sign-ins per account name (from every address together) and sign-ins and new "
        "accounts per client address; see [Accounts](#accounts)",
    )
    sockets_per_address: Count = _setting(
        SOCKETS_PER_ADDRESS, "live WebSockets one client address may hold at once"
    )
    sockets: Count = _setting(
        SOCKETS,
        "live WebSockets the process holds at once, every address together (keep it under "
        "the open-file limit)",
    )
    header_timeout: Seconds = _setting(
        HEADER_TIMEOUT,
        "seconds a request's headers may take, from its first byte; then the connection is "
        "closed (see [Slow clients and shutdown](#slow-clients-and-shutdown))",
    )
    body_timeout: Seconds = _setting(
        BODY_TIMEOUT,
        "seconds a request's body may take, from the end of its headers; then the connection "
        "is closed",
    )
    keep_alive_timeout: Seconds = _setting(
        KEEP_ALIVE_TIMEOUT, "seconds an idle connection is kept between requests"
    )
    shutdown_timeout: Seconds = _setting(
        SHUTDOWN_TIMEOUT,
        "seconds requests have to finish after `SIGTERM`; then the rest are cut and the "
        "process exits",
    )
    forwarded_allow_ips: Networks = _setting(
        (),
        "the reverse proxies whose `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Request-ID` "
        "are taken (addresses or networks, separated by commas; `*` for any); from any other "
        "peer they are ignored",
        shown="none",
    )
    log_format: Literal["text", "json"] = _setting(
        "text", "`text` or `json` (one object a line) for every log line, on stderr"
    )
    log_level: Literal["debug", "info", "warning", "error"] = _setting(
        "info", "`debug`, `info`, `warning` (drops the access log) or `error`"
    )
    access_log: bool = _setting(True, "one line per request", shown="on")
    metrics: bool = _setting(
        True,
        "count requests and serve `/metrics` (off: `/metrics` is 404 and requests are not timed)",
        shown="on",
    )
    metrics_allow: Networks = _setting(
        METRICS_ALLOW,
        "client addresses or networks that `/metrics` answers, separated by commas (others "
        "get 404; empty for nobody)",
        shown=",".join(METRICS_ALLOW),
    )
    review_workers: Count = _setting(
        REVIEW_WORKERS,
        "reviews worked out at once per process; another meanwhile is refused with 503",
    )
    review_budget: Seconds = _setting(
        REVIEW_BUDGET,
        "seconds a worker may take over one review (an exact review is held to about 10 s of "
        "CPU; the rest is room for a busy machine)",
    )
    review_memory: Bytes = _setting(
        REVIEW_MEMORY, "bytes of address space a reviewing worker may use", shown="1G"
    )
    no_guess_max_cells: Count = _setting(
        _NO_GUESS.max_cells, "the largest no-guess board, in cells (50 x 50)"
    )
    no_guess_max_density: Annotated[float, Field(gt=0, lt=1)] = _setting(
        _NO_GUESS.max_density, "mines per cell of a no-guess board at most (Expert: 0.206)"
    )
    no_guess_budget: Seconds = _setting(
        _NO_GUESS.budget, "seconds one no-guess board may take; then it is refused"
    )
    no_guess_memory: Bytes = _setting(
        _NO_GUESS.memory, "bytes of address space a generating worker may use", shown="1G"
    )
    no_guess_workers: Count = _setting(
        _NO_GUESS.workers,
        "no-guess boards generated at once per process; another meanwhile is refused with 503",
    )
    session_days: Count = _setting(
        SESSION_DAYS, "days an account's session lasts from its sign-in (then it signs in again)"
    )

    @model_validator(mode="before")
    @classmethod
    def _grouped(cls, data: Any) -> Any:
        """`database`, `rates=RateLimits(...)` and `no_guess=NoGuessLimits(...)` as Python
        callers give them: the fields they stand for."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for group, prefix in (("rates", "rate_limit_"), ("no_guess", "no_guess_")):
            given = data.pop(group, None)
            if given is not None:
                fields = given if isinstance(given, dict) else asdict(given)
                for name, value in fields.items():
                    data[prefix + name] = value
        return data

    @field_validator(
        "rate_limit_address",
        "rate_limit_create",
        "rate_limit_game",
        "rate_limit_denied",
        "rate_limit_signin",
    )
    @classmethod
    def _rate(cls, text: str) -> str:
        from limits import parse_many

        try:
            parse_many(text)
        except ValueError:
            raise ValueError(
                f"expected a rate such as 100/second or 10/second;300/minute, got {text!r}"
            ) from None
        return text

    @property
    def rates(self) -> RateLimits:
        return RateLimits(
            address=self.rate_limit_address,
            create=self.rate_limit_create,
            game=self.rate_limit_game,
            signin=self.rate_limit_signin,
            denied=self.rate_limit_denied,
        )

    @property
    def no_guess(self) -> NoGuessLimits:
        return NoGuessLimits(
            max_cells=self.no_guess_max_cells,
            max_density=self.no_guess_max_density,
            budget=self.no_guess_budget,
            memory=self.no_guess_memory,
            workers=self.no_guess_workers,
        )

    @property
    def session_seconds(self) -> int:
        return self.session_days * 86400


SHORT = {"database": "db"}
"""Fields whose option and variable go by a shorter name."""


def option(name: str) -> str:
    """A field's command-line option: `--max-cells`, `--db`."""
    return "--" + SHORT.get(name, name).replace("_", "-")


def variable(name: str) -> str:
    """A field's environment variable: `MINES_MAX_CELLS`, `MINES_DB`."""
    return PREFIX + SHORT.get(name, name).upper()


def problems(error: ValidationError) -> list[str]:
    """One line per wrong setting, naming its option and variable and what is accepted."""
    lines = []
    for item in error.errors():
        name = str(item["loc"][0]) if item["loc"] else ""
        message = str(item["msg"]).removeprefix("Value error, ")
        where = f"{option(name)} / {variable(name)}" if name in Settings.model_fields else name
        given = item.get("input")
        known = isinstance(given, str | int | float) and repr(given) not in message
        shown = f" (got {given!r})" if known else ""
        lines.append(f"{where}: {message}{shown}")
    return lines


def _default_text(name: str) -> str:
    """A field's default as docs/server.md's table shows it."""
    field = Settings.model_fields[name]
    extra = field.json_schema_extra
    shown = extra.get("shown") if isinstance(extra, dict) else None
    if shown is not None:
        plain = shown in ("none", "on", "off") or str(shown).startswith("`")
        return str(shown) if plain else f"`{shown}`"
    default = field.default
    if default is None or default == ():
        return "none"
    if isinstance(default, float):
        return f"`{default:g}`"
    return f"`{default}`"


def settings_table() -> str:
    """docs/server.md's table of `mines serve`'s settings, made from `Settings` (a test checks
    that the docs hold it as made here: `python -m mines.server.common.settings` prints it)."""
    lines = ["| option | variable | default | meaning |", "| --- | --- | --- | --- |"]
    for name, field in Settings.model_fields.items():
        flag = f"`{option(name)}`"
        if field.annotation is bool:
            flag += f" / `--no-{option(name)[2:]}`"
        text = field.description or ""
        lines.append(f"| {flag} | `{variable(name)}` | {_default_text(name)} | {text} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(settings_table(), end="")
