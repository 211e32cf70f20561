"""`flowyard migrate` refuses a PostgreSQL older than 15 with its reason code, and writes nothing.

No server older than 15 exists on this machine or in CI (the machine's is 15, the embedded one 18, and
Debian's archive here carries no older major version), so the test stands in the version number: it
replaces `versions.server_version`, the one function `migrate` reads the version through, and runs the
real command against a real, empty database. A second test shows that function reads the real server's
number, so what the first one replaces is what production reads.
"""

from __future__ import annotations

import pytest

from backend.cli import main
from backend.i18n.catalogs import message
from backend.store import versions
from backend.store.database import connect


def test_migrate_refuses_postgresql_14_and_writes_nothing(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(versions, "server_version", lambda _conn: 140011)
    monkeypatch.setenv("DATABASE_URL", empty_database_url)
    assert main(["migrate"]) == 2
    said = capsys.readouterr()
    reason = message("database_version_unsupported", "en", found="14.11", needed="15")
    assert said.err == f"flowyard: {reason} (database_version_unsupported)\n"
    assert "14.11" in reason and said.out == ""
    with connect(empty_database_url) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        ).fetchone()
    assert tables == (0,)


def test_the_version_migrate_reads_is_the_servers_own(empty_database_url: str) -> None:
    with connect(empty_database_url) as conn:
        shown = conn.execute("SHOW server_version_num").fetchone()
        assert shown is not None
        assert versions.server_version(conn) == int(str(shown[0])) >= versions.MINIMUM
