"""An event arrives: kept, or delivered to the oldest pause waiting for it (docs/events.md).

One transaction per event: the (name, key) lock, the event's row, and the delivery. A run that parks at
a wait_event node takes the same lock before it looks for kept events (wake.py), so an event and a
pause of the same name and key never miss each other, and each event is consumed once.
"""

from __future__ import annotations

import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.digests import secret_digest
from backend.events.store import MAX_KEY, QUERIES, WAKE_CHANNEL, EventRefused, check_name, lock_keys, pair
from backend.store.queries import one, scalar

__all__ = ["Delivery", "EventRefused", "check_secret", "deliver", "new_secret"]


@dataclass(frozen=True, slots=True)
class _Kept:
    event_id: int
    received_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class _Delivered:
    run_id: int
    visit: int
    consumed: int
    woken: int


@dataclass(frozen=True, slots=True)
class Delivery:
    """What became of an event: delivered to a waiting pause, or kept until `expires_at`."""

    event_id: int
    delivered: bool
    received_at: datetime
    expires_at: datetime


async def deliver(
    conn: AsyncConnection[Any],
    name: str,
    key: str,
    payload: dict[str, Any],
    *,
    keep: timedelta,
    max_payload_bytes: int,
    sent_by: str | None,
    now: datetime | None = None,
) -> Delivery:
    """Store the event and give it to the oldest open pause waiting for it, in one transaction."""
    check_name(name)
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY:
        raise EventRefused(code="event_key_refused", limit=MAX_KEY)
    if not isinstance(payload, dict):
        raise EventRefused(code="event_payload_not_object")
    size = len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
    if size > max_payload_bytes:
        raise EventRefused(code="event_payload_too_large", limit=max_payload_bytes)
    async with conn.transaction():
        await lock_keys(conn, [pair(name, key)])
        params = {"name": name, "key": key, "payload": Jsonb(payload), "sent_by": sent_by, "now": now}
        kept = await one(conn, _Kept, QUERIES["insert_event"], {**params, "keep": keep})
        assert kept is not None
        answered = await one(conn, _Delivered, QUERIES["deliver"], {**params, "event_id": kept.event_id})
        if answered is not None and answered.woken:
            await conn.execute("SELECT pg_notify(%s, %s)", (WAKE_CHANNEL, str(answered.run_id)))
    return Delivery(kept.event_id, answered is not None, kept.received_at, kept.expires_at)


async def new_secret(conn: AsyncConnection[Any], name: str, by: str | None) -> str:
    """A new secret for posting events named `name` without a token; only its digest is kept."""
    check_name(name)
    secret = secrets.token_urlsafe(32)
    await conn.execute(QUERIES["set_secret"], {"name": name, "digest": secret_digest(secret), "by": by})
    return secret


async def check_secret(conn: AsyncConnection[Any], name: str, secret: str) -> bool:
    """Whether `secret` is the one set for `name` (no secret set: never)."""
    digest = await scalar(conn, QUERIES["secret_of"], {"name": name})
    return digest is not None and hmac.compare_digest(str(digest), secret_digest(secret))
