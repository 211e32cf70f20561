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

import os
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.queue.queries import QUERIES

BATCH = 1000
DEFAULT_RETENTION = timedelta(days=30)
DEFAULT_KEY_RETENTION = timedelta(days=90)


def key_retention_from_env(run_retention: timedelta) -> timedelta:
    """FLOWYARD_KEY_RETENTION_DAYS (default 90), never shorter than the runs' retention.

    Examples:
        >>> key_retention_from_env(timedelta(days=30))
        datetime.timedelta(days=90)
        >>> key_retention_from_env(timedelta(days=400))
        datetime.timedelta(days=400)
    """
    text = os.environ.get("FLOWYARD_KEY_RETENTION_DAYS")
    days = DEFAULT_KEY_RETENTION if not text else timedelta(days=float(text))  # empty reads as unset
    return max(days, run_retention)


def approval_retention_from_env() -> timedelta | None:
    """FLOWYARD_APPROVAL_RETENTION_DAYS: days a decided approval is kept; unset or 0 keeps them forever.

    Examples:
        >>> approval_retention_from_env() is None
        True
    """
    days = float(os.environ.get("FLOWYARD_APPROVAL_RETENTION_DAYS") or 0)
    return None if days == 0 else timedelta(days=days)


def retention_from_env() -> timedelta | None:
    """FLOWYARD_RUN_RETENTION_DAYS: days an ended run is kept (default 30); 0 keeps them forever.

    Examples:
        >>> os.environ["FLOWYARD_RUN_RETENTION_DAYS"] = "0"; retention_from_env() is None
        True
        >>> os.environ["FLOWYARD_RUN_RETENTION_DAYS"] = "7"; retention_from_env()
        datetime.timedelta(days=7)
        >>> del os.environ["FLOWYARD_RUN_RETENTION_DAYS"]
    """
    text = os.environ.get("FLOWYARD_RUN_RETENTION_DAYS")
    if not text:  # empty reads as unset, as check_settings reads it
        return DEFAULT_RETENTION
    days = float(text)
    return None if days == 0 else timedelta(days=days)


async def sweep_ended_runs(conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
    """Delete ended runs quiet for longer than `retention` (ended, last journal line before the cutoff), a
    batch per transaction; how many went.

    Then the triggers' keys past their own retention whose runs are gone.
    """
    deleted = await _in_batches(conn, "sweep_ended_runs", now, retention)
    await _in_batches(conn, "sweep_trigger_keys", now, key_retention_from_env(retention))
    return deleted


async def _in_batches(
    conn: AsyncConnection[Any], name: str, now: datetime | None, retention: timedelta
) -> int:
    deleted = 0
    while True:
        cur = await conn.execute(QUERIES[name], {"now": now, "retention": retention, "limit": BATCH})
        batch = len(await cur.fetchall())
        deleted += batch
        if batch < BATCH:
            return deleted
