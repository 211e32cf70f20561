"""A schedule trigger's pure parts: which cron and time zone a document names, and when they fire next.
No I/O: the queue (backend/queue/schedules.py) keeps the schedule rows and fires them.

Examples:
    >>> from datetime import datetime, UTC
    >>> next_fire("*/15 * * * *", "Europe/Berlin", datetime(2026, 1, 1, 10, 7, tzinfo=UTC)).isoformat()
    '2026-01-01T10:15:00+00:00'
    >>> next_fire("0 9 * * *", "Mars/Olympus", datetime(2026, 1, 1, tzinfo=UTC))
    Traceback (most recent call last):
    ...
    backend.flows.schedules.ScheduleInvalid: schedule_timezone_unknown
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from backend.errors import CodedError


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
