"""`mines serve`: run the game server and its browser client with uvicorn."""

from __future__ import annotations

import argparse
from typing import Any

from mines.extras import require_extra
from mines.server.database import default_database
from mines.server.settings import MAX_CELLS, Settings

WS_MAX_SIZE = 64 * 1024
"""The largest WebSocket frame the protocol layer accepts; past it the socket closes with 1009."""


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
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    require_extra("server", "mines serve")
    import uvicorn

    from mines.server.app import create_app
    from mines.server.database import open_storage
    from mines.server.games import GameService

    settings = Settings(database=args.db or default_database(), max_cells=args.max_cells)
    service = GameService(open_storage(settings.database), settings)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"mines server at http://{host}:{args.port}/  (games in {settings.database})", flush=True)
    try:
        uvicorn.run(
            create_app(service),
            host=args.host,
            port=args.port,
            log_level="warning",
            ws_max_size=WS_MAX_SIZE,
        )
    finally:
        service.close()
    return 0
