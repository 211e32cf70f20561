"""The store's failures, named after what they mean to an operator."""

from __future__ import annotations

from psycopg.conninfo import conninfo_to_dict

from backend.errors import CodedError


class StoreError(CodedError):
    """A failure the CLI reports as one line with a reason code, and exit code 2; the API, as 503."""

    status = 503


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
