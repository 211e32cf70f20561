"""The worker's side of a run paused at a wait_event node.

- Parking (`parked`, in the transaction that parks the run): the pause is registered under the
  (name, key) locks, and the oldest kept event it may take is consumed at once; the run's wait is then
  due now. Its `wake_at` otherwise is the timeout (or never).
- Waking (`WithEvents.resolution`): the pause's answer is read: an event (its name is the outcome, its
  payload the node's output), or, once the timeout is past, "timeout", written first under the same
  locks so that an event arriving at that moment either answered first or finds the pause closed.
- Sweeping (`sweep`): events past their keep and the pauses of ended runs.

The queue knows none of this beyond a few lines: `WithEvents` wraps the worker's approvals port (whose
`resolution` and `decided` are what a woken wait asks), and the outcome writers call `parked`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.events.store import QUERIES, keep_from_env, lock_keys, pair
from backend.graph.durations import parse_duration
from backend.queue.claims import Claim, Clock
from backend.queue.driver import Approvals, Run, Undecided, WaitFailed, Wake
from backend.queue.runs import NOTIFY_CHANNEL
from backend.walker import ApprovalRequest, EventRequest, Resume


def wake_of_event(request: EventRequest) -> Wake:
    """A wait_event's wait falls due at its timeout, or never by time (an event makes it due)."""
    try:
        after = parse_duration(request.timeout) if request.timeout else None
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=request.node, duration=request.timeout) from None
    return Wake(kind="event", after=after)


def _interval(text: str | None, node: str, default: timedelta | None) -> timedelta | None:
    if not text:
        return default
    try:
        return parse_duration(text)
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=node, duration=text) from None


async def parked(
    conn: AsyncConnection[Any], parks: Sequence[tuple[int, EventRequest]], now: datetime | None
) -> None:
    """Register each (run, request) pause and let it take the oldest kept event it may; in the caller's
    transaction, after the run's wait row is written. All the batch's (name, key) locks first, sorted."""
    if not parks:
        return
    await lock_keys(conn, [pair(name, request.key) for _, request in parks for name in request.events])
    keep = keep_from_env()
    woken: list[int] = []
    for run_id, request in parks:
        params = {"run_id": run_id, "visit": request.visit, "now": now}
        await conn.execute(
            QUERIES["register"],
            {
                **params,
                "node": request.node,
                "names": list(request.events),
                "key": request.key,
                # A node may look back less far than events are kept, never further (they are gone).
                "keep_early": min(keep, _interval(request.keep_early, request.node, keep) or timedelta(0)),
                "timeout": _interval(request.timeout, request.node, None),
            },
        )
        row = await (await conn.execute(QUERIES["take_early"], params)).fetchone()
        if row is not None and row[2]:
            woken.append(run_id)
    if woken:
        await conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, str(woken[0])))


class WithEvents:
    """The worker's approvals port, answering event waits itself and passing every other on."""

    def __init__(self, approvals: Approvals, clock: Clock) -> None:
        self.approvals = approvals
        self.clock = clock

    async def create(
        self, conn: AsyncConnection[Any], run: Run, request: ApprovalRequest, deadline: timedelta | None
    ) -> None:
        await self.approvals.create(conn, run, request, deadline)

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        if claim.kind != "event":
            return await self.approvals.resolution(conn, claim)
        assert claim.node is not None and claim.visit is not None
        row = await self._pause(conn, claim)
        event_name, payload, timed_out, timeout_at, names, key, due = row
        if event_name is None and not timed_out and due:
            async with conn.transaction():
                await lock_keys(conn, [pair(name, key) for name in names])
                params = {"run_id": claim.run_id, "visit": claim.visit, "now": self.clock()}
                if await (await conn.execute(QUERIES["time_out"], params)).fetchone() is None:
                    event_name, payload, timed_out = (await self._pause(conn, claim))[:3]  # an event won
                else:
                    timed_out = True
        if event_name is not None:
            return Resume(node=claim.node, visit=claim.visit, outcome=event_name, output=payload)
        if timed_out:
            return Resume(node=claim.node, visit=claim.visit, outcome="timeout", output={})
        return Undecided(wake_at=timeout_at)  # woken before either: parked again until its timeout

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        """For an event wait woken early: whether an event answered it meanwhile (then due now). Under
        the pause's locks, so that an event landing now either answered already or finds the wait
        parked again and makes it due."""
        if claim.kind != "event":
            return await self.approvals.decided(conn, claim)
        names, key = (await self._pause(conn, claim))[4:6]
        await lock_keys(conn, [pair(name, key) for name in names])
        # An event kept while the run could not take one (it was stopped) counts now, as at a park.
        params = {"run_id": claim.run_id, "visit": claim.visit, "now": self.clock()}
        await conn.execute(QUERIES["take_early"], params)
        event_name, _, timed_out = (await self._pause(conn, claim))[:3]
        return event_name is not None or bool(timed_out)

    async def _pause(self, conn: AsyncConnection[Any], claim: Claim) -> tuple[Any, ...]:
        params = {"run_id": claim.run_id, "visit": claim.visit, "now": self.clock()}
        row = await (await conn.execute(QUERIES["pause_of_visit"], params)).fetchone()
        if row is None:
            raise WaitFailed(code="event_wait_missing", run=claim.run_id, visit=claim.visit)
        return tuple(row)

    def __getattr__(self, name: str) -> Any:
        # Whatever else the product's approvals offer (its mail outbox, say) is still theirs.
        return getattr(self.approvals, name)


def with_events(approvals: Approvals, clock: Clock) -> Approvals:
    """The worker's port: `approvals` for approval waits, wait_event's own answers for event waits."""
    return approvals if isinstance(approvals, WithEvents) else WithEvents(approvals, clock)


async def sweep(conn: AsyncConnection[Any], now: datetime | None) -> tuple[int, int]:
    """Delete events past their keep (a thousand at a time) and the pauses of ended runs."""
    row = await (await conn.execute(QUERIES["sweep_events"], {"now": now})).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])
