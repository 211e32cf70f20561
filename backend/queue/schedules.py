"""Schedule triggers: cron expressions in a time zone, fired exactly once per tick by whichever worker.

Examples:
    >>> from datetime import datetime, UTC
    >>> next_fire("*/15 * * * *", "Europe/Berlin", datetime(2026, 1, 1, 10, 7, tzinfo=UTC)).isoformat()
    '2026-01-01T10:15:00+00:00'
    >>> next_fire("0 9 * * *", "Mars/Olympus", datetime(2026, 1, 1, tzinfo=UTC))
    Traceback (most recent call last):
    ...
    backend.queue.schedules.ScheduleInvalid: schedule_timezone_unknown
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError
from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.queue.queries import QUERIES
from backend.queue.runs import start_in_transaction


class ScheduleInvalid(CodedError, ValueError):
    """A schedule no cron or time zone names."""


def next_fire(cron: str, timezone: str, after: datetime) -> datetime:
    """The first time strictly after `after` that `cron` names in `timezone`, in UTC."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleInvalid(code="schedule_timezone_unknown") from None
    try:
        fires = CronSim(cron, after.astimezone(zone))
        return next(fires).astimezone(UTC)
    except (CronSimError, StopIteration):
        raise ScheduleInvalid(code="schedule_cron_invalid") from None


def schedule_of(document: dict[str, Any]) -> tuple[str, str] | None:
    """The (cron, timezone) of a document's schedule trigger, or None for another kind of trigger."""
    for node in document.get("nodes", ()):
        if node.get("type") == "trigger":
            config = node.get("config") or {}
            if config.get("kind") == "schedule":
                return str(config.get("cron", "")), str(config.get("timezone") or "UTC")
    return None


async def sync_schedule(conn: AsyncConnection[Any], flow_id: int, document: dict[str, Any]) -> None:
    """Make the flow's schedule row follow its newest version; in the caller's transaction."""
    schedule = schedule_of(document)
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
            cur = await conn.execute(QUERIES["claim_schedule"], {"now": now})
            row = await cur.fetchone()
            if row is None:
                return fired
            flow_id, cron, timezone, fire_at = row
            current = now or await _now(conn)
            # The next fire is counted from now, not from the missed one: a fire missed while every
            # worker was down runs once, not once per miss.
            upcoming = next_fire(cron, timezone, max(current, fire_at))
            await conn.execute(QUERIES["move_schedule"], {"flow_id": flow_id, "next": upcoming})
            await start_in_transaction(
                conn,
                flow_id,
                input={"scheduled_for": fire_at.isoformat()},
                trigger_kind="schedule",
                idempotency_key=f"schedule:{fire_at.isoformat()}",
                started_by=None,
            )
            fired += 1


async def _now(conn: AsyncConnection[Any]) -> datetime:
    cur = await conn.execute("SELECT now()")
    row = await cur.fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]
