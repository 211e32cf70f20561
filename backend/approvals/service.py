"""Approval requests and decisions: the product table the queue consults when an approval wait wakes.

A decision is an UPDATE ... WHERE outcome IS NULL and, in the same transaction, `wake_at = now()` on the
run's wait and a NOTIFY: the worker is the only one that resumes the run. A deadline's outcome is the same
UPDATE made by the worker, so a decision and a deadline landing together resolve once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.queue.claims import Claim, Clock, database_clock
from backend.queue.driver import Run, Undecided, WaitFailed
from backend.queue.queries import QUERIES as QUEUE_QUERIES
from backend.store.queries import load
from backend.walker import ApprovalRequest, Resume

QUERIES = load("backend.approvals", "queries.sql")

# What a decision resumes the walk with, by the outcome recorded.
_RESUMES = {"approved": "approve", "rejected": "reject"}


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision that stands on an approval: maybe this request's, maybe an earlier one."""

    approval_id: int
    outcome: str
    decided_at: datetime
    taken: bool  # False: the approval was decided already and this request changed nothing


class ApprovalService:
    def __init__(self, clock: Clock = database_clock) -> None:
        self.clock = clock

    async def create(
        self, conn: AsyncConnection[Any], run: Run, request: ApprovalRequest, deadline: timedelta | None
    ) -> None:
        await conn.execute(
            QUERIES["insert_approval"],
            {
                "run_id": run.id,
                "flow_id": run.flow_id,
                "version": run.version,
                "node": request.node,
                "visit": request.visit,
                "title": request.title,
                "explanation": request.explanation,
                "approvers": request.approvers,
                "deadline": deadline,
                "on_timeout": request.on_timeout,
                "now": self.clock(),
            },
        )

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        async with conn.transaction():
            row = await self._locked(conn, claim)
            approval_id, outcome, decided_by, decided_at, comment, deadline_at, past_deadline = row
            if outcome is None and past_deadline:
                cur = await conn.execute(QUERIES["time_out"], {"id": approval_id, "now": self.clock()})
                timed_out = await cur.fetchone()
                assert timed_out is not None, "the row is locked and had no outcome"
                outcome, decided_at = timed_out
            if outcome is None:
                return Undecided(deadline_at)
        assert claim.node is not None and claim.visit is not None
        output = {
            "approval": approval_id,
            "outcome": outcome,
            "decided_by": decided_by,
            "decided_at": decided_at.isoformat(),
            "comment": comment,
        }
        return Resume(
            node=claim.node, visit=claim.visit, outcome=_RESUMES.get(outcome, "timeout"), output=output
        )

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        row = await self._locked(conn, claim)
        return row[1] is not None

    async def _locked(self, conn: AsyncConnection[Any], claim: Claim) -> tuple[Any, ...]:
        cur = await conn.execute(
            QUERIES["approval_of_visit"], {"run_id": claim.run_id, "visit": claim.visit, "now": self.clock()}
        )
        row = await cur.fetchone()
        if row is None:
            raise WaitFailed(code="approval_missing", run=claim.run_id, visit=claim.visit)
        return tuple(row)

    async def decide(
        self, conn: AsyncConnection[Any], approval_id: int, outcome: str, *, by: str, comment: str | None
    ) -> Decision:
        """Record `outcome` ("approved" or "rejected") unless a decision stands; wake the run. Commits."""
        now = self.clock()
        async with conn.transaction():
            cur = await conn.execute(
                QUERIES["decide"],
                {"id": approval_id, "outcome": outcome, "by": by, "comment": comment, "now": now},
            )
            row = await cur.fetchone()
            if row is not None:
                run_id, visit, outcome, decided_at = row
                await conn.execute(
                    QUERIES["wake_for_decision"], {"run_id": run_id, "visit": visit, "now": now}
                )
                await conn.execute(QUEUE_QUERIES["notify"], {"payload": str(run_id)})
                return Decision(approval_id, outcome, decided_at, taken=True)
        cur = await conn.execute(QUERIES["approval"], {"id": approval_id})
        standing = await cur.fetchone()
        if standing is None:
            raise LookupError(approval_id)
        return Decision(approval_id, standing[12], standing[14], taken=False)
