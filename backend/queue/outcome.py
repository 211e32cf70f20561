"""Writing a walk that threw: back in the queue after a backoff, or the run stopped, guarded by the claim.

Every statement that changes the wait says `WHERE claimed_by = :me AND attempts = :attempts`: the claim
is this worker *and* this claiming of the wait, so a worker that claims the same wait again after its
own lease lapsed cannot write twice. When it returns no row the claim was taken over, or the run was
cancelled: the transaction is rolled back and this worker writes nothing at all. A walk that got
somewhere is written by `settle` instead.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.queue import store
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, backoff
from backend.queue.walked import WaitFailed
from backend.walker import JournalLine


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
            await store.set_run_status(conn, claim.run_id, "stopped", code)
            await store.append_journal(conn, claim.run_id, lines)
            held = await store.stop_wait(conn, claim.wait_id, me, claim.attempts, now, code)
        else:
            wait = backoff(claim.attempts)
            data["retry_in_s"] = int(wait.total_seconds())
            await store.append_journal(conn, claim.run_id, lines)
            held = await store.retry_later(conn, claim.wait_id, me, claim.attempts, now, code, wait)
        if not held:  # the claim was taken over, or the run cancelled: the whole transaction rolls back
            raise ClaimLost(claim.wait_id)
