"""Walks' outcomes written: the one write path, for a batch of many or a batch of one.

The walks that got somewhere become one JSON array, an object per claim with its journal lines, and
`write_walks` finishes or re-parks every wait whose claim still holds, then sets those runs' statuses and
appends their journal lines, all in one statement. A claim that no longer holds (lease taken over, run
cancelled) matches no row: its run and journal are not touched, and the rest of the batch still lands.
A walk that got nowhere (`Reparked`: an approval woken early, a branch's retry that failed again) has no
step to write; its wait is parked again as the claim found it, by `repark`.

Locks are taken in the one order everywhere: the batch's runs first (`lock_runs`, in id order), then the
approval rows (the ones a paused walk creates or closes, the one an early-woken approval reads), then the
waits; cancel and decide take them in that order too, so writers wait for each other instead of
deadlocking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.events.store import DEFAULT_KEEP
from backend.events.wake import parked
from backend.queue import store
from backend.queue.claims import Claim
from backend.queue.ports import Approvals
from backend.queue.store import DueWait, WrittenWalk
from backend.queue.walked import Ended, Parked, Pause, Reparked, Run, Walked
from backend.walker import EventRequest, JournalLine


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one claim's walk came to, waiting for its batch to be written."""

    claim: Claim
    run: Run
    walked: Walked
    now: datetime | None  # the worker's clock when the walk ended; None: the database's own now()


def batched(outcome: Outcome) -> bool:
    """Whether this outcome is written in a batch with others: every walk that got somewhere. An approval
    woken early (no step) reads its approval row under its lock before its wait is written, a round trip
    the whole batch would wait for, so it is written in a batch of its own."""
    return not isinstance(outcome.walked, Reparked)


@dataclass(frozen=True, slots=True)
class Settled:
    """What a batch's write came to: the waits whose claim held, and how long until the soonest wait it
    parked falls due by time (None: none does; one due at once is announced by NOTIFY instead)."""

    waits: set[int]
    soonest: timedelta | None


async def settle(
    conn: AsyncConnection[Any],
    me: str,
    outcomes: Sequence[Outcome],
    approvals: Approvals,
    events_keep: timedelta = DEFAULT_KEEP,
) -> Settled:
    """Write `outcomes` in the caller's transaction, each only where its claim still holds; which waits
    were written, and when the soonest one parked falls due, so that the worker that wrote it looks again
    then (no NOTIFY can announce a wait due 10 ms from now). One NOTIFY when any wait is due at once."""
    run_ids = sorted({outcome.claim.run_id for outcome in outcomes})
    await store.lock_runs(conn, run_ids)
    walks = [outcome for outcome in outcomes if batched(outcome)]
    held = await _write_walks(conn, me, walks) if walks else []
    written = {row.wait_id for row in held}
    due = [row.wait_id for row in held if row.due_now]
    stepped = [outcome for outcome in walks if outcome.claim.wait_id in written]
    due.extend(await _write_approvals_and_pauses(conn, stepped, approvals, events_keep))
    reparked = [
        await _repark(conn, me, o, o.walked, approvals) for o in outcomes if isinstance(o.walked, Reparked)
    ]
    written.update(wait.wait_id for wait in reparked if wait is not None)
    due.extend(wait.wait_id for wait in reparked if wait is not None and wait.due_now)
    if due:
        # One NOTIFY for the batch's waits due now, of several runs: a payload that names no run, so every
        # sleeping worker answers it (backend/queue/wakes.py), as none owns them all.
        await store.notify(conn, "due")
    soonest = min((row.due_in for row in held if row.due_in is not None and not row.due_now), default=None)
    return Settled(written, soonest)


async def _write_walks(conn: AsyncConnection[Any], me: str, outcomes: Sequence[Outcome]) -> list[WrittenWalk]:
    """`write_walks` for these outcomes, as one JSON document encoded once, not as a dozen arrays dumped
    element by element; the waits whose claim held."""
    return await store.write_walks(conn, me, [_walk_of(outcome) for outcome in outcomes], outcomes[0].now)


