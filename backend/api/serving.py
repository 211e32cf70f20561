"""`flowyard serve`: one API process, or N of them sharing one listening socket (`--workers N`).

N processes are uvicorn's supervisor: it forks (spawns) N children that accept on the socket `serve`
bound, restarts one that dies, and on SIGTERM or SIGINT passes SIGTERM on and waits for them. Each child
drains like a single `serve` does: requests in flight are answered, then its in-process worker (unless
`--no-worker`) finishes the walks in hand before the pool closes.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile

import uvicorn
from starlette.applications import Starlette
from uvicorn.supervisors import Multiprocess

from backend.observability.logs import configure as configure_logging

# How `serve` tells its children what the command line said (they are new interpreters).
_URL, _WORKER = "FLOWYARD_SERVE_DATABASE_URL", "FLOWYARD_SERVE_WORKER"
MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"


# On SIGTERM, requests in flight get this long to finish; then open connections (a live event stream
# never finishes by itself) are closed, and the lifespan lets the worker finish the walks in hand.
GRACEFUL_SHUTDOWN_S = 10


def serve(listener: socket.socket, url: str, *, run_worker: bool, processes: int) -> None:
    """Serve on `listener` until SIGTERM or SIGINT; our handler formats uvicorn's records too."""
    if processes == 1:
        from backend.api.app import create_app

        app = create_app(url, run_worker=run_worker)
        server = uvicorn.Server(
            uvicorn.Config(
                app, log_config=None, access_log=False, timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S
            )
        )
        server.run(sockets=[listener])
        return
    os.environ[_URL], os.environ[_WORKER] = url, "1" if run_worker else ""
    # The children's counters are summed at each scrape from files in one folder, which must start
    # empty (prometheus-client's rule): one of our own unless the operator named one.
    own = MULTIPROC_DIR not in os.environ
    if own:
        os.environ[MULTIPROC_DIR] = tempfile.mkdtemp(prefix="flowyard-metrics-")
    config = uvicorn.Config(
        "backend.api.serving:app_from_environment",
        factory=True,
        workers=processes,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
    try:
        Multiprocess(config, sockets=[listener]).run()
    finally:
        if own:
            shutil.rmtree(os.environ[MULTIPROC_DIR], ignore_errors=True)


def app_from_environment() -> Starlette:
    """The app of one child process of `serve --workers N`."""
    from backend.api.app import create_app
    from backend.store.commits import arm_from_environment

    configure_logging()
    arm_from_environment()  # a crash test's commit counter, per child (nothing unless the environment asks)
    return create_app(os.environ[_URL], run_worker=bool(os.environ.get(_WORKER)))
