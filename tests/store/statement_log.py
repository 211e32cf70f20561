"""What the server ran for one database, read back from the server's own log: every statement any process
of the program sent (the tests' subprocesses too), as PostgreSQL received it.

`ALTER DATABASE ... SET log_statement = 'all'` makes each new session of that one database log what it
runs; other databases on the server (other test modules, other checkouts) log nothing more. Parameter
values are kept out of the log (`log_parameter_max_length = 0`): a shared server's log is no place for a
test's password hashes. The log is read through the server (`pg_read_binary_file`, a superuser's right)
because the test process may not be allowed to open it: the collector's file when one runs, else the
file the server's stderr goes to (`/proc/self/fd/2` of the backend that reads it), which is where both
the embedded server (pg_ctl -l) and Debian's clusters (pg_ctlcluster) write.

The test's own connections (arranging rows, waiting for a status) are opened with `log_statement=none` as
a startup option: a startup option is not a statement, and it outranks the database's setting.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import scalar_row

from backend.store.database import connect

_SETTINGS = {"log_statement": "all", "log_parameter_max_length": "0", "lc_messages": "C"}
# A log record's first line: `LOG:  statement: ...` (simple protocol) or `LOG:  execute <name>: ...`
# (extended protocol, psycopg's way whenever there are parameters or a prepared statement).
_STATEMENT = re.compile(r"\bLOG:  (?:statement|execute [^:]*): (?P<text>.*)$")
# Any record's first line: a continuation line of a statement is SQL, which never holds a severity followed
# by a colon and two spaces.
_RECORD = re.compile(
    r"\b(?:LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DETAIL|HINT|CONTEXT|STATEMENT|DEBUG\d?):  "
)


def statements_in(log: str) -> list[str]:
    """The statements a server log records, each whole (a statement of several lines spans as many).

    Examples:
        >>> statements_in(
        ...     "2026-01-01 00:00:00.000 UTC [7] LOG:  statement: BEGIN\\n"
        ...     "2026-01-01 00:00:00.001 UTC [7] LOG:  execute <unnamed>: SELECT id\\n"
        ...     "\\tFROM runs WHERE id = $1\\n"
        ...     "2026-01-01 00:00:00.002 UTC [7] ERROR:  division by zero\\n"
        ...     "2026-01-01 00:00:00.003 UTC [8] LOG:  execute _pg3_0: COMMIT\\n")
        ['BEGIN', 'SELECT id\\n\\tFROM runs WHERE id = $1', 'COMMIT']
    """
    found: list[list[str]] = []
    inside = False
    for line in log.splitlines():
        match = _STATEMENT.search(line)
        if match:
            found.append([match["text"]])
            inside = True
        elif _RECORD.search(line):
            inside = False
        elif inside:
            found[-1].append(line)
    return ["\n".join(lines) for lines in found]


def quiet(url: str) -> str:
    """`url` for the test's own connections: nothing they run is logged.

    Examples:
        >>> "log_statement=none" in quiet("postgresql://u@h/db")
        True
    """
    params = conninfo_to_dict(url)
    params["options"] = f"{params.get('options', '')} -c log_statement=none".strip()
    return make_conninfo("", **params)


@dataclass
class StatementLog:
    """The server log from where the capture began; `statements()` reads what it holds by now."""

    server_url: str
    path: str
    start: int

    def statements(self) -> list[str]:
        with connect(quiet(self.server_url), autocommit=True) as conn:
            logged = _scalar(
                conn,
                "SELECT pg_read_binary_file(%s, %s, (pg_stat_file(%s)).size - %s)",
                self.path,
                self.start,
                self.path,
                self.start,
            )
        return statements_in(bytes(logged).decode("utf-8", errors="replace"))


def _scalar(conn: psycopg.Connection[Any], query: LiteralString, *params: object) -> Any:
    return conn.cursor(row_factory=scalar_row).execute(query, params).fetchone()


def _log_file(conn: psycopg.Connection[Any]) -> str:
    collector = _scalar(conn, "SELECT pg_current_logfile('stderr')")
    return str(collector) if collector else "/proc/self/fd/2"


@contextmanager
def logging_statements(server_url: str, database: str) -> Iterator[StatementLog]:
    """Every session of `database` opened inside the block logs each statement it runs (a session opened
    before goes on as it was). Needs a superuser: `log_statement` is theirs to set."""
    with connect(quiet(server_url), autocommit=True) as conn:
        path = _log_file(conn)
        size = int(_scalar(conn, "SELECT (pg_stat_file(%s)).size", path))
        for name, value in _SETTINGS.items():
            conn.execute(
                sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                    sql.Identifier(database), sql.Identifier(name), sql.Literal(value)
                )
            )
    try:
        yield StatementLog(server_url, path, size)
    finally:
        with connect(quiet(server_url), autocommit=True) as conn:
            for name in _SETTINGS:
                reset = sql.SQL("ALTER DATABASE {} RESET {}")
                conn.execute(reset.format(sql.Identifier(database), sql.Identifier(name)))


def database_of(url: str) -> str:
    """The database `url` connects to.

    Examples:
        >>> database_of("user=postgres dbname=flowyard_test_1 host=/tmp")
        'flowyard_test_1'
    """
    return str(conninfo_to_dict(url)["dbname"])