async def _write_approvals_and_pauses(
    conn: AsyncConnection[Any], stepped: Sequence[Outcome], approvals: Approvals, events_keep: timedelta
) -> list[int]:
    """What the written walks did beside their wait, run and journal: the approvals they closed and asked
    for, their pauses when several are pending, their wait_event pauses. The waits made due at once."""
    for outcome in stepped:
        walked = outcome.walked
        if isinstance(walked, Parked | Ended) and walked.closes is not None:
            keep = walked.keep if isinstance(walked, Parked) else []
            await approvals.close(conn, outcome.claim.run_id, keep, walked.closes)
    parks = [(outcome, outcome.walked) for outcome in stepped if isinstance(outcome.walked, Parked)]
    asks = [(outcome.run, ask, deadline) for outcome, walked in parks for ask, deadline in walked.approvals]
    await approvals.create_many(conn, asks)  # one statement for the batch's approvals, not one each
    cleared = [o.claim.wait_id for o, walked in parks if walked.pauses is None and walked.closes is not None]
    if cleared:
        await store.clear_pauses(conn, cleared)
    now = stepped[0].now if stepped else None
    several = {outcome.claim.wait_id: walked.pauses for outcome, walked in parks if walked.pauses is not None}
    due = await park_pauses(conn, now, several, approvals)
    # wait_event: each pause registered, and a kept event taken at once (backend/events/wake.py), after
    # the pauses' due times are written (taking one makes its pause due now).
    events = [(outcome.claim.run_id, request) for outcome, walked in parks for request in new_events(walked)]
    await parked(conn, events, now, events_keep)
    return due


async def _repark(
    conn: AsyncConnection[Any], me: str, outcome: Outcome, walked: Reparked, approvals: Approvals
) -> DueWait | None:
    """Park a walk that got nowhere again as its claim found it; None when the claim no longer held
    (nothing written). An approval decided while the claim was held (`decided` waits for the approval
    row's lock) is due at once; a branch's retries get their pauses' due times and journal lines."""
    claim = outcome.claim
    decided = walked.pauses is None and await approvals.decided(conn, claim)
    wake_at, wake_in = (None, timedelta(0)) if decided else (walked.wake_at, None)
    reparked = await store.repark(conn, claim, me, outcome.now, wake_at, wake_in)
    if reparked is None:
        return None
    if walked.pauses is not None:
        due = await park_pauses(conn, outcome.now, {claim.wait_id: walked.pauses}, approvals)
        reparked = DueWait(claim.wait_id, bool(due))
        await store.append_journal(conn, claim.run_id, walked.journal)
    await store.notify_run_shown(conn, claim.run_id)
    return reparked


async def park_pauses(
    conn: AsyncConnection[Any],
    now: datetime | None,
    pauses: Mapping[int, list[Pause] | None],
    approvals: Approvals,
) -> list[int]:
    """Write the pending pauses of waits just parked with several (their claims held, in the caller's
    transaction, the runs' rows locked): each one's due time, the wait's wake_at the earliest. The waits
    made due at once."""
    listed = {wait_id: each for wait_id, each in pauses.items() if each is not None}
    if not listed:
        return []
    walks = [{"wait_id": wait_id, "pauses": [p.to_json() for p in each]} for wait_id, each in listed.items()]
    due = {row.wait_id for row in await store.park_pauses(conn, walks, now) if row.due_now}
    due.update(await approvals.wake_decided(conn, list(listed)))
    return sorted(due)


def new_events(walked: Parked) -> list[EventRequest]:
    """The wait_event pauses this walk asked for that are still pending when it parks."""
    pending = set(walked.step.pending)
    return [
        request
        for request in walked.step.requests
        if isinstance(request, EventRequest) and (request.node, request.visit) in pending
    ]


def _walk_of(outcome: Outcome) -> dict[str, Any]:
    """One element of `write_walks`' JSON array: the wait to finish or park, the run's status, its lines."""
    claim, walked = outcome.claim, outcome.walked
    walk: dict[str, Any] = {"wait_id": claim.wait_id, "attempts": claim.attempts, "run_id": claim.run_id}
    match walked:
        case Ended(status=status, error=error, journal=lines):
            walk.update(finish=True, status=status, error=error, journal=_lines(lines))
        case Parked(step=step, journal=lines, wake=wake):
            walk.update(
                finish=False,
                status=step.status,
                error=step.error,
                journal=_lines(lines),
                kind=wake.kind,
                continuation=step.continuation,
                node=walked.node,
                visit=walked.visit,
                wake_at=wake.at.isoformat() if wake.at is not None else None,
                wake_in_us=wake.after // timedelta(microseconds=1) if wake.after is not None else None,
            )
        case Reparked():
            raise AssertionError("a walk that got nowhere is parked again by `_repark`, not `write_walks`")
    return walk


def _lines(lines: list[JournalLine]) -> list[dict[str, Any]]:
    return [{"code": line.code, "node": line.node, "visit": line.visit, "data": line.data} for line in lines]
