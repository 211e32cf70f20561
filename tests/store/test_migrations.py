from __future__ import annotations

from typing import cast

import psycopg
import pytest

from backend.store.database import connect
from backend.store.errors import StoreError
from backend.store.migrations import applied, known, migrate


def test_a_new_database_gets_every_migration_once(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        first = migrate(conn)
        second = migrate(conn)
        assert [m.number for m in first] == [m.number for m in known()]
        assert second == []
        assert applied(conn) == [m.number for m in known()]


def test_a_database_migrated_by_a_newer_flowyard_is_refused_unchanged(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        migrate(conn)
        newer = len(known()) + 1
        conn.execute("INSERT INTO schema_migrations (number, name) VALUES (%s, 'from_the_future')", (newer,))
        conn.commit()
        tables_before = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        conn.commit()

        with pytest.raises(StoreError) as refused:
            migrate(conn)

        assert refused.value.code == "database_schema_newer"
        assert refused.value.params == {"found": newer, "known": len(known())}
        conn.rollback()
        after = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        assert after == tables_before
        assert newer in applied(conn)


def test_a_failing_migration_leaves_nothing_behind(empty_database_url: str) -> None:
    """Each file is one transaction: a half-applied file would be a schema no release knows."""
    with connect(empty_database_url) as conn:
        conn.execute("CREATE TABLE flows (squatter int)")  # makes 0001 fail part-way
        conn.commit()
        with pytest.raises(psycopg.errors.DuplicateTable):
            migrate(conn)
        conn.rollback()
        assert applied(conn) == []
        runs = conn.execute("SELECT to_regclass('runs')").fetchone()
        assert runs == (None,)


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [m.number for m in known()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(m.sql.strip() for m in known())


def test_each_applied_migration_is_recorded_with_the_checksum_of_its_file(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        migrate(conn)
        rows = conn.execute("SELECT number, checksum FROM schema_migrations").fetchall()
        recorded = dict(cast(list[tuple[int, str]], rows))
        assert recorded == {m.number: m.checksum for m in known()}
        assert all(len(str(checksum)) == 64 for checksum in recorded.values())


def test_a_database_whose_applied_migration_was_edited_is_refused_naming_it(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        migrate(conn)
        conn.execute("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE number = 2")
        conn.commit()

        with pytest.raises(StoreError) as refused:
            migrate(conn)

        assert refused.value.code == "migration_changed"
        assert refused.value.params == {"number": 2, "name": known()[1].name}


def test_migrations_applied_before_checksums_get_them_once_and_are_compared_after(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        migrate(conn)
        conn.execute("ALTER TABLE schema_migrations DROP COLUMN checksum")
        conn.commit()

        assert migrate(conn) == []
        filled = conn.execute("SELECT count(*) FROM schema_migrations WHERE checksum IS NULL").fetchone()
        assert filled == (0,)
        conn.execute("UPDATE schema_migrations SET name = 'renamed' WHERE number = 1")
        conn.commit()
        with pytest.raises(StoreError) as refused:
            migrate(conn)
        assert refused.value.code == "migration_changed"
