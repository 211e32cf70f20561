"""Waiting for what a run's change makes true, woken by the change itself.

Every commit that changes a run (a new run, its status, its journal, its end) sends a NOTIFY on the runs'
channel (migration 0013; backend/api/stream.py keeps the runs pages live with it). A test that waits for
a row LISTENs there before its first look and looks again after each NOTIFY: never on a timer, and a
change committed between a look and the wait is not missed, as its NOTIFY comes after the LISTEN.

What is waited for must be written in the same transaction as a change of a run (an approval, a wait, a
journal line): a row that no run's change goes with would be waited for in vain, until the timeout.
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg import sql

from backend.api.stream import CHANNEL


def wait_for(
    url: str, query: str, *params: Any, want: object = None, timeout_s: float = 60
) -> tuple[Any, ...]:
    """The first row of `query` once it has one (equal to `want`, when given), read again at each run's
    change, bounded in time."""
    deadline = time.monotonic() + timeout_s
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        while True:
            row = conn.execute(query, params).fetchone()
            if row is not None and (want is None or tuple(row) == want):
                return tuple(row)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {want or 'row'!r} from {query} after {timeout_s} s: {row!r}")
            for _ in conn.notifies(timeout=left, stop_after=1):
                pass
            # The changes that came with it are read too, so that a burst of them (a worker's batch of
            # runs) costs one more look, not one look each.
            for _ in conn.notifies(timeout=0):
                pass
