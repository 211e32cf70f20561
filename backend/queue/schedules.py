"""Schedule triggers: cron expressions in a time zone, fired exactly once per tick by whichever worker.

The pure parts live below: which schedule a document names in backend/flows/schedules.py (the flows call
`sync_schedule` with it when a version is saved), the cron arithmetic in backend/cron.py. This module keeps
the rows and fires them, and imports nothing of the flows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.cron import ScheduleInvalid, next_fire
from backend.queue.queries import QUERIES
from backend.queue.runs import start_in_transaction
from backend.store.queries import one, scalar

__all__ = ["ScheduleInvalid", "fire_due", "next_fire", "sync_schedule"]


@dataclass(frozen=True, slots=True)
class _Schedule:
    """A due schedule, claimed: its flow, its cron and time zone, and the fire it is due for."""

    flow_id: int
    cron: str
    timezone: str
    next_fire_at: datetime


async def sync_schedule(conn: AsyncConnection[Any], flow_id: int, schedule: tuple[str, str] | None) -> None:
    """Make the flow's schedule row follow its newest version's schedule (cron, time zone), or drop it when
    that version has none; in the caller's transaction."""
    if schedule is None:
        await conn.execute(QUERIES["delete_schedule"], {"flow_id": flow_id})
        return
    cron, timezone = schedule
    now = await _now(conn)
    await conn.execute(
        QUERIES["upsert_schedule"],
        {"flow_id": flow_id, "cron": cron, "timezone": timezone, "next": next_fire(cron, timezone, now)},
    )


async def fire_due(conn: AsyncConnection[Any], now: datetime | None) -> int:
    """Fire every due schedule once, each in its own transaction; how many fired."""
    fired = 0
    while True:
        async with conn.transaction():
            due = await one(conn, _Schedule, QUERIES["claim_schedule"], {"now": now})
            if due is None:
                return fired
            current = now or await _now(conn)
            # The next fire is counted from now, not from the missed one: a fire missed while every
            # worker was down runs once, not once per miss.
            upcoming = next_fire(due.cron, due.timezone, max(current, due.next_fire_at))
            await conn.execute(QUERIES["move_schedule"], {"flow_id": due.flow_id, "next": upcoming})
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


async def _now(conn: AsyncConnection[Any]) -> datetime:
    now = await scalar(conn, QUERIES["database_now"])
    assert isinstance(now, datetime)
    return now
