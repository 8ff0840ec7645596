"""`mines serve`: run the game server and its browser client with uvicorn."""

from __future__ import annotations

import argparse
import ctypes
import gc
import ipaddress
import logging
import os
from typing import Any

from mines.extras import require_extra
from mines.server.common.logs import LOG_FORMATS, LOG_LEVELS
from mines.server.common.settings import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    KEEP_ALIVE_TIMEOUT,
    MAX_CELLS,
    MEMORY,
    METRICS_ALLOW,
    REDIS_TIMEOUT,
    SHUTDOWN_TIMEOUT,
    SOCKETS,
    SOCKETS_PER_ADDRESS,
    RateLimits,
    Settings,
)
from mines.server.db.database import default_database
from mines.server.ops.environ import from_environment

WS_MAX_SIZE = 64 * 1024
"""The largest WebSocket frame the protocol layer accepts; past it the socket closes with 1009."""
MMAP_THRESHOLD = 128 * 1024
"""glibc serves blocks from this size up by `mmap` and gives them back to the system when they
are freed. By default it raises the threshold after each big free (up to 32 MiB), and then a
flood's freed arrays stay in the heap: a busy server's RSS rose 144 MiB over its idle baseline
under a 128 MiB budget that way, 74 MiB with the threshold fixed (`./dev bench abuse --part
memory`). MALLOC_MMAP_THRESHOLD_ in the environment wins."""
M_MMAP_THRESHOLD = -3
"""glibc's `mallopt` parameter for it."""


def fix_mmap_threshold() -> bool:
    """Fix glibc's mmap threshold at `MMAP_THRESHOLD`, so that big blocks go back to the system
    when freed; False where the C library has no such setting (or the environment set it)."""
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def _port(text: str) -> int:
    port = _number(text)
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, got {port}")
    return port


def _number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and up to 3600, got {text!r}")
    return value


def _bytes(text: str) -> int:
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}
    number, unit = text[:-1], text[-1:].upper()
    if unit not in units or unit == "":
        number, unit = text, ""
    if not (number.isascii() and number.isdigit()) or int(number) * units[unit] < 2**20:
        raise argparse.ArgumentTypeError(
            f"expected a size of at least 1M such as 512M or 2G, got {text!r}"
        )
    return int(number) * units[unit]


def _rate(text: str) -> str:
    # argparse reads the defaults through here too, before `run` could say what is missing.
    require_extra("server", "mines serve")
    from limits import parse_many

    try:
        parse_many(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a rate such as 100/second or 10/second;300/minute, got {text!r}"
        ) from None
    return text


