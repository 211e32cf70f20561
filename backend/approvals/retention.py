"""The approvals' own retention (FLOWYARD_APPROVAL_RETENTION_DAYS): decided approvals past it go, a batch
per transaction. The worker's heartbeat runs it through its approvals port; runs' retention is the queue's
(backend/queue/sweep.py), separate, since approvals outlive their runs.

The trail's trigger trusts only the retention the schema's owner recorded (`record_retention`, which
`flowyard migrate` calls), never one a session declares: the app's role cannot shorten it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import scalar_row

from backend.queue.sweep import BATCH
from backend.store.queries import load

QUERIES = load("backend.approvals", "queries.sql")


async def sweep_decided_approvals(
    conn: AsyncConnection[Any], now: datetime | None, retention: timedelta
) -> int:
    """Delete decided approvals older than `retention`, a batch per transaction; how many went."""
    deleted = 0
    while True:
        async with conn.transaction():
            cur = await conn.execute(
                QUERIES["sweep_decided_approvals"], {"now": now, "retention": retention, "limit": BATCH}
            )
            batch = len(await cur.fetchall())
        deleted += batch
        if batch < BATCH:
            return deleted


def record_retention(conn: psycopg.Connection[Any], retention: timedelta | None) -> bool:
    """Record the approvals' retention (None: kept forever) when it differs from the recorded one; whether
    it is recorded now. Only the schema's owner may write it: for another role a difference stays
    unrecorded (False), and the trigger goes on trusting the owner's."""
    cur = conn.cursor(row_factory=scalar_row)
    if cur.execute(QUERIES["recorded_retention"]).fetchone() == retention:
        return True
    try:
        with conn.transaction():
            if retention is None:
                conn.execute(QUERIES["forget_retention"])
            else:
                conn.execute(QUERIES["record_retention"], {"retention": retention})
    except psycopg.errors.InsufficientPrivilege:
        return False
    return True
