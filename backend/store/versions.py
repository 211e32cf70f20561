"""The PostgreSQL versions Flowyard runs on: 15 and newer (tested in CI on 15 and on the embedded 18).

15 is the floor because the schema uses `UNIQUE NULLS NOT DISTINCT` (one global grant per user and right,
where a NULL flow means "everywhere"; 0002_approvals_and_people.sql). The rest it needs is older:
identity columns (10), `FOR UPDATE SKIP LOCKED` (9.5), jsonb, LISTEN/NOTIFY, partial indexes. An older
server is refused before any migration runs, with a reason, not with a syntax error halfway through.
"""

from __future__ import annotations

from typing import Any

import psycopg

from backend.store.errors import StoreError

MINIMUM = 150000  # server_version_num of 15.0


def check_server_version(number: int) -> None:
    """Refuse a server older than MINIMUM; `number` is PostgreSQL's `server_version_num`.

    Examples:
        >>> check_server_version(150004)
        >>> check_server_version(180001)
        >>> check_server_version(140011)
        Traceback (most recent call last):
        ...
        backend.store.errors.StoreError: database_version_unsupported
    """
    if number < MINIMUM:
        raise StoreError(
            code="database_version_unsupported", found=f"{number // 10000}.{number % 10000}", needed="15"
        )


def server_version(conn: psycopg.Connection[Any]) -> int:
    """The server's `server_version_num` (150004 for 15.4), as libpq read it when the connection opened.

    `migrate` reads the version only through this function (as `versions.server_version`), so that a test
    can stand in a server older than any this machine has (tests/store/test_server_version.py).
    """
    return int(conn.info.server_version)
