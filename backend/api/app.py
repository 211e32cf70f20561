"""The Starlette application: the declared endpoints, JSON errors for everything else, and the pool it
shares with its in-process worker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from backend.actions import ActionSender, ActionSettings
from backend.api import (  # noqa: F401 - they declare the endpoints
    addresses,
    approvals,
    flows,
    me,
    meta,
    openapi,
    people_list,
    runs,
    static,
    stream,
)
from backend.api.endpoint import ENDPOINTS
from backend.api.errors import ApiError, error_response
from backend.approvals.mail import approval_mailer
from backend.i18n import negotiate
from backend.queue.commands import open_pool
from backend.queue.driver import Actions
from backend.queue.sweep import approval_retention_from_env, retention_from_env
from backend.queue.worker import Worker


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    locale = negotiate(request.headers.get("accept-language"), None)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "request_invalid")
    return error_response(ApiError(exc.status_code, code=code), locale, headers=dict(exc.headers or {}))


def create_app(
    database_url: str,
    *,
    run_worker: bool = False,
    actions: Actions | None = None,
    frontend: Path | None = None,
) -> Starlette:
    """The API, and the editor's pages from `frontend` (default: static.frontend_dir())."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = open_pool(database_url, size=20)
        await pool.open(wait=False)
        app.state.pool = pool
        run_events = stream.RunEvents(database_url)
        run_events.start()
        app.state.run_events = run_events
        stop = asyncio.Event()
        worker = None
        if run_worker:
            sender = actions or ActionSender(pool, ActionSettings.from_env())
            worker = asyncio.create_task(
                Worker(
                    pool,
                    actions=sender,
                    outbox=approval_mailer(pool),
                    retention=retention_from_env(),
                    approval_retention=approval_retention_from_env(),
                ).run(stop)
            )
        try:
            yield
        finally:
            stop.set()  # the worker finishes the walks in hand before the pool closes
            if worker is not None:
                await worker
            await run_events.stop()
            await pool.close()

    handlers: dict[Any, Any] = {HTTPException: _http_error}
    pages = static.routes(frontend or static.frontend_dir())
    return Starlette(
        routes=[ep.route() for ep in ENDPOINTS] + pages,
        lifespan=lifespan,
        exception_handlers=handlers,
        middleware=[Middleware(static.SecurityHeaders)],
    )
