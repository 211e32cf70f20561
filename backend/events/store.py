"""The events' statements, their settings, and the names and limits every part of them shares."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.graph.durations import parse_duration
from backend.store.queries import load

QUERIES = load("backend.events", "queries.sql")

# The same rule as the flow format's for a wait_event's `events` (and the tables' CHECKs).
EVENT_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
RESERVED = frozenset({"timeout"})
MAX_KEY = 200
DEFAULT_KEEP = "P1D"
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


def keep_from_env(text: str | None = None) -> timedelta:
    """How long an event nobody waits for is kept (`FLOWYARD_EVENTS_KEEP`, ISO 8601, default a day), or
    what `text` would make it.

    It is also the longest a node's `keep_early` can reach back: an event is gone once it expires.
    """
    text = text or os.environ.get("FLOWYARD_EVENTS_KEEP") or DEFAULT_KEEP
    try:
        keep = parse_duration(text)
    except ValueError:
        raise ValueError(f"FLOWYARD_EVENTS_KEEP must be an ISO 8601 duration, not {text!r}") from None
    if keep <= timedelta(0):
        raise ValueError("FLOWYARD_EVENTS_KEEP must be longer than nothing")
    return keep


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


def quota_from_env(env: Mapping[str, str] | None = None) -> Quota:
    """The senders' quota from FLOWYARD_EVENTS_MAX_KEPT and FLOWYARD_EVENTS_MAX_KEPT_BYTES.

    Examples:
        >>> quota_from_env({"FLOWYARD_EVENTS_MAX_KEPT": "5"})
        Quota(events=5, bytes=67108864)
        >>> quota_from_env({"FLOWYARD_EVENTS_MAX_KEPT_BYTES": "0"})
        Traceback (most recent call last):
        ...
        ValueError: FLOWYARD_EVENTS_MAX_KEPT_BYTES must be a whole number of at least 1, not '0'
    """
    env = os.environ if env is None else env

    def whole(name: str, default: int) -> int:
        text = env.get(name)
        if not text:
            return default
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, not {text!r}")
        return int(text)

    return Quota(
        events=whole("FLOWYARD_EVENTS_MAX_KEPT", DEFAULT_MAX_KEPT),
        bytes=whole("FLOWYARD_EVENTS_MAX_KEPT_BYTES", DEFAULT_MAX_KEPT_BYTES),
    )
