"""What every benchmark needs: a freshly migrated database of its own, and a free port."""

from __future__ import annotations

import socket

import psycopg
from psycopg import sql

from backend.config import settings
from backend.store.database import database_url, with_database
from backend.store.migrations import migrate


def fresh_database(name: str) -> str:
    """Drop and make `name` on the configured server (DATABASE_URL, or the embedded one), migrated."""
    server = database_url(settings())
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(server, name)
    with psycopg.connect(url) as conn:
        migrate(conn)
    return url


def drop_database(name: str) -> None:
    with psycopg.connect(database_url(settings()), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
