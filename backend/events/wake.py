"""The worker's side of a run paused at a wait_event node.

- Parking (`parked`, in the transaction that parks the run): the pause is registered under the
  (name, key) locks, and the oldest kept event it may take is consumed at once; the run's wait is then
  due now. Its `wake_at` otherwise is the timeout (or never).
- Waking (`answer`): the pause's answer is read: an event (its name is the outcome, its payload the
  node's output), or, once the timeout is past, "timeout", written first under the same locks so that an
  event arriving at that moment either answered first or finds the pause closed.
- Woken early (`answered_now`): under the locks, a kept event is taken if one is there; whether the pause
  has an answer now.
- Answered while claimed (`answered_pauses`): of a wait just parked with several pauses, the event
  pauses already answered, for the queue to make due now.
- Previewed (`recorded`, a resume's preview): the answer a pause would be woken with, nothing written.
- Sweeping (`sweep`): events past their keep and the pauses of ended runs.

This package imports nothing of the queue (the queue imports it): backend/queue/events.py adapts these
to the worker's approvals port, and the outcome writers call `parked`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.events.store import DEFAULT_KEEP, QUERIES, WAKE_CHANNEL, EventRefused, lock_keys, pair
from backend.graph.durations import parse_duration
from backend.store.queries import every, one, scalar
from backend.walker import EventRequest

Clock = Callable[[], datetime | None]


@dataclass(frozen=True, slots=True)
class _Pause:
    """A pause's row (pause_of_visit): its answer if it has one, its (names, key), its timeout."""

    event_name: str | None
    payload: dict[str, Any] | None
    timed_out: bool
    timeout_at: datetime | None
    names: list[str]
    key: str
    due: bool | None


@dataclass(frozen=True, slots=True)
class _Taken:
    event_id: int
    consumed: int
    woken: int


@dataclass(frozen=True, slots=True)
class _Swept:
    events: int
    pauses: int


@dataclass(frozen=True, slots=True)
class AnsweredPause:
    """An answered event pause of a wait with several: the wait's id and the pause's key (`node@visit`)."""

    wait_id: int
    key: str


@dataclass(frozen=True, slots=True)
class Answer:
    """A pause's answer: the outcome (an event's name or "timeout") and the node's output."""

    outcome: str
    output: dict[str, Any]


def _interval(text: str | None, node: str, default: timedelta | None) -> timedelta | None:
    if not text:
        return default
    try:
        return parse_duration(text)
    except ValueError:
        raise EventRefused(code="duration_invalid", node=node, duration=text) from None


async def parked(
    conn: AsyncConnection[Any],
    parks: Sequence[tuple[int, EventRequest]],
    now: datetime | None,
    keep: timedelta = DEFAULT_KEEP,
) -> None:
    """Register each (run, request) pause and let it take the oldest kept event it may, kept `keep` at
    most (FLOWYARD_EVENTS_KEEP); in the caller's transaction, after the run's wait row is written. All
    the batch's (name, key) locks first, sorted."""
    if not parks:
        return
    await lock_keys(conn, [pair(name, request.key) for _, request in parks for name in request.events])
    woken: list[int] = []
    for run_id, request in parks:
        params = {"run_id": run_id, "visit": request.visit, "now": now}
        # A node may look back less far than events are kept, never further (they are gone by then).
        keep_early = _interval(request.keep_early, request.node, keep)
        await conn.execute(
            QUERIES["register"],
            {
                **params,
                "node": request.node,
                "names": list(request.events),
                "key": request.key,
                "keep_early": min(keep, keep_early if keep_early is not None else keep),
                "timeout": _interval(request.timeout, request.node, None),
            },
        )
        taken = await one(conn, _Taken, QUERIES["take_early"], params)
        if taken is not None and taken.woken:
            woken.append(run_id)
    if woken:
        await conn.execute(QUERIES["notify_answered"], {"channel": WAKE_CHANNEL, "run_id": woken[0]})


async def _pause(conn: AsyncConnection[Any], run_id: int, visit: int, now: datetime | None) -> _Pause:
    params = {"run_id": run_id, "visit": visit, "now": now}
    pause = await one(conn, _Pause, QUERIES["pause_of_visit"], params)
    if pause is None:
        raise EventRefused(code="event_wait_missing", run=run_id, visit=visit)
    return pause


async def answer(
    conn: AsyncConnection[Any], run_id: int, visit: int, now: datetime | None
) -> Answer | datetime | None:
    """The pause's answer; else, before its timeout, the timeout (None: none) to park again until."""
    pause = await _pause(conn, run_id, visit, now)
    if pause.event_name is None and not pause.timed_out and pause.due:
        async with conn.transaction():
            await lock_keys(conn, [pair(name, pause.key) for name in pause.names])
            params = {"run_id": run_id, "visit": visit, "now": now}
            if await scalar(conn, QUERIES["time_out"], params) is None:
                pause = await _pause(conn, run_id, visit, now)  # an event won
            else:
                return Answer("timeout", {})
    if pause.event_name is not None:
        return Answer(pause.event_name, dict(pause.payload or {}))
    if pause.timed_out:
        return Answer("timeout", {})
    return pause.timeout_at


async def recorded(conn: AsyncConnection[Any], run_id: int, visit: int) -> Answer | None:
    """The answer a pause would be woken with, read and nothing written (a resume's preview): its event,
    its timeout (recorded, or due now), or None when it would wait on."""
    pause = await _pause(conn, run_id, visit, None)
    if pause.event_name is not None:
        return Answer(pause.event_name, dict(pause.payload or {}))
    return Answer("timeout", {}) if pause.timed_out or pause.due else None


async def answered_now(conn: AsyncConnection[Any], run_id: int, visit: int, now: datetime | None) -> bool:
    """For a pause woken before its answer, in the transaction that parks it again: under its locks,
    take a kept event if there is one (one kept while the run was stopped, say); whether it is answered."""
    pause = await _pause(conn, run_id, visit, now)
    await lock_keys(conn, [pair(name, pause.key) for name in pause.names])
    await conn.execute(QUERIES["take_early"], {"run_id": run_id, "visit": visit, "now": now})
    pause = await _pause(conn, run_id, visit, now)
    return pause.event_name is not None or pause.timed_out


async def sweep(
    conn: AsyncConnection[Any], now: datetime | None, key_retention: timedelta
) -> tuple[int, int]:
    """Delete events past their keep (a thousand at a time), the pauses of ended runs, and senders'
    Idempotency-Keys older than `key_retention` (FLOWYARD_KEY_RETENTION_DAYS, as webhooks' keys)."""
    swept = await one(conn, _Swept, QUERIES["sweep_events"], {"now": now, "key_retention": key_retention})
    assert swept is not None
    return swept.events, swept.pauses


async def answered_pauses(conn: AsyncConnection[Any], wait_ids: list[int]) -> list[AnsweredPause]:
    """Of these waits with several pauses, just parked, the event pauses answered (the queue makes those
    not due yet due now: `wake_pauses`, backend/queue/store.py)."""
    return await every(conn, AnsweredPause, QUERIES["answered_pauses"], {"ids": wait_ids})


async def close(conn: AsyncConnection[Any], run_id: int, keep: list[int]) -> None:
    """Close the run's open event pauses other than those at the `keep` visits (their branch was cancelled,
    or the run ended), in the transaction that writes the walk."""
    await conn.execute(QUERIES["close_pauses"], {"run_id": run_id, "keep": keep})
