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
from backend.queue.driver import Approvals, Run, Walked
from backend.queue.queries import QUERIES
from backend.walker import ApprovalRequest, EventRequest


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
    return outcome.walked.step is not None


async def write_walks(
    conn: AsyncConnection[Any], me: str, outcomes: Sequence[Outcome], approvals: Approvals
) -> set[int]:
    """Write `outcomes` (each `settles`) in the caller's transaction; the wait ids whose claim held.

    The batch goes as one JSON document, encoded once, not as a dozen arrays dumped element by element.
    """
    walks = [_walk_of(outcome) for outcome in outcomes]
    run_ids = sorted({outcome.claim.run_id for outcome in outcomes})
    await conn.execute(QUERIES["lock_runs"], {"run_ids": run_ids})
    cur = await conn.execute(
        QUERIES["write_walks"], {"walks": Jsonb(walks), "me": me, "now": outcomes[0].now}
    )
    written = {int(wait_id): bool(due_now) for wait_id, due_now in await cur.fetchall()}
    events: list[tuple[int, EventRequest]] = []
    for outcome in outcomes:
        step, wake = outcome.walked.step, outcome.walked.wake
        assert step is not None
        if outcome.claim.wait_id in written and isinstance(step.request, ApprovalRequest):
            assert wake is not None
            await approvals.create(conn, outcome.run, step.request, wake.deadline)
        if outcome.claim.wait_id in written and isinstance(step.request, EventRequest):
            events.append((outcome.claim.run_id, step.request))
    # wait_event: each pause registered, and a kept event taken at once (backend/events/wake.py).
    await parked(conn, events, outcomes[0].now)
    due = [outcome.claim.run_id for outcome in outcomes if written.get(outcome.claim.wait_id)]
    if due:  # one NOTIFY wakes every sleeping worker; the payload is only for people reading the log
        await conn.execute(QUERIES["notify"], {"payload": str(due[0])})
    return set(written)


def _walk_of(outcome: Outcome) -> dict[str, Any]:
    """One element of `write_walks`' JSON array: the wait to finish or park, the run's status, its lines."""
    claim, walked, step = outcome.claim, outcome.walked, outcome.walked.step
    assert step is not None
    walk: dict[str, Any] = {
        "wait_id": claim.wait_id,
        "attempts": claim.attempts,
        "run_id": claim.run_id,
        "finish": step.status != "waiting",
        "status": walked.ended_as[0] if walked.ended_as else step.status,
        "error": walked.ended_as[1] if walked.ended_as else step.error,
        "journal": [
            {"code": line.code, "node": line.node, "visit": line.visit, "data": line.data}
            for line in walked.journal
        ],
    }
    if step.status == "waiting":
        wake, request = walked.wake, step.request
        assert wake is not None and request is not None
        walk.update(
            kind=wake.kind,
            continuation=step.continuation,
            node=request.node,
            visit=request.visit,
            wake_at=wake.at.isoformat() if wake.at is not None else None,
            wake_in_us=wake.after // timedelta(microseconds=1) if wake.after is not None else None,
        )
    return walk
