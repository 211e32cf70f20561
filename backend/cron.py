"""Cron expressions in a time zone: when one fires next. Pure (no I/O, no clock), and below every package
that needs it: the flows check a document's schedule with it when it is saved, the queue computes each
fire's successor with it (docs/architecture.md, "The package graph").

Examples:
    >>> from datetime import datetime, UTC
    >>> next_fire("*/15 * * * *", "Europe/Berlin", datetime(2026, 1, 1, 10, 7, tzinfo=UTC)).isoformat()
    '2026-01-01T10:15:00+00:00'
    >>> next_fire("0 9 * * *", "Mars/Olympus", datetime(2026, 1, 1, tzinfo=UTC))
    Traceback (most recent call last):
    ...
    backend.cron.ScheduleInvalid: schedule_timezone_unknown
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from backend.errors import CodedError


class ScheduleInvalid(CodedError, ValueError):
    """A schedule no cron or time zone names."""

    status = 422  # a refusal of what was asked


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
