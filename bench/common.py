"""What every benchmark needs: a freshly migrated database of its own, and a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql

from backend.settings import Settings
from backend.store.database import database_url, with_database
from backend.store.migrations import migrate


def fresh_database(name: str, *, migrate_it: bool = True) -> str:
    """Drop and make `name` on the configured server (DATABASE_URL, or the embedded one), migrated unless
    the caller migrates it (with another checkout's migrations)."""
    server = database_url(Settings.from_environment())
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(server, name)
    if migrate_it:
        with psycopg.connect(url) as conn:
            migrate(conn)
    return url


def drop_database(name: str) -> None:
    with psycopg.connect(database_url(Settings.from_environment()), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(url: str, *args: str, cwd: Path | None = None) -> Iterator[int]:
    """`flowyard serve --no-worker` on a port of loopback the system picks, once it says it is serving
    there; that port, read from its banner ("Flowyard is serving on http://127.0.0.1:PORT"). With `cwd`,
    the server of the checkout there (its `backend` package comes first on its path)."""
    with served(url, *args, cwd=cwd) as (port, _pid):
        yield port


@contextmanager
def served(url: str, *args: str, cwd: Path | None = None) -> Iterator[tuple[int, int]]:
    """`serving`, with the server's process id beside its port (to read its memory in /proc)."""
    serve = subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "0", "--no-worker", *args],
        env={"FLOWYARD_LOG_LEVEL": "WARNING", **os.environ, "DATABASE_URL": url},
        stdout=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    assert serve.stdout is not None
    try:
        # An empty database first hears how to add its first administrator; then the banner.
        while "serving" not in (line := serve.stdout.readline()):
            if not line:
                raise SystemExit("flowyard serve ended before it was serving")
        yield int(line.strip().rsplit(":", 1)[1]), serve.pid
    finally:
        serve.terminate()
        serve.wait()
        serve.stdout.close()
