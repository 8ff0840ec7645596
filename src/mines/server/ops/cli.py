"""`mines serve`: run the game server and its browser client with uvicorn."""

from __future__ import annotations

import argparse
import ctypes
import gc
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mines.server.common.settings import Settings

from mines.extras import missing_extra, require_extra

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


def register(subparsers: Any) -> None:
    """`mines serve`: one option per field of `Settings`, its help the field's; the values are
    checked by `Settings` with the environment's (`settings_from`), not here."""
    about = "run the game server and the browser client"
    if missing_extra("server", "mines serve") is not None:
        # Nothing to build the options from: whatever follows is taken (no word is an option
        # with "+" as the only prefix), and `run` says what to install.
        bare = subparsers.add_parser("serve", help=about, prefix_chars="+", add_help=False)
        bare.add_argument("words", nargs="*")
        bare.set_defaults(handler=run)
        return
    parser = subparsers.add_parser(
        "serve",
        help=about,
        epilog="Every option can also be set as MINES_<OPTION> in the environment "
        "(--max-cells as MINES_MAX_CELLS, --no-access-log as MINES_ACCESS_LOG=0); the "
        "command line wins. docs/server.md lists them.",
    )
    from mines.server.common.settings import Settings, option, variable

    for name, field in Settings.model_fields.items():
        text = (field.description or "").replace("`", "")
        default = field.default
        shown = (field.json_schema_extra or {}).get("shown")  # type: ignore[union-attr]
        said = shown if shown is not None else default
        if isinstance(said, tuple):
            said = ",".join(said) or "none"
        help_text = f"{text} (default {str(said).replace('`', '')}; {variable(name)})"
        if field.annotation is bool:
            parser.add_argument(
                option(name),
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=argparse.SUPPRESS,
                help=help_text.replace("%", "%%"),
            )
        else:
            parser.add_argument(
                option(name),
                dest=name,
                metavar=name.upper(),
                default=argparse.SUPPRESS,
                help=help_text.replace("%", "%%"),
            )
    parser.set_defaults(handler=run)


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings of `mines serve`: its options, else `MINES_<OPTION>`, else the defaults;
    a wrong one stops the command with one line each, naming the option and the variable."""
    from pydantic import ValidationError

    from mines.server.common.settings import Settings, problems

    given = {name: getattr(args, name) for name in Settings.model_fields if hasattr(args, name)}
    try:
        return Settings(**given)
    except ValidationError as error:
        for line in problems(error):
            print(f"mines serve: {line}", file=sys.stderr)
        raise SystemExit(2) from None


def run(args: argparse.Namespace) -> int:
    require_extra("server", "mines serve")
    import uvicorn

    from mines.server.app import create_app
    from mines.server.common.logs import configure, masked
    from mines.server.db.database import open_storage
    from mines.server.services.games import GameService
    from mines.server.web.drain import Drain
    from mines.server.web.protocol import deadline_protocol

    settings = settings_from(args)
    configure(settings.log_level, settings.log_format, access=settings.access_log)
    fix_mmap_threshold()
    service = GameService(open_storage(settings.database), settings)
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    # Logged, not printed: one JSON object in JSON mode too, and the database's password masked.
    logging.getLogger("mines.server").info(
        "mines server at http://%s:%d/ (games in %s%s)",
        host,
        settings.port,
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
            host=settings.host,
            port=settings.port,
            log_config=None,  # the logging `configure` set up above
            log_level=settings.log_level,
            access_log=False,  # the app writes its own, with the request ID and the route
            proxy_headers=False,  # applied in the app, from --forwarded-allow-ips only
            ws_max_size=WS_MAX_SIZE,
            http=deadline_protocol(settings.header_timeout, settings.body_timeout),
            # Seconds as floats: uvicorn's hints say int, its timers take any number.
            timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
            timeout_graceful_shutdown=settings.shutdown_timeout,  # type: ignore[arg-type]
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
