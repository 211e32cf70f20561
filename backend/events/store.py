"""The events' statements, their settings, and the names and limits every part of them shares."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.store.queries import load

QUERIES = load("backend.events", "queries.sql")

# The same rule as the flow format's for a wait_event's `events` (and the tables' CHECKs).
EVENT_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
RESERVED = frozenset({"timeout"})
MAX_KEY = 200
# How long an event nobody waits for yet is kept (FLOWYARD_EVENTS_KEEP); also the furthest a node's
# `keep_early` can reach back: an event is gone once it expires.
DEFAULT_KEEP = timedelta(days=1)
# What one sender may have kept at once (events nobody waits for yet): FLOWYARD_EVENTS_MAX_KEPT and
# FLOWYARD_EVENTS_MAX_KEPT_BYTES. A sender is a user (a token with send_events) or an event name's hook.
DEFAULT_MAX_KEPT = 10_000
DEFAULT_MAX_KEPT_BYTES = 64 * 1024 * 1024
# The channel the workers LISTEN on (backend/queue/runs.py NOTIFY_CHANNEL; a test holds them equal). Named
# here because the queue imports this package, not the other way round.
WAKE_CHANNEL = "flowyard_waits"


class EventRefused(CodedError):
    """An event (or a secret for one) refused: nothing was stored."""

    status = 422  # a refusal of what was asked


def check_name(name: str) -> str:
    """`name` when it may be an event's name, else `event_name_refused`.

    Examples:
        >>> check_name("paid")
        'paid'
        >>> check_name("timeout")
        Traceback (most recent call last):
        ...
        backend.events.store.EventRefused: event_name_refused
    """
    if not EVENT_NAME.fullmatch(name) or name in RESERVED:
        raise EventRefused(code="event_name_refused")
    return name


def pair(name: str, key: str) -> str:
    """What `lock_keys` locks: names cannot hold a `/`, so the pair is unambiguous."""
    return f"{name}/{key}"


async def lock_keys(conn: AsyncConnection[Any], pairs: Iterable[str]) -> None:
    """Hold these (name, key) pairs until the transaction ends (sorted inside the statement)."""
    await conn.execute(QUERIES["lock_keys"], {"pairs": sorted(set(pairs))})


@dataclass(frozen=True, slots=True)
class Quota:
    """What one sender may have kept at once: events, and the bytes of their payloads."""

    events: int = DEFAULT_MAX_KEPT
    bytes: int = DEFAULT_MAX_KEPT_BYTES
