"""The browser client's files: compressed when the client takes it, versioned addresses kept for
a year, every other address revalidated by ETag."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest

from mines.server.web.assets import IMMUTABLE, REVALIDATE, accepted
from tests.server.conftest import Server


def versioned(server: Server) -> str:
    page = server.client.get("/")
    found = re.search(r'src="(/static/[0-9a-f]{12}/js/main\.js)"', page.text)
    assert found, page.text[:500]
    return found[1]


def test_pages_name_versioned_files_kept_for_a_year(server: Server) -> None:
    page = server.client.get("/")
    assert page.headers["cache-control"] == REVALIDATE
    assert page.headers["etag"]
    path = versioned(server)
    version = path.split("/")[2]
    for name in ("style.css", "img/favicon.svg", "js/api.js"):
        assert f"/static/{version}/{name}" in page.text or name == "js/api.js"
    answer = server.client.get(path)
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "content-security-policy" in answer.headers  # the security headers still come
    race = server.client.get("/race/0123")
    assert f"/static/{version}/js/race.js" in race.text
    review = server.client.get("/review/0123")
    assert review.headers["cache-control"] == REVALIDATE
    assert f"/static/{version}/js/review.js" in review.text


@pytest.mark.parametrize(
    ("accept", "coding"), [("gzip, deflate, br", "br"), ("gzip, deflate", "gzip"), ("", None)]
)
def test_files_are_compressed_when_the_client_takes_it(
    server: Server, accept: str, coding: str | None
) -> None:
    path = versioned(server)
    plain = server.client.get(path, headers={"Accept-Encoding": "identity"})
    answer = server.client.get(path, headers={"Accept-Encoding": accept})
    assert answer.headers.get("content-encoding") == coding
    assert answer.headers["vary"] == "Accept-Encoding"
    raw = answer.read() if coding is None else b""
    sent = int(answer.headers["content-length"])
    if coding == "br" or coding == "gzip":
        assert sent < len(plain.content) / 2
    else:
        assert raw == plain.content


def test_compressed_bodies_decode_to_the_file(server: Server) -> None:
    """What the client unpacks is the file itself, byte for byte."""
    path = versioned(server)
    plain = server.client.get(path, headers={"Accept-Encoding": "identity"}).content
    for coding, unpack in (("gzip", gzip.decompress), ("br", brotli.decompress)):
        request = server.client.build_request("GET", path, headers={"Accept-Encoding": coding})
        answer = server.client.send(request, stream=True)
        body = b"".join(answer.iter_raw())
        assert answer.headers["content-encoding"] == coding
        assert unpack(body) == plain


def test_other_addresses_are_revalidated_with_an_etag(server: Server) -> None:
    first = server.client.get("/static/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert first.headers["cache-control"] == REVALIDATE
    tag = first.headers["etag"]
    again = server.client.get(
        "/static/js/main.js", headers={"Accept-Encoding": "gzip", "If-None-Match": tag}
    )
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    other = server.client.get(
        "/static/js/main.js", headers={"Accept-Encoding": "identity", "If-None-Match": tag}
    )
    assert other.status_code == 200  # another encoding is another representation
    page = server.client.get("/", headers={"If-None-Match": server.client.get("/").headers["etag"]})
    assert page.status_code == 304


def test_an_unknown_file_is_a_404_in_words(server: Server) -> None:
    answer = server.client.get("/static/js/nothing.js")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_accept_encoding_is_read_with_its_weights() -> None:
    assert accepted("gzip;q=0, br;q=0.5, deflate") == {"br", "deflate"}
    assert accepted("GZIP") == {"gzip"}
    assert accepted("br;q=x, gzip") == {"gzip"}
