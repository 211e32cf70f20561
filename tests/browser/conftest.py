"""Fixtures of the browser tests: one server and one headless chromium for the whole session."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright
from psycopg import sql

from backend.store.database import connect, with_database
from tests.browser.console import ConsoleErrors, watched
from tests.browser.support import Server, chromium_path, serve


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "console_errors(reason, allow=regex): the test provokes the browser console errors that match allow "
        "on purpose (say why); any other error still fails it",
    )


@pytest.fixture(scope="session")
def server(pg_server_url: str, template_database: str) -> Iterator[Server]:
    """A real `flowyard serve` (API and worker) on a database cloned from the migrated template, shared by
    the modules a test process runs. Which modules those are changes from run to run, so two modules must
    never add the same user: tests/test_browser_users.py holds the names apart (two adding "rhea" failed
    one CI run and passed others)."""
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


@pytest.fixture(scope="module")
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


@pytest.fixture(autouse=True)
def no_console_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a browser test whose pages wrote an error to the console or threw (tests/browser/console.py)."""
    if "browser" not in request.fixturenames:
        yield
        return
    errors: ConsoleErrors = request.getfixturevalue("console_errors")
    before = len(errors.lines)
    yield
    new = errors.lines[before:]
    allowed = request.node.get_closest_marker("console_errors")
    if allowed is not None:
        assert allowed.args and allowed.args[0], "console_errors needs a reason"
        pattern = allowed.kwargs.get("allow")
        assert pattern, "console_errors needs the errors it allows (allow=regex)"
        new = [line for line in new if not re.search(pattern, line)]
    assert not new, "the browser console reported errors:\n" + "\n".join(new)


# Module scope, not session: while Playwright's sync API is open its event loop counts as running in
# this thread, and every later test module that calls asyncio.run() would fail.
@pytest.fixture(scope="module")
def browser(console_errors: ConsoleErrors) -> Iterator[Browser]:
    executable = chromium_path()
    with sync_playwright() as playwright:
        # --no-sandbox: CI and this machine run tests as root, where chromium's sandbox cannot start.
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        yield watched(launched, console_errors)
        launched.close()
