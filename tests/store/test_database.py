from __future__ import annotations

import subprocess
import sys

import pytest

from backend.store.database import connect, with_database
from backend.store.errors import StoreError, describe_host


def test_an_unreachable_database_is_one_line_naming_the_host_not_the_password() -> None:
    env = {"DATABASE_URL": "postgresql://ann:hunter2@127.0.0.1:1/flows", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "migrate"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "127.0.0.1:1/flows" in lines[0]
    assert "database_unreachable" in lines[0]
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr


def test_connect_raises_a_store_error_with_a_reason_code() -> None:
    with pytest.raises(StoreError) as refused:
        connect("postgresql://nobody@127.0.0.1:1/none")
    assert refused.value.code == "database_unreachable"
    assert refused.value.params == {"host": "127.0.0.1:1/none"}


def test_describe_host_never_shows_the_password() -> None:
    text = describe_host("postgresql://ann:s3cret@db.example:5433/flows?sslmode=require")
    assert text == "db.example:5433/flows"
    assert "s3cret" not in text


def test_a_module_database_is_migrated_and_its_own(database_url: str) -> None:
    with connect(database_url) as conn:
        name = conn.execute("SELECT current_database()").fetchone()
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert name is not None and str(name[0]).startswith("flowyard_test_")
    assert {"flows", "flow_versions", "runs", "journal", "waits", "schema_migrations"} <= tables
    assert "dbname=x" in with_database(database_url, "x").split()
