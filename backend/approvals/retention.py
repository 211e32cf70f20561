"""The approvals' own retention (FLOWYARD_APPROVAL_RETENTION_DAYS): decided approvals past it go, a batch
per transaction. The worker's heartbeat runs it through its approvals port; runs' retention is the queue's
(backend/queue/sweep.py), separate, since approvals outlive their runs."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

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
            await conn.execute(QUERIES["declare_retention_sweep"], {"retention": retention})
            cur = await conn.execute(
                QUERIES["sweep_decided_approvals"], {"now": now, "retention": retention, "limit": BATCH}
            )
            batch = len(await cur.fetchall())
        deleted += batch
        if batch < BATCH:
            return deleted
