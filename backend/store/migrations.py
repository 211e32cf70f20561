"""Forward-only migrations: numbered .sql files, each applied in one transaction, recorded by number.

Released migrations are never edited; a schema change is a new file with the next number. A database
that holds a number this release does not know was migrated by a newer Flowyard, and is refused unchanged.
Each applied file's SHA-256 is recorded with it: a database whose applied file differs from the one this
release ships (someone edited a released migration) is refused, naming the file, before anything runs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

import psycopg
from psycopg.rows import class_row, scalar_row

from backend.store import versions
from backend.store.errors import StoreError

_FILENAME = re.compile(r"^(?P<number>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")
# One number for every Flowyard process: two `migrate`s started together apply each file once.
_LOCK_KEY = 0x666C6F77  # "flow"


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """The SHA-256 of the file's text, as recorded when it was applied."""
        return hashlib.sha256(self.sql.encode()).hexdigest()


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
    scalars = conn.cursor(row_factory=scalar_row)
    if not scalars.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone():
        return []
    return [
        int(str(number)) for number in scalars.execute("SELECT number FROM schema_migrations ORDER BY number")
    ]


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[Migration]:
    """Apply what is missing, each file in a transaction of its own; the list of what was applied.

    A database that records a number this release does not know is refused before anything is written.
    """
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raise RuntimeError("migrate() needs a connection with no transaction open: each file commits")
    versions.check_server_version(versions.server_version(conn))
    shipped = known()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        present = applied(conn)
        unknown = set(present) - {m.number for m in shipped}
        if unknown:
            raise StoreError(code="database_schema_newer", found=max(unknown), known=len(shipped))
        if present == [m.number for m in shipped] and _has_checksums(conn):
            # Up to date: nothing is created, so an app role without CREATE on the schema starts too.
            _check_unchanged(conn, shipped)
            return []
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text")
        _check_unchanged(conn, shipped)
    done: list[Migration] = []
    for migration in shipped:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            if migration.number in applied(conn):
                continue  # another process applied it while we waited for the lock
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (number, name, checksum) VALUES (%s, %s, %s)",
                (migration.number, migration.name, migration.checksum),
            )
            done.append(migration)
    return done


def _has_checksums(conn: psycopg.Connection[tuple[object, ...]]) -> bool:
    scalars = conn.cursor(row_factory=scalar_row)
    found = scalars.execute(
        "SELECT EXISTS (SELECT FROM information_schema.columns"
        " WHERE table_name = 'schema_migrations' AND column_name = 'checksum'"
        " AND table_schema = current_schema())"
    ).fetchone()
    return bool(found)


@dataclass(frozen=True, slots=True)
class _Applied:
    """A migration as the database recorded it (no checksum: applied before checksums were kept)."""

    number: int
    name: str
    checksum: str | None


def _check_unchanged(conn: psycopg.Connection[tuple[object, ...]], shipped: list[Migration]) -> None:
    """Refuse a database whose applied migrations differ from the files shipped under their numbers.

    Files applied before checksums were recorded get the shipped file's checksum now: the first release
    that records them trusts what it finds once, and every later start compares.
    """
    by_number = {m.number: m for m in shipped}
    with conn.cursor(row_factory=class_row(_Applied)) as cur:
        rows = cur.execute("SELECT number, name, checksum FROM schema_migrations ORDER BY number").fetchall()
    for row in rows:
        number, name, checksum = row.number, row.name, row.checksum
        migration = by_number.get(int(str(number)))
        if migration is None:
            continue  # newer than this release: refused by the caller's check already
        if checksum is None:
            conn.execute(
                "UPDATE schema_migrations SET checksum = %s WHERE number = %s",
                (migration.checksum, migration.number),
            )
        elif checksum != migration.checksum or name != migration.name:
            raise StoreError(code="migration_changed", number=migration.number, name=migration.name)
