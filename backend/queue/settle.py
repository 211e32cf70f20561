"""Many walks' outcomes written together: a few set-based statements for a whole batch, not several per run.

The walks of a batch become one JSON array, an object per claim with its journal lines, and `write_walks`
finishes or re-parks every wait whose claim still holds, then sets those runs' statuses and appends their
journal lines, all in one statement. A claim that no longer holds (lease taken over, run cancelled)
matches no row: its run and journal are not touched, and the rest of the batch still lands.

Locks are taken in the one order everywhere: the batch's runs first (`lock_runs`, in id order), then the
approval rows a paused walk creates, then the waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.events.wake import parked
from backend.queue.claims import Claim
from backend.queue.driver import Approvals, Ended, Parked, Pause, Reparked, Run, Walked
from backend.queue.outcome import new_events, park_pauses
from backend.queue.queries import QUERIES
from backend.store.queries import every
from backend.walker import ApprovalRequest, EventRequest, JournalLine


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one claim's walk came to, waiting for its batch to be written."""

    claim: Claim
    run: Run
    walked: Walked
    now: datetime | None  # the worker's clock when the walk ended; None: the database's own now()


def settles(outcome: Outcome) -> bool:
    """Whether the set-based write takes this outcome: every walk that got somewhere. An approval woken
    early (no step) needs the approval row's lock first, so it is written on its own."""
    return not isinstance(outcome.walked, Reparked)


@dataclass(frozen=True, slots=True)
class _Held:
    """A wait `write_walks` wrote: whether it is due at once, and how long until a parked one falls due
    (None: finished, or never by time)."""

    wait_id: int
    due_now: bool
    due_in: timedelta | None


@dataclass(frozen=True, slots=True)
class Settled:
    """What a batch's write came to: the waits whose claim held, and how long until the soonest wait it
    parked falls due by time (None: none does; one due at once is announced by NOTIFY instead)."""

    waits: set[int]
    soonest: timedelta | None


async def write_walks(
    conn: AsyncConnection[Any], me: str, outcomes: Sequence[Outcome], approvals: Approvals
) -> set[int]:
    """Write `outcomes` (each `settles`) in the caller's transaction; the wait ids whose claim held."""
    return (await settle(conn, me, outcomes, approvals)).waits


async def settle(
    conn: AsyncConnection[Any], me: str, outcomes: Sequence[Outcome], approvals: Approvals
) -> Settled:
    """Write `outcomes` (each `settles`) in the caller's transaction: `write_walks`, and when the soonest
    wait parked falls due, so that the worker that wrote it looks again then (no NOTIFY can announce a
    wait due 10 ms from now).

    The batch goes as one JSON document, encoded once, not as a dozen arrays dumped element by element.
    """
    walks = [_walk_of(outcome) for outcome in outcomes]
    run_ids = sorted({outcome.claim.run_id for outcome in outcomes})
    await conn.execute(QUERIES["lock_runs"], {"run_ids": run_ids})
    params = {"walks": Jsonb(walks), "me": me, "now": outcomes[0].now}
    held = await every(conn, _Held, QUERIES["write_walks"], params)
    written = {row.wait_id: row.due_now for row in held}
    soonest = min((row.due_in for row in held if row.due_in is not None and not row.due_now), default=None)
    asks: list[tuple[Run, ApprovalRequest, timedelta | None]] = []
    events: list[tuple[int, EventRequest]] = []
    several: dict[int, list[Pause] | None] = {}
    cleared: list[int] = []
    for outcome in outcomes:
        walked, wait_id, run_id = outcome.walked, outcome.claim.wait_id, outcome.claim.run_id
        if wait_id not in written:
            continue
        match walked:
            case Parked(closes=closes):
                if closes is not None:
                    await approvals.close(conn, run_id, walked.keep, closes)
                asks.extend((outcome.run, request, deadline) for request, deadline in walked.approvals)
                events.extend((run_id, request) for request in new_events(walked))
                if walked.pauses is not None:
                    several[wait_id] = walked.pauses
                elif closes is not None:
                    cleared.append(wait_id)
            case Ended(closes=closes) if closes is not None:
                await approvals.close(conn, run_id, [], closes)
    await approvals.create_many(conn, asks)  # one statement for the batch's approvals, not one each
    if cleared:
        await conn.execute(QUERIES["clear_pauses"], {"wait_ids": cleared})
    due = [outcome.claim.run_id for outcome in outcomes if written.get(outcome.claim.wait_id)]
    if several and await park_pauses(conn, outcomes[0].now, several, approvals):
        due.append(next(o.claim.run_id for o in outcomes if o.claim.wait_id in several))
    # wait_event: each pause registered, and a kept event taken at once (backend/events/wake.py), after
    # the pauses' due times are written (taking one makes its pause due now).
    await parked(conn, events, outcomes[0].now)
    if due:  # one NOTIFY wakes every sleeping worker; the payload is only for people reading the log
        await conn.execute(QUERIES["notify"], {"payload": str(due[0])})
    return Settled(set(written), soonest)


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
            raise AssertionError("an approval woken early is written on its own (settles)")
    return walk


def _lines(lines: list[JournalLine]) -> list[dict[str, Any]]:
    return [{"code": line.code, "node": line.node, "visit": line.visit, "data": line.data} for line in lines]