def _networks(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    try:
        for name in names:
            if name != "*":
                ipaddress.ip_network(name, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            "expected addresses or networks separated by commas, such as "
            f"127.0.0.1,10.0.0.0/8 (* for every address, empty for none), got {text!r}"
        ) from None
    return names


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the game server and the browser client")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db",
        help="sqlite:///path/to/file or postgresql://user@host/dbname[?schema=name] "
        f"(default: {default_database()}, in the data folder)",
    )
    parser.add_argument(
        "--max-cells",
        type=_number,
        default=MAX_CELLS,
        help="largest board a client may create, in cells (default %(default)s)",
    )
    parser.add_argument(
        "--memory",
        type=_bytes,
        default=MEMORY,
        help="memory the live games may hold, e.g. 512M or 2G (default 1G); past it the least "
        "recently used are dropped (storage keeps them) and new games wait (503)",
    )
    parser.add_argument(
        "--redis",
        help="redis://host:port/db: share the rate limits among server processes "
        "(default: each process counts its own)",
    )
    parser.add_argument("--redis-prefix", default="mines", help="prefix of the Redis keys")
    parser.add_argument(
        "--redis-timeout",
        type=_seconds,
        default=REDIS_TIMEOUT,
        help="seconds to wait for Redis before counting the rate limits in this process alone "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=_number,
        default=SOCKETS_PER_ADDRESS,
        help="live WebSockets one client address may hold at once (default %(default)s)",
    )
    parser.add_argument(
        "--metrics",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="count requests for /metrics (default: on; off, /metrics is 404)",
    )
    parser.add_argument(
        "--metrics-allow",
        type=_networks,
        default=METRICS_ALLOW,
        help="client addresses or networks /metrics answers, separated by commas; others get "
        f"404 (default {','.join(METRICS_ALLOW)}; empty for nobody)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        type=_networks,
        default=(),
        help="addresses or networks of the reverse proxies whose X-Forwarded-For, "
        "X-Forwarded-Proto and X-Request-ID are taken, separated by commas (default: none)",
    )
    parser.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="text",
        help="log lines as text or as one JSON object each (default %(default)s)",
    )
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help="the least severe records logged; warning drops the access log (default %(default)s)",
    )
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="log one line per request (default: on)",
    )
    defaults = RateLimits()
    for name, text in (
        ("address", "every API request from one address"),
        ("create", "new games from one address"),
        ("game", "moves in one game (with its token)"),
        ("denied", "moves refused for their token, per address"),
        ("signin", "sign-ins and new accounts per name and per address"),
    ):
        parser.add_argument(
            f"--rate-limit-{name}",
            type=_rate,
            default=getattr(defaults, name),
            help=f"rate of {text}, in the limits notation (default %(default)s)",
        )
    for option, default, text in (
        ("--header-timeout", HEADER_TIMEOUT, "for a request's headers, from its first byte"),
        ("--body-timeout", BODY_TIMEOUT, "for a request's body, from the end of its headers"),
        ("--keep-alive-timeout", KEEP_ALIVE_TIMEOUT, "an idle connection is kept between requests"),
        (
            "--shutdown-timeout",
            SHUTDOWN_TIMEOUT,
            "requests have to finish after SIGTERM before the rest are closed and the "
            "process exits",
        ),
    ):
        parser.add_argument(
            option,
            type=_seconds,
            default=default,
            help=f"seconds {text}; past it the connection is closed (default %(default)s)",
        )
    parser.add_argument(
        "--sockets",
        type=_number,
        default=SOCKETS,
        help="live WebSockets this process holds at once, every address together; keep it "
        "under the open-file limit (default %(default)s)",
    )
    from_environment(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    require_extra("server", "mines serve")
    import uvicorn

    from mines.server.app import create_app
    from mines.server.common.logs import configure, masked
    from mines.server.db.database import open_storage
    from mines.server.services.games import GameService
    from mines.server.web.drain import Drain
    from mines.server.web.protocol import deadline_protocol

    configure(args.log_level, args.log_format, access=args.access_log)
    fix_mmap_threshold()
    settings = Settings(
        database=args.db or default_database(),
        max_cells=args.max_cells,
        memory=args.memory,
        rates=RateLimits(
            args.rate_limit_address,
            args.rate_limit_create,
            args.rate_limit_game,
            args.rate_limit_signin,
            args.rate_limit_denied,
        ),
        redis=args.redis,
        redis_prefix=args.redis_prefix,
        redis_timeout=args.redis_timeout,
        sockets_per_address=args.sockets_per_address,
        sockets=args.sockets,
        metrics=args.metrics,
        metrics_allow=args.metrics_allow,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    service = GameService(open_storage(settings.database), settings)
    host = f"[{args.host}]" if ":" in args.host else args.host
    # Logged, not printed: one JSON object in JSON mode too, and the database's password masked.
    logging.getLogger("mines.server").info(
        "mines server at http://%s:%d/ (games in %s%s)",
        host,
        args.port,
        masked(settings.database),
        f", rate limits shared in {masked(settings.redis)}" if settings.redis else "",
    )
    drain = Drain()
    drain.on_signal()
    app = create_app(service, drain=drain)
    # Everything imported and built so far lives as long as the process: frozen, the full
    # collections no longer scan it (measured under `./dev bench load`: 55-82 ms pauses, in
    # which every request waits, down to about 12 ms).
    gc.freeze()
    try:
        config = uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_config=None,  # the logging `configure` set up above
            log_level=args.log_level,
            access_log=False,  # the app writes its own, with the request ID and the route
            proxy_headers=False,  # applied in the app, from --forwarded-allow-ips only
            ws_max_size=WS_MAX_SIZE,
            http=deadline_protocol(args.header_timeout, args.body_timeout),
            timeout_keep_alive=args.keep_alive_timeout,
            timeout_graceful_shutdown=args.shutdown_timeout,
        )
        server = uvicorn.Server(config)

        def stop_listening() -> None:
            for listening in server.servers:
                listening.close()

        drain.stop_listening = stop_listening
        drain.exit = lambda: setattr(server, "should_exit", True)
        server.run()
    finally:
        service.close()
    return 0
