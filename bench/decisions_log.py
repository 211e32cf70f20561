"""The server's log, read for bench/decisions_cell.py's counting pass: which statements each side sent
between two marker statements, with log_statement=all on the cell's database only."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

CLAIM = "WITH answered AS ("  # how the worker's claim statement (backend/queue/queries.sql) begins

STATEMENT = re.compile(r"\[(\d+)\][^\n]*? LOG:  (?:statement|execute [^:]*): (.*?)(?=\n\S|\Z)", re.S)


class ServerLog:
    """The server's log file, found through its postmaster (this machine's /proc), read from where it
    stood when this object was made; marker statements bound the timed window in it."""

    def __init__(self, server: str, name: str) -> None:
        self.name = name
        # The backend's /proc entry is read while its connection is open: once closed, it may be gone.
        with psycopg.connect(server, autocommit=True) as conn:
            collector = conn.execute("SHOW logging_collector").fetchone() == ("on",)
            row = conn.execute(
                "SELECT pg_backend_pid(), current_setting('data_directory'), pg_current_logfile()"
            )
            pid, data, current = row.fetchone() or (0, "", None)
            try:
                if collector and current:
                    self.path = Path(data) / current
                else:
                    with open(f"/proc/{pid}/stat") as stat:
                        postmaster = stat.read().rpartition(")")[2].split()[1]
                    self.path = Path(os.readlink(f"/proc/{postmaster}/fd/2"))
                self.offset = self.path.stat().st_size
            except OSError as error:
                message = f"statement counts need the server's log on this machine: {error}"
                raise SystemExit(message) from None

    def mark(self, conn: psycopg.Connection[Any], what: str) -> None:
        conn.execute(sql.SQL("SELECT {}").format(sql.Literal(f"decisions-mark-{what}-{self.name}")))

    def window(self) -> list[tuple[int, str]]:
        """(backend pid, statement) of every statement logged between the start and end markers."""
        start_mark, end_mark = f"decisions-mark-start-{self.name}", f"decisions-mark-end-{self.name}"
        deadline = time.monotonic() + 60
        statements: list[tuple[int, str]] = []
        # Other databases may log too (a test suite's own statement capture): the end mark is looked for
        # in everything read since the start, not in the last lines.
        while not any(end_mark in s for _, s in statements):
            if time.monotonic() > deadline:
                raise SystemExit(f"the server's log ({self.path}) holds no {end_mark!r} after a minute")
            time.sleep(0.1)  # the server may not have written its last lines yet
            with open(self.path, errors="replace") as log:
                log.seek(self.offset)
                statements = [(int(m[1]), " ".join(m[2].split())) for m in STATEMENT.finditer(log.read())]
        start = next(i for i, (_, s) in enumerate(statements) if start_mark in s)
        end = next(i for i, (_, s) in enumerate(statements) if end_mark in s)
        return statements[start + 1 : end]


def statement_counts(window: list[tuple[int, str]], roles: dict[int, str]) -> tuple[int, int, int, int]:
    """Statements of the deciding side (service senders, the API server), of the workers, the workers'
    claims, and the rest (other than the poller's)."""
    decide = worker = claims = other = 0
    for pid, statement in window:
        role = roles.get(pid, "")
        if role in ("bench-sender", "bench-api"):
            decide += 1
        elif role == "bench-worker":
            worker += 1
            claims += CLAIM in statement
        elif role != "bench-poll":
            other += 1
    return decide, worker, claims, other
