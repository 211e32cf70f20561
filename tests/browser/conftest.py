"""Fixtures of the browser tests: one server and one headless chromium for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright
from psycopg import sql

from backend.store.database import connect, with_database
from tests.browser.support import Server, chromium_path, serve


@pytest.fixture(scope="session")
def server(pg_server_url: str, template_database: str) -> Iterator[Server]:
    """A real `flowyard serve` (API and worker) on a database cloned from the migrated template."""
    name = f"{template_database}_browser"
    with connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template_database)
            )
        )
    try:
        with serve(with_database(pg_server_url, name)) as running:
            yield running
    finally:
        with connect(pg_server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


# Per module, not per session: Playwright's sync API runs an event loop in the main thread while it is
# open, and every later test that calls asyncio.run() (tests/queue, tests/walker) would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    with sync_playwright() as playwright:
        # --no-sandbox: CI and this machine run tests as root, where chromium's sandbox cannot start.
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        yield launched
        launched.close()
