"""The site's icon, `/favicon.ico`: a 16x16 mine, drawn here and packed as a PNG inside an ICO."""

from __future__ import annotations

import struct
import zlib
from functools import cache

MINE = (
    "................",
    ".......##.......",
    ".......##.......",
    "...#..####..#...",
    "....########....",
    "...##########...",
    "...##oo######...",
    ".#####oo#######.",
    ".##############.",
    "...##########...",
    "...##########...",
    "....########....",
    "...#..####..#...",
    ".......##.......",
    ".......##.......",
    "................",
)
COLOURS = {".": (0, 0, 0, 0), "#": (32, 32, 40, 255), "o": (240, 240, 240, 255)}


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def _png(rows: tuple[str, ...]) -> bytes:
    height, width = len(rows), len(rows[0])
    # Each scanline starts with filter type 0 (none), then RGBA bytes.
    raw = b"".join(b"\0" + bytes(v for ch in line for v in COLOURS[ch]) for line in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


@cache
def favicon() -> bytes:
    """The ICO file: one 16x16 image stored as PNG (every current browser reads that)."""
    png = _png(MINE)
    directory = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", 16, 16, 0, 0, 1, 32, len(png), 6 + 16)
    return directory + entry + png
