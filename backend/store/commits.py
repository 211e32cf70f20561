"""A test-only commit counter: a process that exits at once right before or right after its K-th commit.

Crash tests arm it through the environment, so that a worker, an API process and a CLI command are armed
the same way (`flowyard` arms it when it starts):

    FLOWYARD_CRASH_AFTER_COMMIT=K    exit right after the K-th commit came back from the server
    FLOWYARD_CRASH_BEFORE_COMMIT=K   exit inside the K-th transaction, before its COMMIT is sent
    FLOWYARD_COUNT_COMMITS=1         only count, never exit: `counted()` answers, and each commit writes
                                     `flowyard: commit N` on stderr

Unarmed, nothing is installed and every commit costs what it costs without this module. Armed, the
psycopg classes the store uses are wrapped once for the whole process: every way the code base commits
goes through one of them.

What counts as a commit is what makes a write durable:
- a COMMIT (the end of `conn.transaction()`, `conn.commit()`, or a `with connect(...)` block), counted
  when the server answers it; inside a pipeline, when the pipeline that carries it is synced;
- a statement that writes run on an autocommit connection outside any transaction block (it commits on
  its own). Whether it writes is read from its text (INSERT, UPDATE, DELETE, NOTIFY...); a read counted
  by mistake only adds a crash point equal to its neighbour, a write missed would lose one, so the test
  leans towards counting.

The exit is `os._exit` with CRASH_EXIT_CODE, after one line on stderr: no `finally`, no atexit, no
connection closed politely. The server sees the socket drop, as with a SIGKILL.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Generator, Mapping
from typing import Any

from backend.store.errors import StoreError

CRASH_EXIT_CODE = 86
AFTER_ENV = "FLOWYARD_CRASH_AFTER_COMMIT"
BEFORE_ENV = "FLOWYARD_CRASH_BEFORE_COMMIT"
COUNT_ENV = "FLOWYARD_COUNT_COMMITS"

_WRITES = re.compile(
    r"\b(insert|update|delete|merge|truncate|notify|pg_notify|nextval|setval|create|drop|alter|grant)\b",
    re.IGNORECASE,
)


class _Counter:
    def __init__(self, after: int | None, before: int | None) -> None:
        self.after = after
        self.before = before
        self.done = 0
        self._lock = threading.Lock()  # the sync connections of a CLI command may come from threads

    def before_commit(self) -> None:
        if self.before is not None and self.done + 1 == self.before:
            _crash(f"crash_before_commit={self.before}")

    def after_commit(self) -> None:
        with self._lock:
            self.done += 1
            done = self.done
        if self.after is not None and done == self.after:
            _crash(f"crash_after_commit={self.after}")
        if self.after is None and self.before is None:  # counting only: say so, for a test to find its K
            sys.stderr.write(f"flowyard: commit {done}\n")


_counter: _Counter | None = None


def _crash(what: str) -> None:
    sys.stderr.write(f"flowyard: {what}: exiting now\n")
    sys.stderr.flush()
    os._exit(CRASH_EXIT_CODE)


def counted() -> int | None:
    """Commits made so far by this process; None when the counter is not armed."""
    return None if _counter is None else _counter.done


def arm_from_environment(environ: Mapping[str, str]) -> bool:
    """Arm the counter when the environment asks for it; whether it did. A value that is not a
    positive whole number is a StoreError (a typo must not run a crash test that never crashes)."""
    after = _number(environ, AFTER_ENV)
    before = _number(environ, BEFORE_ENV)
    if after is None and before is None and not environ.get(COUNT_ENV):
        return False
    arm(after=after, before=before)
    return True


def arm(*, after: int | None = None, before: int | None = None) -> None:
    """Count commits from now on, and exit at the one asked for (if any)."""
    global _counter
    _counter = _Counter(after, before)
    _install()


def _number(environ: Mapping[str, str], name: str) -> int | None:
    text = environ.get(name)
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise StoreError(code="crash_setting_invalid", name=name, given=text)
    return int(text)


def _is_commit(command: object) -> bool:
    return command == b"COMMIT" or command == "COMMIT"


def _query_text(query: Any, conn: Any) -> str:
    if isinstance(query, bytes):
        return query.decode("utf-8", "replace")
    if isinstance(query, str):
        return query
    try:
        return str(query.as_string(conn))
    except Exception:
        return str(query)


def _commits_alone(conn: Any, query: Any) -> bool:
    """A statement that writes, on an autocommit connection, outside any transaction block."""
    from psycopg import pq

    return bool(
        conn.autocommit
        and conn.pgconn.transaction_status == pq.TransactionStatus.IDLE
        and conn._pipeline is None
        and _WRITES.search(_query_text(query, conn))
    )


_installed = False


def _install() -> None:
    """Wrap, once, the few psycopg methods every commit goes through."""
    global _installed
    if _installed:
        return
    _installed = True
    import psycopg
    from psycopg import _connection_base

    base: Any = _connection_base.BaseConnection
    exec_command = base._exec_command

    def counting_exec_command(self: Any, command: Any, *args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        commit = _is_commit(command)
        counter = _counter
        if commit and counter is not None:
            counter.before_commit()
        result = yield from exec_command(self, command, *args, **kwargs)
        if commit and counter is not None:
            if self._pipeline is not None:
                self._flowyard_commit_queued = True  # it is sent and answered when the pipeline syncs
            else:
                counter.after_commit()
        return result

    base._exec_command = counting_exec_command

    def after_sync(conn: Any) -> None:
        if getattr(conn, "_flowyard_commit_queued", False) and conn._pipeline is None:
            conn._flowyard_commit_queued = False
            if _counter is not None:
                _counter.after_commit()

    async_pipeline: Any = psycopg.AsyncPipeline
    pipeline_aexit = async_pipeline.__aexit__

    async def counting_aexit(self: Any, *exc: Any) -> Any:
        result = await pipeline_aexit(self, *exc)
        after_sync(self._conn)
        return result

    async_pipeline.__aexit__ = counting_aexit

    sync_pipeline: Any = psycopg.Pipeline
    pipeline_exit = sync_pipeline.__exit__

    def counting_exit(self: Any, *exc: Any) -> Any:
        result = pipeline_exit(self, *exc)
        after_sync(self._conn)
        return result

    sync_pipeline.__exit__ = counting_exit

    async_cursor: Any = psycopg.AsyncCursor
    async_execute = async_cursor.execute

    async def counting_async_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        counter = _counter
        alone = counter is not None and _commits_alone(self._conn, query)
        if alone and counter is not None:
            counter.before_commit()
        result = await async_execute(self, query, *args, **kwargs)
        if alone and counter is not None:
            counter.after_commit()
        return result

    async_cursor.execute = counting_async_execute

    sync_cursor: Any = psycopg.Cursor
    sync_execute = sync_cursor.execute

    def counting_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        counter = _counter
        alone = counter is not None and _commits_alone(self._conn, query)
        if alone and counter is not None:
            counter.before_commit()
        result = sync_execute(self, query, *args, **kwargs)
        if alone and counter is not None:
            counter.after_commit()
        return result

    sync_cursor.execute = counting_execute
