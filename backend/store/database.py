"""Where the database is, and connecting to it with errors an operator can act on."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Protocol

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from backend.store import embedded
from backend.store.errors import StoreError, describe_host

EMBEDDED_DATABASE = "flowyard"
CONNECT_TIMEOUT_S = 5


class DatabasePlace(Protocol):
    """Where the database is: backend/settings.py's `Settings` (which imports this package)."""

    @property
    def database_url(self) -> str | None: ...

    @property
    def pgdata(self) -> Path: ...


def database_url(settings: DatabasePlace) -> str:
    """DATABASE_URL when set; else the embedded server's `flowyard` database, started and made if need be."""
    if settings.database_url:
        return settings.database_url
    server_url = embedded.start(settings.pgdata)
    ensure_database(server_url, EMBEDDED_DATABASE)
    return with_database(server_url, EMBEDDED_DATABASE)


def with_database(url: str, dbname: str) -> str:
    """The same server, another database.

    Examples:
        >>> sorted(with_database("postgresql://u@h:5432/a", "b").split())
        ['dbname=b', 'host=h', 'port=5432', 'user=u']
    """
    params = conninfo_to_dict(url)
    params["dbname"] = dbname
    return make_conninfo("", **params)


def connect(url: str, *, autocommit: bool = False) -> psycopg.Connection[tuple[object, ...]]:
    """A connection, or a StoreError naming the host (never the password) when there is none to be had."""
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.OperationalError as exc:
        raise StoreError(code="database_unreachable", host=describe_host(url)) from exc
    except psycopg.ProgrammingError as exc:  # a URL that is not a URL
        raise StoreError(code="database_url_invalid") from exc


def ensure_database(server_url: str, dbname: str) -> None:
    """Create `dbname` on the server unless it exists (CREATE DATABASE has no IF NOT EXISTS)."""
    with connect(server_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
        if exists is None:
            # another process may create it between our look and our CREATE
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
