"""The app as a role that is not a superuser and owns nothing (docs/security.md): the trails hold.

The role is created in the test server (roles belong to the whole server, so its name carries the
process id) with exactly the privileges docs/security.md gives the app, and each connection takes it
with SET ROLE. What a superuser could still do (disable a trigger, replication mode) is refused to it;
what the triggers refuse (TRUNCATE, deleting a decision) is refused to everybody, the owner included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

import psycopg
import pytest
from psycopg import sql

from backend.approvals.retention import record_retention, sweep_decided_approvals
from backend.settings import Settings
from tests.queue.test_sweep import ASK
from tests.support import AsyncConnection, Queue

ROLE = f"flowyard_app_test_{os.getpid()}"
# The grants docs/security.md tells an operator to give the app's role, word for word.
APP_PRIVILEGES = [
    "GRANT USAGE ON SCHEMA public TO {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
    "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
]


@pytest.fixture(scope="module")
def app_role(database_url: str) -> Iterator[str]:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(ROLE)))
        conn.execute(
            sql.SQL("CREATE ROLE {} NOSUPERUSER NOCREATEDB NOCREATEROLE").format(sql.Identifier(ROLE))
        )
        for statement in APP_PRIVILEGES:
            conn.execute(sql.SQL(statement).format(role=sql.Identifier(ROLE)))
    yield ROLE
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(ROLE)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(ROLE)))


def as_app(url: str, role: str) -> psycopg.Connection[tuple[object, ...]]:
    conn = psycopg.connect(url, autocommit=True)
    conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    return conn


def decided_approvals(queue: Queue) -> tuple[int, int]:
    """Two decided approvals: one decided three years ago, one just now; their run ids."""
    old, recent = queue.start(queue.save(ASK)), queue.start(queue.save(ASK))
    queue.drain()
    with psycopg.connect(queue.url, autocommit=True) as conn:
        for run_id, age in ((old, "3 years"), (recent, "0 seconds")):
            conn.execute(
                "UPDATE approvals SET outcome = 'approved', decided_by = 'ann',"
                " decided_at = now() - %s::interval WHERE run_id = %s",
                (age, run_id),
            )
    return old, recent


def test_the_app_role_cannot_truncate_delete_or_bypass_the_approvals_trail(
    queue: Queue, app_role: str
) -> None:
    old, recent = decided_approvals(queue)
    with as_app(queue.url, app_role) as conn:
        assert conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (
            False,
        )
        # The app's ordinary work goes through: it reads and writes its tables.
        assert conn.execute("SELECT count(*) FROM approvals WHERE run_id = %s", (old,)).fetchone() == (1,)
        conn.execute("INSERT INTO users (name) VALUES ('role-test')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE approvals")
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute("DELETE FROM approvals WHERE run_id = %s", (recent,))
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute("UPDATE approvals SET outcome = 'rejected' WHERE run_id = %s", (old,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SET session_replication_role = replica")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("ALTER TABLE approvals DISABLE TRIGGER approvals_final")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DROP TRIGGER approvals_final ON approvals")
    assert queue.one("SELECT count(*) FROM approvals WHERE run_id IN (%s, %s)", old, recent) == (2,)


def test_truncate_is_refused_even_to_the_owner(queue: Queue) -> None:
    with psycopg.connect(queue.url, autocommit=True) as conn:
        for table in ("approvals", "rights_trail"):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="cannot be truncated"):
                conn.execute(sql.SQL("TRUNCATE {} CASCADE").format(sql.Identifier(table)))


def test_a_retention_the_app_role_declares_or_writes_itself_deletes_no_decision(
    queue: Queue, app_role: str
) -> None:
    old, _recent = decided_approvals(queue)
    with as_app(queue.url, app_role) as conn:
        # The attack of issue 32: a session setting the retention itself, then deleting a decision.
        for retention in ("1 day", "2 years"):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation), conn.transaction():
                conn.execute("SELECT set_config('flowyard.approval_retention', %s, true)", (retention,))
                conn.execute("DELETE FROM approvals WHERE run_id = %s", (old,))
        # Nor may it write the retention the trigger trusts, whatever the grants say.
        for statement in (
            "INSERT INTO approval_retention (retention) VALUES ('1 day')",
            "UPDATE approval_retention SET retention = '1 day'",
            "DELETE FROM approval_retention",
            "TRUNCATE approval_retention",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        assert not record_retention(conn, timedelta(days=1))
        # A temporary table of the same name comes first on its search path; the trigger does not read it.
        conn.execute("CREATE TEMP TABLE approval_retention (retention interval)")
        conn.execute("INSERT INTO approval_retention VALUES ('1 day')")
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute("DELETE FROM approvals WHERE run_id = %s", (old,))
    assert queue.one("SELECT count(*) FROM approvals WHERE run_id = %s", old) == (1,)
    assert queue.one("SELECT count(*) FROM approval_retention") == (0,)


def test_the_retention_exception_deletes_only_what_is_older_than_the_recorded_retention(
    queue: Queue, app_role: str
) -> None:
    old, recent = decided_approvals(queue)

    async def sweep(conn: AsyncConnection) -> int:
        await conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(app_role)))
        return await sweep_decided_approvals(conn, None, timedelta(days=365 * 2))

    # The app's own setting is an upper bound at most: with none recorded, nothing goes.
    assert queue.aconn(sweep) == 0
    with psycopg.connect(queue.url) as owner:  # `flowyard migrate`, as the schema's owner
        assert record_retention(owner, timedelta(days=365 * 2))
    # A decision younger than the recorded retention stays, whatever the session declares.
    with (
        as_app(queue.url, app_role) as conn,
        pytest.raises(psycopg.errors.IntegrityConstraintViolation),
        conn.transaction(),
    ):
        conn.execute("SELECT set_config('flowyard.approval_retention', '1 second', true)")
        conn.execute("DELETE FROM approvals WHERE run_id = %s", (recent,))
    # Every decision older than two years goes (an earlier test's too), and only those.
    assert queue.aconn(sweep) >= 1
    assert queue.one("SELECT count(*) FROM approvals WHERE decided_at < now() - interval '2 years'") == (0,)
    assert queue.all("SELECT run_id FROM approvals WHERE run_id IN (%s, %s)", old, recent) == [(recent,)]


def test_the_app_role_cannot_rewrite_the_rights_trail(database_url: str, app_role: str) -> None:
    with as_app(database_url, app_role) as conn:
        conn.execute("INSERT INTO users (name) VALUES ('trail-test')")
        conn.execute("""INSERT INTO grants (user_name, "right") VALUES ('trail-test', 'decide')""")
        assert conn.execute(
            "SELECT change FROM rights_trail WHERE user_name = 'trail-test' ORDER BY id"
        ).fetchall() == [("user_added",), ("granted",)]
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute("DELETE FROM rights_trail WHERE user_name = 'trail-test'")
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute("UPDATE rights_trail SET actor = 'nobody' WHERE user_name = 'trail-test'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE rights_trail")


def test_the_app_role_starts_on_a_migrated_database(database_url: str, app_role: str) -> None:
    """`flowyard serve` migrates on start: with nothing to apply, the app role needs no CREATE for it."""
    from backend.actions.secret_key import keys_from_text
    from backend.actions.secret_store import SecretStore
    from backend.store.migrations import migrate

    with as_app(database_url, app_role) as conn:
        conn.autocommit = False
        assert migrate(conn) == []
        key = "x" * 43 + "="
        assert SecretStore(keys_from_text(key)).seal_moved_tokens(conn) == 0


def test_flowyard_migrate_records_the_approvals_retention_it_is_given(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.processes import _migrate_and_seal

    def recorded() -> object:
        with psycopg.connect(database_url) as conn:
            row = conn.execute("SELECT retention FROM approval_retention").fetchone()
        return row[0] if row else None

    monkeypatch.setenv("FLOWYARD_APPROVAL_RETENTION_DAYS", "30")
    _migrate_and_seal(database_url, Settings.from_environment())
    assert recorded() == timedelta(days=30)
    monkeypatch.setenv("FLOWYARD_APPROVAL_RETENTION_DAYS", "0")
    _migrate_and_seal(database_url, Settings.from_environment())
    assert recorded() is None


def test_a_function_of_the_app_roles_own_schema_does_not_stand_in_for_the_recorded_retention(
    queue: Queue, app_role: str
) -> None:
    """A database where the app's role may create in a schema (public on a database from before
    PostgreSQL 15 lets everyone): a function it makes named like the one the trail's triggers call, first
    on its own search path, must not tell them what the retention is."""
    _old, recent = decided_approvals(queue)
    shadow = sql.Identifier(f"shadow_{os.getpid()}")
    with psycopg.connect(queue.url, autocommit=True) as owner:
        owner.execute(sql.SQL("CREATE SCHEMA {}").format(shadow))
        owner.execute(
            sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(shadow, sql.Identifier(app_role))
        )
        owner.execute(
            "INSERT INTO approval_votes (approval_id, flow_id, voter, vote, cast_at)"
            " SELECT id, flow_id, 'ann', 'approve', now() FROM approvals WHERE run_id = %s",
            (recent,),
        )
    try:
        with as_app(queue.url, app_role) as conn:
            conn.execute(
                sql.SQL(
                    "CREATE FUNCTION {}.recorded_approval_retention(name) RETURNS interval"
                    " LANGUAGE sql AS $$ SELECT interval '1 microsecond' $$"
                ).format(shadow)
            )
            conn.execute(sql.SQL("SET search_path = {}, public").format(shadow))
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
                conn.execute(
                    "DELETE FROM approval_votes WHERE approval_id IN"
                    " (SELECT id FROM approvals WHERE run_id = %s)",
                    (recent,),
                )
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
                conn.execute("DELETE FROM approvals WHERE run_id = %s", (recent,))
        assert queue.one("SELECT count(*) FROM approvals WHERE run_id = %s", recent) == (1,)
        votes = "SELECT count(*) FROM approval_votes AS v JOIN approvals AS a ON a.id = v.approval_id"
        assert queue.one(votes + " WHERE a.run_id = %s", recent) == (1,)
    finally:
        with psycopg.connect(queue.url, autocommit=True) as owner:
            owner.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(shadow))
