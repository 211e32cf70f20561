"""Schedule triggers: cron expressions in a time zone, fired exactly once per tick by whichever worker.

The pure parts live below: which schedule a document names in backend/flows/schedules.py (the flows call
`sync_schedule` with it when a version is saved), the cron arithmetic in backend/cron.py. This module keeps
the rows and fires them, and imports nothing of the flows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.cron import ScheduleInvalid, next_fire
from backend.queue import store
from backend.queue.runs import start_in_transaction

__all__ = ["ScheduleInvalid", "fire_due", "next_fire", "sync_schedule"]


async def sync_schedule(conn: AsyncConnection[Any], flow_id: int, schedule: tuple[str, str] | None) -> None:
    """Make the flow's schedule row follow its newest version's schedule (cron, time zone), or drop it when
    that version has none; in the caller's transaction."""
    if schedule is None:
        await store.delete_schedule(conn, flow_id)
        return
    cron, timezone = schedule
    now = await store.database_now(conn)
    await store.upsert_schedule(conn, flow_id, cron, timezone, next_fire(cron, timezone, now))


async def fire_due(conn: AsyncConnection[Any], now: datetime | None) -> int:
    """Fire every due schedule once, each in its own transaction; how many fired."""
    fired = 0
    while True:
        async with conn.transaction():
            due = await store.claim_schedule(conn, now)
            if due is None:
                return fired
            current = now or await store.database_now(conn)
            # The next fire is counted from now, not from the missed one: a fire missed while every
            # worker was down runs once, not once per miss.
            upcoming = next_fire(due.cron, due.timezone, max(current, due.next_fire_at))
            await store.move_schedule(conn, due.flow_id, upcoming)
            fire_at = due.next_fire_at.isoformat()
            await start_in_transaction(
                conn,
                due.flow_id,
                input={"scheduled_for": fire_at},
                trigger_kind="schedule",
                idempotency_key=f"schedule:{fire_at}",
                started_by=None,
            )
            fired += 1
