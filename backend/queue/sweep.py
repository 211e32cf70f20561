"""Retention: ended runs and their journals go once quiet for the retention; nothing else does.

The statement names ended runs only (`ended_at` is set when a run succeeds, fails or is cancelled), so a
run that waits, for an approval or for years, is never swept; and among them only those whose last journal
line is older than the retention too (a late answer journaled after the end keeps its run that much longer).
Approvals have no foreign key to runs and outlive them: their own retention
(FLOWYARD_APPROVAL_RETENTION_DAYS) is separate, and off unless set; the worker sweeps them through its
approvals port (backend/approvals/retention.py).
Triggers' idempotency keys outlive their runs too (FLOWYARD_KEY_RETENTION_DAYS, 90 by default, never
shorter than the runs'): a sender retrying after its run was swept still gets that run, not a new one.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.queue import store

BATCH = 1000
DEFAULT_RETENTION = timedelta(days=30)
DEFAULT_KEY_RETENTION = timedelta(days=90)


async def sweep_ended_runs(
    conn: AsyncConnection[Any],
    now: datetime | None,
    retention: timedelta,
    key_retention: timedelta = DEFAULT_KEY_RETENTION,
) -> int:
    """Delete ended runs quiet for longer than `retention` (ended, last journal line before the cutoff), a
    batch per transaction; how many went.

    Then the triggers' keys past `key_retention` (never shorter than `retention`) whose runs are gone.
    """
    deleted = await _in_batches(conn, "sweep_ended_runs", now, retention)
    await _in_batches(conn, "sweep_trigger_keys", now, max(key_retention, retention))
    return deleted


async def _in_batches(
    conn: AsyncConnection[Any], statement: store.SweepStatement, now: datetime | None, retention: timedelta
) -> int:
    deleted = 0
    while True:
        batch = await store.sweep_batch(conn, statement, now, retention, BATCH)
        deleted += batch
        if batch < BATCH:
            return deleted
