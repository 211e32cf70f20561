"""`/livez` and `/readyz`: live while the process serves, ready only when the database answers with the
schema this release knows."""

from __future__ import annotations

import psycopg

from backend.api.probes import SHIPPED
from tests.api.support import app_client
from tests.ports import closed_port


def test_ready_with_every_migration_and_not_with_one_missing(database_url: str) -> None:
    with app_client(database_url) as api, psycopg.connect(database_url, autocommit=True) as conn:
        assert api.get("/livez").json() == {"status": "live"}
        ready = api.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "schema": SHIPPED}
        conn.execute("INSERT INTO schema_migrations (number, name) VALUES (9999, 'from_a_newer_release')")
        newer = api.get("/readyz")  # a rolling upgrade migrated ahead of this process: it serves on
        conn.execute("DELETE FROM schema_migrations WHERE number = 9999")
        removed = conn.execute(
            "DELETE FROM schema_migrations WHERE number = %s RETURNING name", (SHIPPED,)
        ).fetchone()
        assert removed is not None
        try:
            behind = api.get("/readyz", headers={"Accept-Language": "de"})
        finally:
            conn.execute(
                "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)", (SHIPPED, removed[0])
            )
        assert api.get("/readyz").status_code == 200
    assert newer.status_code == 200
    assert behind.status_code == 503
    error = behind.json()["error"]
    assert error["code"] == "schema_not_current" and error["detail"] == {
        "schema": SHIPPED - 1,
        "known": SHIPPED,
    }
    assert f"Migration {SHIPPED - 1}" in error["message"]  # the German sentence, with its numbers


def test_live_but_not_ready_without_a_database() -> None:
    with closed_port() as port:
        nowhere = f"postgresql://nobody:pw-never-shown@127.0.0.1:{port}/none?connect_timeout=1"
        with app_client(nowhere, metrics_token="probe-token") as api:
            assert api.get("/livez").status_code == 200
            unready = api.get("/readyz")
            scraped = api.get("/metrics", headers={"Authorization": "Bearer probe-token"})
    # The scrape still answers, and says the database is away.
    assert scraped.status_code == 200
    assert "flowyard_database_up 0.0" in scraped.text.splitlines()
    assert unready.status_code == 503
    error = unready.json()["error"]
    assert error["code"] == "database_unreachable" and "pw-never-shown" not in unready.text
