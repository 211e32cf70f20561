"""The store's failures, named after what they mean to an operator."""

from __future__ import annotations

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import PoolTimeout

from backend.errors import CodedError


class StoreError(CodedError):
    """A failure the CLI reports as one line with a reason code, and exit code 2; the API as a failure of
    its own (503 database_unavailable when the database is away, else 500)."""


def describe_host(url: str) -> str:
    """Where a database URL points, for error messages: host (or socket folder), port and database.

    Never the password: this text goes to terminals and logs.

    Examples:
        >>> describe_host("postgresql://ann:secret@db.example:6543/flows")
        'db.example:6543/flows'
        >>> describe_host("postgresql://postgres:@/postgres?host=/tmp/pg")
        '/tmp/pg/postgres'
    """
    try:
        parts = conninfo_to_dict(url)
    except Exception:
        return "(an unreadable DATABASE_URL)"
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    dbname = parts.get("dbname") or ""
    return f"{host}{port}/{dbname}"


# The server shutting down, crashed, or refusing connections while it starts (SQLSTATE 57P01-57P03); a
# class 08 state is a connection failure; no state at all is a connection psycopg found broken or closed.
_GONE_STATES = frozenset({"57P01", "57P02", "57P03"})


def database_gone(failure: BaseException) -> bool:
    """Whether `failure` says the database is away (restarting, unreachable, our connection killed), as
    opposed to a fault of the request or of the code: the first is a 503, the second a 500.

    A pool that hands out no connection in its wait (PoolTimeout) counts: the database is not answering
    in time, whatever the cause, and a client may try again.
    """
    if isinstance(failure, PoolTimeout):
        return True
    if not isinstance(failure, psycopg.OperationalError):
        return False
    state = failure.sqlstate
    return state is None or state.startswith("08") or state in _GONE_STATES
