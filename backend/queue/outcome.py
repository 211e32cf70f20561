"""Writing what a walk came to: one transaction per claim, guarded by the claim.

Every statement that changes the wait says `WHERE claimed_by = :me AND attempts = :attempts`: the claim
is this worker *and* this claiming of the wait, so a worker that claims the same wait again after its
own lease lapsed cannot write twice. When it returns no row the claim was taken over, or the run was
cancelled: the transaction is rolled back and this worker writes nothing at all.

Locks are taken in one order everywhere, runs before approvals before waits (cancel and decide do the
same), so two of them landing together wait for each other instead of deadlocking.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.events.wake import parked
from backend.queue import journal
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, backoff
from backend.queue.driver import Approvals, Run, WaitFailed, Walked
from backend.queue.queries import QUERIES
from backend.walker import ApprovalRequest, EventRequest, JournalLine


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
        step = walked.step
        if step is None:
            assert walked.undecided is not None
            # A decision may have landed while we held the claim; the approval row's lock orders us.
            decided = await approvals.decided(conn, claim)
            wait = {
                "kind": claim.kind,
                "continuation": Jsonb(claim.continuation),
                "node": claim.node,
                "visit": claim.visit,
                "wake_at": None if decided else walked.undecided.wake_at,
                "wake_in": timedelta(0) if decided else None,
            }
            due_now = bool((await _guarded(conn, "park", {**guard, **wait}))[1])
        else:
            status, error = walked.ended_as or (step.status, step.error)
            await _set_status(conn, run.id, status, error)
            await journal.append(conn, run.id, walked.journal)
            if step.status == "waiting":
                assert walked.wake is not None and step.request is not None
                if isinstance(step.request, ApprovalRequest):
                    await approvals.create(conn, run, step.request, walked.wake.deadline)
                wait = {
                    "kind": walked.wake.kind,
                    "continuation": Jsonb(step.continuation),
                    "node": step.request.node,
                    "visit": step.request.visit,
                    "wake_at": walked.wake.at,
                    "wake_in": walked.wake.after,
                }
                due_now = bool((await _guarded(conn, "park", {**guard, **wait}))[1])
                if isinstance(step.request, EventRequest):  # wait_event: backend/events/wake.py
                    await parked(conn, [(run.id, step.request)], now)
            else:
                await _guarded(conn, "finish", guard)
                due_now = False
        if due_now:
            await conn.execute(QUERIES["notify"], {"payload": str(run.id)})


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


async def _set_status(conn: AsyncConnection[Any], run_id: int, status: str, error: str | None) -> None:
    await conn.execute(QUERIES["set_run_status"], {"run_id": run_id, "status": status, "error": error})


async def _guarded(conn: AsyncConnection[Any], name: str, params: dict[str, Any]) -> tuple[Any, ...]:
    """Run a statement guarded by the claim; no row back rolls the whole transaction back."""
    cur = await conn.execute(QUERIES[name], params)
    row: tuple[Any, ...] | None = await cur.fetchone()
    if row is None:
        raise ClaimLost(params["id"])
    return row
