"""Retention: ended runs and their journals go once the retention has passed; nothing else does.

The statement names ended runs only (`ended_at` is set when a run succeeds, fails or is cancelled), so a
run that waits, for an approval or for years, is never swept. Approvals have no foreign key to runs and
outlive them: their own retention is separate and off.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.queue.queries import QUERIES

BATCH = 1000
DEFAULT_RETENTION = timedelta(days=30)


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
    if text is None:
        return DEFAULT_RETENTION
    days = float(text)
    return None if days == 0 else timedelta(days=days)


async def sweep_ended_runs(conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
    """Delete ended runs older than `retention`, a batch per transaction; how many went."""
    deleted = 0
    while True:
        cur = await conn.execute(
            QUERIES["sweep_ended_runs"], {"now": now, "retention": retention, "limit": BATCH}
        )
        batch = len(await cur.fetchall())
        deleted += batch
        if batch < BATCH:
            return deleted
