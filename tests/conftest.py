"""A real PostgreSQL for every test that touches data: DATABASE_URL when set, else the embedded server.

The schema is built once per session in a template database; each test module gets a database of its own
cloned from it (`CREATE DATABASE ... TEMPLATE`), so modules are isolated and cheap.
"""

from __future__ import annotations

import fcntl
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import psycopg
import pytest
from psycopg import sql

from backend.i18n import terminal
from backend.settings import Settings
from backend.store import embedded
from backend.store.database import connect, ensure_database, with_database
from backend.store.migrations import migrate
from tests.server_logs import session_leaks
from tests.support import Connected, Queue

_numbers = itertools.count(1)

# `serve` and `worker` log a line per event at INFO. Tests that start them read their stderr only once
# they have stopped, through a pipe that holds 64 KiB: at INFO a busy worker would fill it and block on
# its next line. Those tests want the warnings and errors; tests/observability asks for more itself.
os.environ.setdefault("FLOWYARD_LOG_LEVEL", "WARNING")

# The command line speaks the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); the tests read its
# English sentences, whatever the developer's terminal speaks. Tests of other languages set their own.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(autouse=True)
def english_terminal() -> Iterator[None]:
    """A test's `flowyard` (backend.cli.main) sets the terminal's language for the process, as a command
    does once as it starts: the next test's terminal speaks English again."""
    yield
    terminal.speak(terminal.DEFAULT_LOCALE)


@pytest.fixture(scope="session", autouse=True)
def no_secret_in_server_logs() -> Iterator[None]:
    """After the last test: no log a test server wrote holds a secret a test used (tests/server_logs.py)."""
    yield
    found, _logs, _secrets = session_leaks()
    assert found == [], "\n".join(found)


# The server every test process uses: DATABASE_URL when set, else the embedded server, started once by the
# process that runs pytest (with pytest-xdist, the controller: its workers inherit the variable below).
# Two pytest runs in one checkout share that server. Two lock files beside its data: `test-server.start`,
# held exclusively while a run starts or stops the server (so neither happens under another run's feet),
# and `test-server.use`, held shared for as long as a run uses it. The last run out stops the server, when
# a test run started it (`test-server.ours` says so: a server `make run` started is left alone).
SERVER_URL = "FLOWYARD_TEST_SERVER_URL"
_in_use = pytest.StashKey[IO[str]]()  # the use lock, held shared while this run uses the server


def _locks(pgdata: Path) -> tuple[Path, Path, Path]:
    folder = Path(pgdata).parent
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "test-server.start", folder / "test-server.use", folder / "test-server.ours"


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or os.environ.get("DATABASE_URL") or os.environ.get(SERVER_URL):
        return
    pgdata = Settings.from_environment().pgdata
    starting, using, ours = _locks(pgdata)
    with open(starting, "a+", encoding="utf-8") as start:
        fcntl.flock(start, fcntl.LOCK_EX)
        use = open(using, "a+", encoding="utf-8")  # noqa: SIM115 (held until the run ends)
        fcntl.flock(use, fcntl.LOCK_SH)
        config.stash[_in_use] = use
        if embedded.running_pid(pgdata) is None:
            ours.touch()
        url = embedded.start(pgdata)
        if _room_for(url) < TEST_CONNECTIONS:
            # Three test processes run servers, workers and worker crews side by side (a browser test's
            # server holds some twenty connections, the poison run's crew thirty): more than PostgreSQL's
            # default 100.
            with connect(url, autocommit=True) as conn:
                conn.execute(sql.SQL("ALTER SYSTEM SET max_connections = {}").format(TEST_CONNECTIONS))
            embedded.stop(pgdata)
            url = embedded.start(pgdata)
    os.environ[SERVER_URL] = url


TEST_CONNECTIONS = 300


def _room_for(url: str) -> int:
    with connect(url, autocommit=True) as conn:
        row = conn.execute("SHOW max_connections").fetchone()
    return int(str(row[0])) if row else 0


def pytest_unconfigure(config: pytest.Config) -> None:
    use = config.stash.get(_in_use, None)
    if use is None:
        return
    pgdata = Settings.from_environment().pgdata
    starting, _, ours = _locks(pgdata)
    with open(starting, "a+", encoding="utf-8") as start:
        fcntl.flock(start, fcntl.LOCK_EX)
        try:
            fcntl.flock(use, fcntl.LOCK_EX | fcntl.LOCK_NB)  # no other run holds it: this is the last
            last = True
        except BlockingIOError:
            last = False
        if last and ours.exists():
            embedded.stop(pgdata)
            ours.unlink()
        use.close()
    os.environ.pop(SERVER_URL, None)


@pytest.fixture(scope="session")
def pg_server_url() -> str:
    """A URL of the server the tests use, connected to its maintenance database."""
    return os.environ.get("DATABASE_URL") or os.environ[SERVER_URL]


def _drop(server_url: str, name: str) -> None:
    with connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def template_database(pg_server_url: str) -> Iterator[str]:
    """The name of a database migrated to the newest schema, to clone from."""
    name = f"flowyard_template_{os.getpid()}"
    _drop(pg_server_url, name)
    ensure_database(pg_server_url, name)
    with connect(with_database(pg_server_url, name)) as conn:
        migrate(conn)
    yield name
    _drop(pg_server_url, name)


def _clone(server_url: str, template: str) -> str:
    """A new database cloned from `template`; its name."""
    name = f"flowyard_test_{os.getpid()}_{next(_numbers)}"
    with connect(server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
        )
    return name


@pytest.fixture(scope="module")
def database_url(pg_server_url: str, template_database: str) -> Iterator[str]:
    """A migrated database of this test module's own."""
    name = _clone(pg_server_url, template_database)
    yield with_database(pg_server_url, name)
    _drop(pg_server_url, name)


@pytest.fixture
def migrated_databases(pg_server_url: str, template_database: str) -> Iterator[Callable[[], str]]:
    """Makes migrated databases of this test's own, as many as it asks for (the URL of each)."""
    names: list[str] = []

    def make() -> str:
        names.append(_clone(pg_server_url, template_database))
        return with_database(pg_server_url, names[-1])

    yield make
    for name in names:
        _drop(pg_server_url, name)


@pytest.fixture
def empty_database_url(pg_server_url: str) -> Iterator[str]:
    """A database with nothing in it, not even the migrations table."""
    name = f"flowyard_empty_{os.getpid()}_{next(_numbers)}"
    ensure_database(pg_server_url, name)
    yield with_database(pg_server_url, name)
    _drop(pg_server_url, name)


@pytest.fixture
def queue(database_url: str) -> Queue:
    """The module's database, driven in-process with a clock the test moves."""
    return Queue(database_url)


@pytest.fixture
def conn(database_url: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """An autocommit connection to the module's database, for reading and arranging rows."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        yield connection


@pytest.fixture
def aconn(database_url: str) -> Connected:
    """Runs one of the backend's async functions on a connection of its own: `aconn(lambda c: f(c, ...))`."""
    return Connected(database_url)
