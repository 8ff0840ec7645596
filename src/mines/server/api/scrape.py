"""`/metrics`: the Prometheus metrics, for the addresses the operator allows."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from mines.server.api.deps import Metrics, MetricsAllow
from mines.server.common.metrics import allowed
from mines.server.web.handlers import error

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, registry: Metrics, allow: MetricsAllow) -> Response:
    if not allowed(request.client.host if request.client else None, allow):
        # The same answer as a path that does not exist: a stranger learns nothing.
        return error(404, "not_found", "Not Found")
    return Response(
        generate_latest(registry),
        media_type=CONTENT_TYPE_LATEST,
        headers={"Cache-Control": "no-store"},
    )
