"""A document's trigger, read in one place: its kind, and a schedule trigger's cron expression and time
zone. The cron arithmetic (`next_fire`, `ScheduleInvalid`) is backend/cron.py's, below both the flows and
the queue; the queue (backend/queue/schedules.py) keeps the schedule rows and fires them.
"""

from __future__ import annotations

from typing import Any

from backend.cron import ScheduleInvalid, next_fire

__all__ = ["ScheduleInvalid", "next_fire", "schedule_of", "trigger_config", "trigger_kind"]


def trigger_config(document: dict[str, Any]) -> dict[str, Any] | None:
    """The config of the document's trigger node ({} when it has none), or None without a trigger."""
    for node in document.get("nodes", ()):
        if node.get("type") == "trigger":
            return dict(node.get("config") or {})
    return None


def trigger_kind(document: dict[str, Any]) -> str | None:
    """The kind of the document's trigger (`manual`, `webhook`, `schedule`), or None without one."""
    config = trigger_config(document)
    return None if config is None else str(config.get("kind"))


def schedule_of(document: dict[str, Any]) -> tuple[str, str] | None:
    """The (cron, timezone) of a document's schedule trigger, or None for another kind of trigger."""
    config = trigger_config(document)
    if config is None or config.get("kind") != "schedule":
        return None
    return str(config.get("cron", "")), str(config.get("timezone") or "UTC")
