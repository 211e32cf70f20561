"""The Starlette application: the declared endpoints, JSON errors for everything else, its pool, and
the in-process worker with a pool of its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from backend.actions import ActionSender
from backend.api import (  # noqa: F401 - they declare the endpoints
    addresses,
    approvals,
    delegations,
    events,
    evidence,
    flow_names,
    flows,
    me,
    meta,
    openapi,
    people,
    people_list,
    policies,
    resume_preview,
    run_records,
    runs,
    static,
    stops,
    stream,
    templates,
    triggers,
    walk,
)
from backend.api.endpoint import ENDPOINTS
from backend.api.errors import ApiError, error_response
from backend.api.observed import ObservedRequests, metrics_route
from backend.api.probes import probe_routes
from backend.approvals.head_signer import signing
from backend.approvals.mail import approval_mailer
from backend.approvals.queue_port import ApprovalsPort
from backend.faults import Faults
from backend.i18n import negotiate
from backend.people.hashing import PasswordHashing
from backend.queue.commands import open_pool
from backend.queue.ports import Actions
from backend.queue.worker import LEASE, Worker
from backend.settings import Settings

WORKER_CONCURRENCY = 10
# Each walk holds a connection; the heartbeat, the listener and an action's effect log need a few more.
WORKER_POOL_SIZE = WORKER_CONCURRENCY + 3


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    page = static.lost(request.app.state.pages, request) if exc.status_code == 404 else None
    if page is not None:  # a person at a wrong address: the editor's "page not found", in their language
        return page
    locale = negotiate(request.headers.get("accept-language"), None)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "request_invalid")
    return error_response(ApiError(exc.status_code, code=code), locale, headers=dict(exc.headers or {}))


# How long a request waits for a pool connection: while the database is away, the pool has none to give,
# and an answer in seconds (503, try again) beats a client's timeout.
POOL_WAIT_S = 10.0


def create_app(
    database_url: str,
    *,
    run_worker: bool = False,
    actions: Actions | None = None,
    settings: Settings | None = None,
    frontend: Path | None = None,
) -> Starlette:
    """The API, and the editor's pages from `frontend` (default: the settings' FLOWYARD_FRONTEND_DIR, else
    frontend/dist). Without `settings`, the app is a process's start and reads them from the environment
    (a test's own app; `serve` passes its own)."""
    config = settings or Settings.from_environment()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            # A request waits this long at most for a connection, then 503 database_unavailable.
            pool = open_pool(database_url, size=config.api_pool_size, timeout=POOL_WAIT_S)
            await pool.open(wait=False)
            stack.push_async_callback(pool.close)
            app.state.pool = pool
            app.state.hashing = PasswordHashing(config.login_hashers, depth=config.login_queue)
            stack.callback(app.state.hashing.close)
            run_events = stream.RunEvents(database_url)
            run_events.start()
            stack.push_async_callback(run_events.stop)
            app.state.run_events = run_events
            if run_worker:
                # A pool of its own: requests that queue for connections never stall a walk or a heartbeat.
                worker_pool = open_pool(database_url, size=WORKER_POOL_SIZE)
                await worker_pool.open(wait=False)
                stack.push_async_callback(worker_pool.close)
                await stack.enter_async_context(_worker(worker_pool, actions, config))
                await stack.enter_async_context(signing(worker_pool, config))
            yield

    handlers: dict[Any, Any] = {HTTPException: _http_error}
    dist = frontend or config.frontend_dir or static.DIST
    routes = [*(ep.route() for ep in ENDPOINTS), metrics_route(), *probe_routes(), *static.routes(dist)]
    observed = Middleware(ObservedRequests, routes=routes)
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=handlers,
        middleware=[observed, Middleware(static.SecurityHeaders)],
    )
    app.state.settings = config
    app.state.pages = dist
    app.state.metrics_token, app.state.metrics_dir = config.metrics_token, config.metrics_dir
    return app


def worker_of(
    pool: Any,
    settings: Settings,
    *,
    concurrency: int,
    actions: Actions,
    lease: timedelta = LEASE,
    faults: Faults | None = None,
) -> Worker:
    """A worker as a process's settings make it (`flowyard worker`, and `serve`'s in-process one): its
    retentions, its walks' limits, the approvals and their mailer."""
    return Worker(
        pool,
        concurrency=concurrency,
        lease=lease,
        faults=faults,
        actions=actions,
        approvals=ApprovalsPort(),
        retention=settings.run_retention,
        key_retention=settings.key_retention,
        approval_retention=settings.approval_retention,
        record_retention=settings.record_retention,
        limits=settings.limits,
        events_keep=settings.events_keep,
        outbox=approval_mailer(pool, settings.actions, settings.base_url),
    )


@asynccontextmanager
async def _worker(pool: Any, actions: Actions | None, settings: Settings) -> AsyncIterator[None]:
    stop = asyncio.Event()
    sender = actions or ActionSender(pool, settings.actions)
    task = asyncio.create_task(
        worker_of(pool, settings, concurrency=WORKER_CONCURRENCY, actions=sender).run(stop)
    )
    try:
        yield
    finally:
        stop.set()  # the worker finishes the walks in hand before its pool closes
        await task
