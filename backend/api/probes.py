"""The probes an orchestrator asks without a token: `/livez` (this process serves) and `/readyz` (send
it traffic: the database answers and holds every migration this release needs).

They differ on purpose: a database outage makes every API process unready (taken out of the load
balancer) but still live, so the orchestrator does not restart processes that would only fail the same.
A schema *newer* than this release keeps a running process ready: during a rolling upgrade the new
release migrates first (forward-only, additive) and the old processes serve on until they are replaced;
only their restart is refused (`database_schema_newer`).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from backend.api.errors import ApiError, error_response
from backend.i18n import negotiate
from backend.store.errors import describe_host
from backend.store.migrations import known
from backend.store.queries import scalar

log = logging.getLogger("flowyard.api")

# A probe's own bound: a pool that cannot hand out a connection in this time is not ready.
READY_TIMEOUT_S = 2.0
SHIPPED = len(known())


async def livez(request: Request) -> Response:
    return JSONResponse({"status": "live"})


async def readyz(request: Request) -> Response:
    locale = negotiate(request.headers.get("accept-language"), None)
    pool: Any = request.app.state.pool
    try:
        async with pool.connection(timeout=READY_TIMEOUT_S) as conn:
            found = await scalar(conn, "SELECT coalesce(max(number), 0) FROM schema_migrations")
    except Exception:
        log.warning("not ready: the database does not answer", exc_info=True)
        error = ApiError(503, code="database_unreachable", host=describe_host(str(pool.conninfo)))
        return error_response(error, locale)
    schema = int(found or 0)
    if schema < SHIPPED:
        detail = {"schema": schema, "known": SHIPPED}
        error = ApiError(503, code="schema_not_current", detail=detail, found=schema, known=SHIPPED)
        return error_response(error, locale)
    return JSONResponse({"status": "ready", "schema": schema})


def probe_routes() -> list[Route]:
    return [Route("/livez", livez, methods=["GET"]), Route("/readyz", readyz, methods=["GET"])]
