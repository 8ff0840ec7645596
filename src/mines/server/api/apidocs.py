"""`/docs`: Swagger UI served by the server itself, under its CSP, with no network and no inline
script (FastAPI's own page loads it from a CDN and starts it from an inline script)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

router = APIRouter(include_in_schema=False)

CACHE = {"Cache-Control": "public, max-age=86400"}
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mines API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""
START = """"use strict";
// Swagger UI on this server's schema; a file of its own, as the CSP allows no inline script.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""


def assets() -> Path:
    """Swagger UI's files, as the `fastapi-offline` package ships them (MIT, no CDN)."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).parent / "static"


@router.get("/docs")
async def page() -> HTMLResponse:
    return HTMLResponse(PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/docs/start.js")
async def start() -> Response:
    return Response(START, media_type="text/javascript", headers=CACHE)


@router.get("/docs/swagger-ui-bundle.js")
async def bundle() -> FileResponse:
    return FileResponse(
        assets() / "swagger-ui-bundle.js", media_type="text/javascript", headers=CACHE
    )


@router.get("/docs/swagger-ui.css")
async def style() -> FileResponse:
    return FileResponse(assets() / "swagger-ui.css", media_type="text/css", headers=CACHE)
