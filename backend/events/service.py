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
from backend.events.store import (
    MAX_KEY,
    QUERIES,
    WAKE_CHANNEL,
    EventRefused,
    Quota,
    check_name,
    lock_keys,
    pair,
)
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
    """What became of an event: delivered to a waiting pause, or kept until `expires_at`; `repeated`: a
    post under an Idempotency-Key already used, answered as the first one was, nothing stored."""

    event_id: int
    delivered: bool
    received_at: datetime | None
    expires_at: datetime | None
    repeated: bool = False


@dataclass(frozen=True, slots=True)
class _KeptBySender:
    events: int
    bytes: int


@dataclass(frozen=True, slots=True)
class _KeyAnswer:
    event_id: int
    delivered: bool
    expires_at: datetime


async def deliver(
    conn: AsyncConnection[Any],
    name: str,
    key: str,
    payload: dict[str, Any],
    *,
    keep: timedelta,
    max_payload_bytes: int,
    sent_by: str,
    quota: Quota | None = None,
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Delivery:
    """Store the event and give it to the oldest open pause waiting for it, in one transaction.

    Under an `idempotency_key` the sender used for this name before, nothing is stored and the first
    post's answer is given again. An event nobody waits for is kept only within the sender's `quota`
    (`event_quota_events`, `event_quota_bytes`); one a pause takes at once is never refused for it."""
    check_name(name)
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY:
        raise EventRefused(code="event_key_refused", limit=MAX_KEY)
    if not isinstance(payload, dict):
        raise EventRefused(code="event_payload_not_object")
    size = len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
    if size > max_payload_bytes:
        raise EventRefused(code="event_payload_too_large", limit=max_payload_bytes)
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_KEY:
        raise EventRefused(code="idempotency_key_invalid", limit=MAX_KEY)
    quota = quota or Quota()
    params = {
        "name": name,
        "key": key,
        "payload": Jsonb(payload),
        "payload_bytes": size,
        "sent_by": sent_by,
        "now": now,
        "idempotency_key": idempotency_key,
    }
    async with conn.transaction():
        await conn.execute(QUERIES["lock_sender"], params)
        if idempotency_key is not None and await scalar(conn, QUERIES["claim_event_key"], params) is None:
            first = await one(conn, _KeyAnswer, QUERIES["event_of_key"], params)
            assert first is not None, "a key is answered in the transaction that takes it"
            return Delivery(first.event_id, first.delivered, None, first.expires_at, repeated=True)
        await lock_keys(conn, [pair(name, key)])
        kept = await one(conn, _Kept, QUERIES["insert_event"], {**params, "keep": keep})
        assert kept is not None
        answered = await one(conn, _Delivered, QUERIES["deliver"], {**params, "event_id": kept.event_id})
        if answered is None:
            await _within_quota(conn, params, quota)
        elif answered.woken:
            await conn.execute(
                QUERIES["notify_answered"], {"channel": WAKE_CHANNEL, "run_id": answered.run_id}
            )
        if idempotency_key is not None:
            answer = {
                "event_id": kept.event_id,
                "delivered": answered is not None,
                "expires_at": kept.expires_at,
            }
            await conn.execute(QUERIES["answer_event_key"], {**params, **answer})
    return Delivery(kept.event_id, answered is not None, kept.received_at, kept.expires_at)


async def _within_quota(conn: AsyncConnection[Any], params: dict[str, Any], quota: Quota) -> None:
    """Refuse, rolling the event back, when keeping it takes its sender past the quota (the new event
    counted in: the sender's posts take turns on lock_sender, so the count is exact)."""
    kept = await one(conn, _KeptBySender, QUERIES["kept_by_sender"], params)
    assert kept is not None
    if kept.events > quota.events:
        raise EventRefused(code="event_quota_events", limit=quota.events)
    if kept.bytes > quota.bytes:
        raise EventRefused(code="event_quota_bytes", limit=quota.bytes)


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
