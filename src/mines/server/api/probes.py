"""`/healthz` and `/readyz`: the liveness and readiness probes of an orchestrator or a proxy."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from mines.server.api.schemas import HealthOut, ReadyOut, UnreadyOut
from mines.server.services.readiness import CHECK_TIMEOUT, Readiness

router = APIRouter(tags=["operations"])

NO_STORE = {"Cache-Control": "no-store"}
"""A probe's answer is about this moment: no cache between the prober and the server keeps it."""
PROBLEMS = {"timeout": f"no answer within {CHECK_TIMEOUT:g} s", "error": "answered with an error"}


@router.get(
    "/healthz",
    summary="Liveness",
    description="200 while the process serves requests; it touches nothing else, so a failing "
    "database or Redis does not make a process look dead (that is `/readyz`).",
    response_model=HealthOut,
)
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


@router.get(
    "/readyz",
    summary="Readiness",
    description="200 when the database answers a query and, with `--redis`, Redis answers a "
    f"ping, each within {CHECK_TIMEOUT:g} s; else 503 naming each failing dependency. One "
    "check of each runs at a time, whatever the number of probes.",
    response_model=ReadyOut,
    responses={503: {"model": UnreadyOut, "description": "a dependency is failing"}},
)
async def readyz(request: Request) -> JSONResponse:
    readiness: Readiness = request.app.state.readiness
    checks = await readiness.check()
    failing = [name for name, state in checks.items() if state != "ok"]
    if not failing:
        return JSONResponse({"status": "ready", "failing": [], "checks": checks}, headers=NO_STORE)
    detail = "not ready: " + "; ".join(f"{name} {PROBLEMS[checks[name]]}" for name in failing)
    body = {"code": "unready", "detail": detail, "status": "unready", "failing": failing}
    return JSONResponse({**body, "checks": checks}, status_code=503, headers=NO_STORE)
