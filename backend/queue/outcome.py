"""Writing what a walk came to: one transaction per claim, guarded by the claim.

Every statement that changes the wait says `WHERE claimed_by = :me AND attempts = :attempts`: the claim
is this worker *and* this claiming of the wait, so a worker that claims the same wait again after its
own lease lapsed cannot write twice. When it returns no row the claim was taken over, or the run was
cancelled: the transaction is rolled back and this worker writes nothing at all.

Locks are taken in one order everywhere, runs before approvals before waits (cancel and decide do the
same), so two of them landing together wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.events.wake import parked
from backend.queue import journal
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, backoff
from backend.queue.driver import Approvals, Ended, Parked, Pause, Reparked, Run, WaitFailed, Walked
from backend.queue.queries import QUERIES
from backend.queue.runs import RunStatus
from backend.store.queries import every, one
from backend.walker import EventRequest, JournalLine


async def write_outcome(
    conn: AsyncConnection[Any],
    me: str,
    now: datetime | None,
    claim: Claim,
    run: Run,
    walked: Walked,
    approvals: Approvals,
) -> None:
    """Write a walk's outcome, and tell the workers when the run's next wait is due at once."""
    guard = {"id": claim.wait_id, "me": me, "attempts": claim.attempts, "now": now}
    async with conn.transaction():
        match walked:
            case Reparked(wake_at=wake_at, pauses=None):
                # A decision may have landed while we held the claim; the approval row's lock orders us.
                decided = await approvals.decided(conn, claim)
                wait = {
                    "kind": claim.kind,
                    "continuation": Jsonb(claim.continuation),
                    "node": claim.node,
                    "visit": claim.visit,
                    "wake_at": None if decided else wake_at,
                    "wake_in": timedelta(0) if decided else None,
                }
                due_now = (await _guarded(conn, "park", {**guard, **wait})).due_now
                await conn.execute(QUERIES["notify_run_shown"], {"run_id": run.id})
            case Reparked(pauses=pauses):
                # The run's row first (runs < approvals < waits): a decision landing now waits for us,
                # and one that landed while we held the claim is seen by `wake_decided`.
                await conn.execute(QUERIES["lock_runs"], {"run_ids": [run.id]})
                wait = {
                    "kind": claim.kind,
                    "continuation": Jsonb(claim.continuation),
                    "node": claim.node,
                    "visit": claim.visit,
                    "wake_at": None,
                    "wake_in": None,
                }
                await _guarded(conn, "park", {**guard, **wait})
                due_now = await park_pauses(conn, now, {claim.wait_id: pauses}, approvals)
                await journal.append(conn, run.id, walked.journal)  # a branch's retry that failed again
                await conn.execute(QUERIES["notify_run_shown"], {"run_id": run.id})
            case Parked(step=step, journal=lines, wake=wake):
                await _set_status(conn, run.id, step.status, step.error)
                await journal.append(conn, run.id, lines)
                if walked.closes is not None:
                    await approvals.close(conn, run.id, walked.keep, walked.closes)
                for request, deadline in walked.approvals:
                    await approvals.create(conn, run, request, deadline)
                wait = {
                    "kind": wake.kind,
                    "continuation": Jsonb(step.continuation),
                    "node": walked.node,
                    "visit": walked.visit,
                    "wake_at": wake.at,
                    "wake_in": wake.after,
                }
                due_now = (await _guarded(conn, "park", {**guard, **wait})).due_now
                if walked.pauses is not None:
                    due_now = await park_pauses(conn, now, {claim.wait_id: walked.pauses}, approvals)
                elif walked.closes is not None:
                    await conn.execute(QUERIES["clear_pauses"], {"wait_ids": [claim.wait_id]})
                # wait_event: each new pause registered, a kept event taken at once (backend/events/wake.py).
                await parked(conn, [(run.id, request) for request in new_events(walked)], now)
            case Ended(status=status, error=error, journal=lines):
                await _set_status(conn, run.id, status, error)
                await journal.append(conn, run.id, lines)
                if walked.closes is not None:
                    await approvals.close(conn, run.id, [], walked.closes)
                await _guarded(conn, "finish", guard)
                due_now = False
        if due_now:
            await conn.execute(QUERIES["notify"], {"payload": str(run.id)})


async def park_pauses(
    conn: AsyncConnection[Any],
    now: datetime | None,
    pauses: Mapping[int, list[Pause] | None],
    approvals: Approvals,
) -> bool:
    """Write the pending pauses of waits just parked with several (their claims held, in the caller's
    transaction, the runs' rows locked): each one's due time, the wait's wake_at the earliest. Whether
    any of them is due at once."""
    listed = {wait_id: each for wait_id, each in pauses.items() if each is not None}
    if not listed:
        return False
    ids = list(listed)
    walks = [{"wait_id": wait_id, "pauses": [p.to_json() for p in each]} for wait_id, each in listed.items()]
    params = {"walks": Jsonb(walks), "wait_ids": ids, "now": now}
    due = {row.wait_id for row in await every(conn, DueWait, QUERIES["park_pauses"], params) if row.due_now}
    due.update(await approvals.wake_decided(conn, ids))
    return bool(due)


async def write_failure(
    conn: AsyncConnection[Any], me: str, now: datetime | None, claim: Claim, failure: BaseException
) -> None:
    """A resume threw: back in the queue after the backoff, or, at the last attempt, the run stops.

    A stopped run keeps its wait (and so its continuation and its open approval) out of every claim, until
    a person resumes it or ends it (stops.py).
    """
    code = failure.code if isinstance(failure, WaitFailed) else "resume_error"
    data: dict[str, Any] = {"attempt": claim.attempts, "error": code}
    if isinstance(failure, WaitFailed):
        data.update(failure.data)
    else:
        data["detail"] = f"{type(failure).__name__}: {failure}"
    guard = {"id": claim.wait_id, "me": me, "attempts": claim.attempts, "now": now}
    async with conn.transaction():
        lines = [JournalLine(code="resume_failed", node=claim.node, visit=claim.visit, data=data)]
        if claim.attempts >= MAX_ATTEMPTS:
            exhausted = {"attempts": claim.attempts, "error": code}
            lines.append(
                JournalLine(
                    code="resume_attempts_exhausted", node=claim.node, visit=claim.visit, data=exhausted
                )
            )
            # Where it stopped: the failing action's node and visit when an action failed, else the pause.
            node, visit = data.get("node", claim.node), data.get("visit", claim.visit)
            stopped = {"error": code}
            if "remaining" in data:
                stopped["remaining"] = data["remaining"]  # the undos still to run (queue/undo.py)
            lines.append(JournalLine(code="run_stopped", node=node, visit=visit, data=stopped))
            await _set_status(conn, claim.run_id, "stopped", code)
            await journal.append(conn, claim.run_id, lines)
            await _guarded(conn, "stop_wait", {**guard, "error": code})
        else:
            wait = backoff(claim.attempts)
            data["retry_in_s"] = int(wait.total_seconds())
            await journal.append(conn, claim.run_id, lines)
            await _guarded(conn, "retry_later", {**guard, "error": code, "backoff": wait})


async def _set_status(conn: AsyncConnection[Any], run_id: int, status: RunStatus, error: str | None) -> None:
    await conn.execute(QUERIES["set_run_status"], {"run_id": run_id, "status": status, "error": error})


@dataclass(frozen=True, slots=True)
class DueWait:
    """A wait a statement parked: whether it is due at once (its wake-up already past)."""

    wait_id: int
    due_now: bool


@dataclass(frozen=True, slots=True)
class _Held:
    """A statement guarded by the claim: the wait it wrote, and (`park`) whether it is due at once."""

    id: int
    due_now: bool = False


async def _guarded(conn: AsyncConnection[Any], name: str, params: dict[str, Any]) -> _Held:
    """Run a statement guarded by the claim; no row back rolls the whole transaction back."""
    held = await one(conn, _Held, QUERIES[name], params)
    if held is None:
        raise ClaimLost(params["id"])
    return held


def new_events(walked: Parked) -> list[EventRequest]:
    """The wait_event pauses this walk asked for that are still pending when it parks."""
    pending = set(walked.step.pending)
    return [
        request
        for request in walked.step.requests
        if isinstance(request, EventRequest) and (request.node, request.visit) in pending
    ]
