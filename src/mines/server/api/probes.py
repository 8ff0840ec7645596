"""`/healthz` and `/readyz`: the liveness and readiness probes of an orchestrator or a proxy."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from mines.server.api.deps import Checks, Draining
from mines.server.api.schemas import HealthOut, ReadyOut, UnreadyOut
from mines.server.services.readiness import CHECK_TIMEOUT

router = APIRouter(tags=["operations"])

NO_STORE = {"Cache-Control": "no-store"}
"""A probe's answer is about this moment: no cache between the prober and the server keeps it."""
ESSENTIAL = frozenset({"database"})
"""Dependencies without which the process cannot serve: only these make `/readyz` fail. A
failing Redis degrades the rate limits to per-process counts, and every process would fail
together with it: taking them all out of the proxy for it would be an outage, not a fallback."""
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
    description=f"200 when the database answers a query within {CHECK_TIMEOUT:g} s, else 503 "
    "naming it. With `--redis`, Redis is pinged too: when it fails the answer is still 200, "
    "listing it in `degraded` (the rate limits are then counted by each process alone). One "
    "check of each runs at a time, whatever the number of probes.",
    response_model=ReadyOut,
    responses={503: {"model": UnreadyOut, "description": "a dependency is failing"}},
)
async def readyz(readiness: Checks, drain: Draining) -> JSONResponse:
    if drain.draining:
        detail = "not ready: this process is draining before it stops"
        body: dict[str, Any] = {"code": "unready", "detail": detail, "status": "unready"}
        body.update(failing=["draining"], checks={})
        return JSONResponse(body, status_code=503, headers=NO_STORE)
    checks = await readiness.check()
    failing = [name for name, state in checks.items() if state != "ok" and name in ESSENTIAL]
    degraded = [name for name, state in checks.items() if state != "ok" and name not in ESSENTIAL]
    if not failing:
        body = {"status": "ready", "failing": [], "degraded": degraded, "checks": checks}
        return JSONResponse(body, headers=NO_STORE)
    detail = "not ready: " + "; ".join(f"{name} {PROBLEMS[checks[name]]}" for name in failing)
    body = {"code": "unready", "detail": detail, "status": "unready", "failing": failing}
    return JSONResponse({**body, "checks": checks}, status_code=503, headers=NO_STORE)
