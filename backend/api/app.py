"""The Starlette application: its routes, and the database pool it shares with its in-process worker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from psycopg_pool import AsyncConnectionPool
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from backend.store.errors import describe_host


async def healthz(request: Request) -> JSONResponse:
    """Up when the database answers; 503 with the reason otherwise. Needs no token: probes have none."""
    pool: AsyncConnectionPool = request.app.state.pool
    try:
        async with pool.connection(timeout=2) as conn:
            row = await (await conn.execute("SELECT max(number) FROM schema_migrations")).fetchone()
    except Exception:
        return JSONResponse(
            {"status": "unavailable", "database": {"ok": False, "code": "database_unreachable"}},
            status_code=503,
        )
    schema = row[0] if row else None
    return JSONResponse({"status": "ok", "database": {"ok": True, "schema": schema}})


def create_app(database_url: str, *, run_worker: bool = False) -> Starlette:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = open_pool(database_url, size=20)
        await pool.open(wait=False)
        app.state.pool = pool
        app.state.database = describe_host(database_url)
        stop = asyncio.Event()
        worker = asyncio.create_task(Worker(pool).run(stop)) if run_worker else None
        try:
            yield
        finally:
            stop.set()  # the worker finishes the walks in hand before the pool closes
            if worker is not None:
                await worker
            await pool.close()

    return Starlette(routes=[Route("/healthz", healthz)], lifespan=lifespan)
