"""The PostgreSQL versions Flowyard runs on: 15 and newer (tested in CI on 15 and on the embedded 18).

15 is the floor because the schema uses `UNIQUE NULLS NOT DISTINCT` (one global grant per user and right,
where a NULL flow means "everywhere"; 0002_approvals_and_people.sql). The rest it needs is older:
identity columns (10), `FOR UPDATE SKIP LOCKED` (9.5), jsonb, LISTEN/NOTIFY, partial indexes. An older
server is refused before any migration runs, with a reason, not with a syntax error halfway through.
"""

from __future__ import annotations

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
