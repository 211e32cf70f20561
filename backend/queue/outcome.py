"""Writing what a walk came to: one transaction per claim, guarded by the claim.

Every statement that changes the wait says `WHERE claimed_by = :me`. When it returns no row the claim
was taken over (the lease lapsed and another worker has the wait) or the run was cancelled: the
transaction is rolled back and this worker writes nothing at all.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.graph.durations import parse_duration
from backend.queue import journal
from backend.queue.claims import MAX_ATTEMPTS, Claim, backoff
from backend.queue.driver import Approvals, Run, WaitFailed, Walked
from backend.queue.queries import QUERIES
from backend.walker import ApprovalRequest, DelayRequest, JournalLine, Step


class ClaimLost(Exception):
    """The wait is no longer this worker's: nothing was written."""


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
    base = {"id": claim.wait_id, "me": me, "now": now}
    async with conn.transaction():
        step = walked.step
        if step is None:
            assert walked.undecided is not None
            # A decision may have landed while we held the claim; the approval row's lock orders us.
            decided = await approvals.decided(conn, claim)
            row = await _one(
                conn,
                "park",
                {
                    **base,
                    "kind": claim.kind,
                    "continuation": Jsonb(claim.continuation),
                    "node": claim.node,
                    "visit": claim.visit,
                    "wake_at": None if decided else walked.undecided.wake_at,
                    "wake_in": timedelta(0) if decided else None,
                },
            )
            due_now = bool(row[1])
        elif step.status == "waiting":
            due_now = await _park(conn, base, run, step, approvals)
            await _set_status(conn, run.id, "waiting", None)
        else:
            await _one(conn, "finish", base)
            await _set_status(conn, run.id, step.status, step.error)
            due_now = False
        await journal.append(conn, run.id, walked.journal)
        if due_now:
            await conn.execute(QUERIES["notify"], {"payload": str(run.id)})


async def write_failure(
    conn: AsyncConnection[Any], me: str, now: datetime | None, claim: Claim, failure: BaseException
) -> None:
    """A resume threw: back in the queue after the backoff, or, at the last attempt, the run fails."""
    code = failure.code if isinstance(failure, WaitFailed) else "resume_error"
    data: dict[str, Any] = {"attempt": claim.attempts, "error": code}
    if isinstance(failure, WaitFailed):
        data.update(failure.data)
    else:
        data["detail"] = f"{type(failure).__name__}: {failure}"
    base = {"id": claim.wait_id, "me": me, "now": now}
    async with conn.transaction():
        if claim.attempts >= MAX_ATTEMPTS:
            await _one(conn, "finish", base)
            await _set_status(conn, claim.run_id, "failed", "resume_attempts_exhausted")
            lines = [
                JournalLine(code="resume_failed", node=claim.node, visit=claim.visit, data=data),
                JournalLine(
                    code="resume_attempts_exhausted",
                    node=claim.node,
                    visit=claim.visit,
                    data={"attempts": claim.attempts, "error": code},
                ),
            ]
        else:
            wait = backoff(claim.attempts)
            await _one(conn, "retry_later", {**base, "error": code, "backoff": wait})
            data["retry_in_s"] = int(wait.total_seconds())
            lines = [JournalLine(code="resume_failed", node=claim.node, visit=claim.visit, data=data)]
        await journal.append(conn, claim.run_id, lines)


async def _park(
    conn: AsyncConnection[Any], base: dict[str, Any], run: Run, step: Step, approvals: Approvals
) -> bool:
    request = step.request
    wake_at: datetime | None = None
    wake_in: timedelta | None = None
    if isinstance(request, DelayRequest):
        kind = "delay"
        if request.duration is not None:
            wake_in = parse_duration(request.duration)
        else:
            wake_at = _timestamp(request.until)
    elif isinstance(request, ApprovalRequest):
        kind = "approval"
        deadline = parse_duration(request.deadline) if request.deadline else None
        await approvals.create(conn, run, request, deadline)
        wake_in = deadline  # None and None: 'infinity', until someone decides
    else:
        raise WaitFailed(code="wait_corrupt", request=type(request).__name__)
    row = await _one(
        conn,
        "park",
        {
            **base,
            "kind": kind,
            "continuation": Jsonb(step.continuation),
            "node": request.node,
            "visit": request.visit,
            "wake_at": wake_at,
            "wake_in": wake_in,
        },
    )
    return bool(row[1])


def _timestamp(text: str | None) -> datetime:
    """A delay's `until`: ISO 8601; a time without an offset is UTC, as in every other API of ours."""
    try:
        moment = datetime.fromisoformat(text or "")
    except ValueError:
        raise WaitFailed(code="delay_until_invalid", until=text) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


async def _set_status(conn: AsyncConnection[Any], run_id: int, status: str, error: str | None) -> None:
    await conn.execute(QUERIES["set_run_status"], {"run_id": run_id, "status": status, "error": error})


async def _one(conn: AsyncConnection[Any], name: str, params: dict[str, Any]) -> tuple[Any, ...]:
    """Run a statement guarded by the claim; no row back rolls the whole transaction back."""
    cur = await conn.execute(QUERIES[name], params)
    row: tuple[Any, ...] | None = await cur.fetchone()
    if row is None:
        raise ClaimLost(params["id"])
    return row
