"""Forward-only migrations: numbered .sql files, each applied in one transaction, recorded by number.

Released migrations are never edited; a schema change is a new file with the next number. A database
that holds a number this release does not know was migrated by a newer Flowyard, and is refused unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from backend.store.errors import StoreError
from backend.store.versions import check_server_version

_FILENAME = re.compile(r"^(?P<number>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")
# One number for every Flowyard process: two `migrate`s started together apply each file once.
_LOCK_KEY = 0x666C6F77  # "flow"


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str


def known() -> list[Migration]:
    """The migrations shipped with this release, in order.

    Examples:
        >>> [m.number for m in known()][:1]
        [1]
    """
    found = []
    for entry in resources.files("backend.store.migrations_sql").iterdir():
        match = _FILENAME.match(entry.name)
        if match:
            found.append(Migration(int(match["number"]), match["name"], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


def applied(conn: psycopg.Connection[tuple[object, ...]]) -> list[int]:
    """The numbers recorded in the database; empty for a database Flowyard never touched."""
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return []
    return [int(str(row[0])) for row in conn.execute("SELECT number FROM schema_migrations ORDER BY number")]


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[Migration]:
    """Apply what is missing, each file in a transaction of its own; the list of what was applied.

    A database that records a number this release does not know is refused before anything is written.
    """
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise RuntimeError("migrate() needs a connection with no transaction open: each file commits")
    check_server_version(conn.info.server_version)
    shipped = known()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        present = applied(conn)
        if present and max(present) > len(shipped):
            raise StoreError(code="database_schema_newer", found=max(present), known=len(shipped))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
    done: list[Migration] = []
    for migration in shipped:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            if migration.number in applied(conn):
                continue  # another process applied it while we waited for the lock
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                (migration.number, migration.name),
            )
            done.append(migration)
    return done
