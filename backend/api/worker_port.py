"""A worker's own `/metrics`, on a port of its own (`flowyard worker --metrics-port P`).

A worker serves no API, so its counters (claims, walks, actions) would be invisible without this. It is
the same route, with the same protection, as the API's, served by uvicorn on the worker's event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import uvicorn
from psycopg_pool import AsyncConnectionPool
from starlette.applications import Starlette

from backend.api.observed import metrics_route


class _QuietServer(uvicorn.Server):
    """The worker owns SIGTERM and SIGINT (they drain its walks); uvicorn must not take them over."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def bind(host: str, port: int) -> socket.socket:
    """Bound before the worker starts, so a port in use is refused up front (OSError), not mid-run."""
    return socket.create_server((host, port))


@contextlib.asynccontextmanager
async def metrics_port(
    pool: AsyncConnectionPool[Any],
    listener: socket.socket | None,
    token: str | None,
    multiprocess_dir: str | None = None,
) -> AsyncIterator[None]:
    """Serve `/metrics` on `listener` while the block runs, to admins and to whoever sends `token`;
    nothing when there is no listener."""
    if listener is None:
        yield
        return
    app = Starlette(routes=[metrics_route()])
    app.state.pool = pool
    app.state.metrics_token, app.state.metrics_dir = token, multiprocess_dir
    server = _QuietServer(uvicorn.Config(app, lifespan="off", log_config=None, access_log=False))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        yield
    finally:
        server.should_exit = True
        await task
