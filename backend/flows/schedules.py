"""A schedule trigger as a document names it: its cron expression and time zone. The cron arithmetic
(`next_fire`, `ScheduleInvalid`) is backend/cron.py's, below both the flows and the queue; the queue
(backend/queue/schedules.py) keeps the schedule rows and fires them.
"""

from __future__ import annotations

from typing import Any

from backend.cron import ScheduleInvalid, next_fire

__all__ = ["ScheduleInvalid", "next_fire", "schedule_of"]


def schedule_of(document: dict[str, Any]) -> tuple[str, str] | None:
    """The (cron, timezone) of a document's schedule trigger, or None for another kind of trigger."""
    for node in document.get("nodes", ()):
        if node.get("type") == "trigger":
            config = node.get("config") or {}
            if config.get("kind") == "schedule":
                return str(config.get("cron", "")), str(config.get("timezone") or "UTC")
    return None
