"""`flowyard serve`: one API process, or N of them sharing one listening socket (`--workers N`).

N processes are uvicorn's supervisor: it forks (spawns) N children that accept on the socket `serve`
bound, restarts one that dies, and on SIGTERM or SIGINT passes SIGTERM on and waits for them. Each child
drains like a single `serve` does: requests in flight are answered, then its in-process worker (unless
`--no-worker`) finishes the walks in hand before the pool closes.
"""

from __future__ import annotations

import shutil
import socket
import tempfile

import uvicorn
from starlette.applications import Starlette
from uvicorn.supervisors import Multiprocess

from backend.observability.logs import configure as configure_logging
from backend.settings import Settings, environment, hand_down

# How `serve` tells its children what the command line said (they are new interpreters).
_URL, _WORKER = "FLOWYARD_SERVE_DATABASE_URL", "FLOWYARD_SERVE_WORKER"


# On SIGTERM, requests in flight get this long to finish; then open connections (a live event stream
# never finishes by itself) are closed, and the lifespan lets the worker finish the walks in hand.
GRACEFUL_SHUTDOWN_S = 10


def serve(listener: socket.socket, url: str, settings: Settings, *, run_worker: bool, processes: int) -> None:
    """Serve on `listener` until SIGTERM or SIGINT; our handler formats uvicorn's records too."""
    if processes == 1:
        from backend.api.app import create_app

        app = create_app(url, run_worker=run_worker, settings=settings)
        server = uvicorn.Server(
            uvicorn.Config(
                app, log_config=None, access_log=False, timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S
            )
        )
        server.run(sockets=[listener])
        return
    # The children are new interpreters: what the command line said reaches them through the environment.
    hand_down(**{_URL: url, _WORKER: "1" if run_worker else ""})
    # The children's counters are summed at each scrape from files in one folder, which must start
    # empty (prometheus-client's rule): one of our own unless the operator named one.
    folder = settings.metrics_dir or tempfile.mkdtemp(prefix="flowyard-metrics-")
    hand_down(PROMETHEUS_MULTIPROC_DIR=folder)
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
        if settings.metrics_dir is None:
            shutil.rmtree(folder, ignore_errors=True)


def app_from_environment() -> Starlette:
    """The app of one child process of `serve --workers N`: a process's start, so its settings are read
    here (the parent checked them already)."""
    from backend.api.app import create_app
    from backend.store.commits import arm_from_environment

    settings, environ = Settings.from_environment(), environment()
    configure_logging(settings.log_format, settings.log_level)
    arm_from_environment(environ)  # a crash test's commit counter, per child (nothing unless asked)
    return create_app(environ[_URL], run_worker=bool(environ.get(_WORKER)), settings=settings)
