"""The browser client's files: read and compressed once, served by version, cached for a year."""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import Response

try:
    import brotli
except ImportError:  # the server extra brings it; without it, gzip alone
    brotli = None

COMPRESSED_TYPES = (".html", ".js", ".css", ".svg", ".json", ".txt", ".webmanifest")
"""Text compresses; the rest (none today) is sent as it is."""
IMMUTABLE = "public, max-age=31536000, immutable"
"""A versioned address: its content never changes, so a browser keeps it for a year."""
REVALIDATE = "no-cache"
"""Any other address: kept, but checked with the server (ETag) before each use."""
VERSION_LENGTH = 12
REWRITTEN = (".html", ".webmanifest")
"""Files that name others under `/static/`: served with those names versioned."""
MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
"""The service worker's source: served at `/sw.js` (its scope, the whole site), with the
release's version and app shell written in, never under `/static/`."""
SHELL_PAGES = ("/", "/race", "/review/shell", "/players/shell")
"""The pages the worker keeps for offline use; it answers `/review/<id>` with the review page
it keeps, and `/players/<name>` likewise (each page reads its ID from its own address)."""

mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as it is served: its type, its bytes in each encoding, and its content tag."""

    media_type: str
    bodies: Mapping[str, bytes]
    """By encoding: "identity", "gzip", and "br" when brotli is installed."""
    tag: str


def _asset(path: str, data: bytes) -> Asset:
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type.endswith(("javascript", "json")):
        media_type += "; charset=utf-8"
    bodies = {"identity": data}
    if path.endswith(COMPRESSED_TYPES):
        # mtime=0: the same file gives the same bytes, so every server process sends alike.
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) < len(data):
            bodies["gzip"] = packed
        if brotli is not None:
            squeezed = brotli.compress(data, quality=11)
            if len(squeezed) < len(data):
                bodies["br"] = squeezed
    return Asset(media_type, bodies, hashlib.sha256(data).hexdigest()[:20])


def accepted(header: str) -> set[str]:
    """The content codings an Accept-Encoding header takes (those with q above 0)."""
    taken = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        quality = params.strip().removeprefix("q=").strip() if "q=" in params else "1"
        try:
            if float(quality) > 0:
                taken.add(name.strip().lower())
        except ValueError:
            continue
    return taken


class Assets:
    """Every file under a folder, read at start. Pages (`index.html`, `race.html`) name the
    others under `/static/<version>/`, where `<version>` is a hash of all the files, so that a
    browser may keep them for a year and still never mixes files of two releases."""

    def __init__(self, folder: Path, prefix: str = "/static/"):
        files = {
            path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
        digest = hashlib.sha256()
        for name, data in files.items():
            digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        self.version = digest.hexdigest()[:VERSION_LENGTH]
        self.prefix = prefix
        worker = files.pop(WORKER, b"")
        self.files = {name: _asset(name, data) for name, data in files.items()}
        versioned = f'"{prefix}{self.version}/'.encode()
        self.pages = {
            name: _asset(name, data.replace(f'"{prefix}'.encode(), versioned))
            for name, data in files.items()
            if name.endswith(REWRITTEN)
        }
        shell = [*SHELL_PAGES, *(f"{prefix}{self.version}/{name}" for name in self.files)]
        self.worker = _asset(
            WORKER,
            worker.replace(b'"VERSION"', json.dumps(self.version).encode()).replace(
                b'["SHELL"]', json.dumps(shell).encode()
            ),
        )

    def file(self, path: str, headers: Mapping[str, str]) -> Response:
        """`/static/<path>`: under the current version for a year, else revalidated."""
        first, _, rest = path.partition("/")
        if first == self.version:
            return self._answer(self._find(rest), headers, IMMUTABLE)
        if len(first) == VERSION_LENGTH and rest in self.files:
            # Another release's address (a page loaded before a restart): today's file, checked
            # every time, never kept for a year under a name that meant another file.
            return self._answer(self.files[rest], headers, REVALIDATE)
        return self._answer(self._find(path), headers, REVALIDATE)

    def page(self, name: str, headers: Mapping[str, str]) -> Response:
        """A page at its own address (`/`, `/race`): revalidated, so a new release shows at once."""
        return self._answer(self.pages[name], headers, REVALIDATE)

    def manifest(self, headers: Mapping[str, str]) -> Response:
        """`/manifest.webmanifest`: at one address for every release (a browser knows an
        installed app by it), its icons named by version, revalidated."""
        return self._answer(self.pages[MANIFEST], headers, REVALIDATE)

    def service_worker(self, headers: Mapping[str, str]) -> Response:
        """`/sw.js`: checked with the server before each use (no-cache), so that a new release's
        worker is found at once; browsers also never keep a worker script over a day."""
        return self._answer(self.worker, headers, REVALIDATE)

    def _find(self, path: str) -> Asset:
        asset = self.files.get(path)
        if asset is None:
            raise HTTPException(404, f"no file {path[:60]!r} in the browser client")
        return asset

    @staticmethod
    def _answer(asset: Asset, headers: Mapping[str, str], cache: str) -> Response:
        taken = accepted(headers.get("accept-encoding", ""))
        coding = next((c for c in ("br", "gzip") if c in taken and c in asset.bodies), "identity")
        tag = f'"{asset.tag}-{coding}"'
        answer_headers = {"ETag": tag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
        if coding != "identity":
            answer_headers["Content-Encoding"] = coding
        wanted = headers.get("if-none-match", "")
        if tag in (part.strip().removeprefix("W/") for part in wanted.split(",")) or wanted == "*":
            return Response(status_code=304, headers=answer_headers)
        return Response(asset.bodies[coding], media_type=asset.media_type, headers=answer_headers)
