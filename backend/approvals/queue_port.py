"""The approvals' side of the queue: the port the worker, a run's cancel and end, and `flowyard runs show`
call (backend/queue/ports.py `Approvals`, backend/queue/runs.py `RunApprovals`), handed to the queue by
backend/processes.py and the app factory, so the queue imports nothing of this package.

The worker records the approvals a walk asks for, and when an approval wait wakes it reads what the wait
resumes with: the decision, or the deadline's outcome, an UPDATE ... WHERE outcome IS NULL as a person's
decision is (backend/approvals/decisions.py), so a decision and a deadline landing together resolve once.
An undecided approval woken before its deadline owes its reminders and its escalation, written in the
woken wait's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, LiteralString

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.approvals.records import Outcome
from backend.approvals.retention import sweep_decided_approvals
from backend.graph.durations import parse_duration
from backend.observability import events
from backend.queue.claims import Claim, ClaimLost, Clock, database_clock
from backend.queue.runs import StandingDecision, WaitApproval
from backend.queue.store import append_journal, wake_pauses
from backend.queue.walked import Run, Undecided, WaitFailed
from backend.store.queries import every, load, one, scalar, scalars
from backend.walker import ApprovalRequest, JournalLine, Resume

QUERIES = load("backend.approvals", "queries.sql")

# What a decision resumes the walk with, by the outcome recorded.
_RESUMES: dict[str, str] = {"approved": "approve", "rejected": "reject"}


def _microseconds(duration: timedelta | None) -> int | None:
    return None if duration is None else duration // timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class ApprovalOfVisit:
    """The approval a woken wait is for (approval_of_visit): its outcome if any, whether it is too late."""

    id: int
    outcome: Outcome | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    past_deadline: bool | None  # None: no deadline


@dataclass(frozen=True, slots=True)
class _TimedOut:
    outcome: Outcome
    decided_at: datetime


@dataclass(frozen=True, slots=True)
class _Schedule:
    """What an undecided approval may owe (approval_schedule): reminders and escalation, from its request."""

    requested_at: datetime
    remind_after: list[timedelta]
    reminders_sent: int
    escalate_after: timedelta | None
    escalate_to: list[str]
    escalated_at: datetime | None
    deadline_at: datetime | None
    node: str
    visit: int


@dataclass(frozen=True, slots=True)
class _DecidedPause:
    """An approval pause of a wait with several, whose approval is decided (decided_pauses)."""

    wait_id: int
    key: str


class ApprovalsPort:
    """The queue's approvals port: what the worker asks when a walk pauses at an approval or an approval
    wait wakes, and what cancelling, ending and showing a run ask of the run's approvals."""

    def __init__(self, clock: Clock = database_clock) -> None:
        self.clock = clock

    async def create_many(
        self, conn: AsyncConnection[Any], asks: Sequence[tuple[Run, ApprovalRequest, timedelta | None]]
    ) -> None:
        """`create` for several paused runs at once: every request and its mails in one statement, fed one
        JSON document, so an outcome batch costs no round trip per approval it asks."""
        if not asks:
            return
        rows = [
            {
                "run_id": run.id,
                "flow_id": run.flow_id,
                "version": run.version,
                "node": request.node,
                "visit": request.visit,
                "title": request.title,
                "explanation": request.explanation,
                "approvers": list(request.approvers),
                "deadline_us": _microseconds(deadline),
                "on_timeout": request.on_timeout,
                "quorum": request.quorum,
                "reject": request.reject,
                "allow_self_approval": request.allow_self_approval,
                "remind_after_us": [_microseconds(parse_duration(after)) for after in request.remind_after],
                "escalate_after_us": _microseconds(
                    parse_duration(request.escalate_after) if request.escalate_after else None
                ),
                "escalate_to": list(request.escalate_to),
                "shown": list(request.shown),
            }
            for run, request, deadline in asks
        ]
        await conn.execute(QUERIES["insert_approvals"], {"document": Jsonb(rows), "now": self.clock()})

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        """What a woken approval wait resumes with: its decision, its time-out, or Undecided.

        `conn` is in autocommit. A decided approval is one read, without a lock (an outcome never
        changes once written). An undecided one past its deadline is timed out by one statement
        (`time_out`), guarded by `outcome IS NULL`, so a decision or a cancel that landed in between wins
        and is read again. Only an undecided one before its deadline is read under the run's and its own
        lock (pipelined), as reminders and escalation write what is owed in that transaction."""
        # A final approval read by the claim round (queue/claims.py) needs no read of its own.
        approval = claim.approval or await self._read(conn, claim, QUERIES["approval_of_visit_read"])
        if approval.outcome is None and not approval.past_deadline:
            async with conn.pipeline(), conn.transaction():
                # The run before the approval (runs < approvals < waits): an escalation writes its journal.
                await conn.execute(QUERIES["lock_run"], {"run_id": claim.run_id})
                approval = await self._locked(conn, claim)
                if approval.outcome is None and not approval.past_deadline:
                    return Undecided(await self._remind_and_escalate(conn, claim, approval.id))
        outcome, decided_at = approval.outcome, approval.decided_at
        if outcome == "cancelled":
            # The run was cancelled while this wait was being claimed: it goes no further.
            raise ClaimLost(claim.wait_id)
        if outcome is None:
            where = {"id": approval.id, "now": self.clock()}
            timed_out = await one(conn, _TimedOut, QUERIES["time_out"], where)
            if timed_out is None:  # decided or cancelled since it was read: that outcome stands
                return await self.resolution(conn, claim)
            outcome, decided_at = timed_out.outcome, timed_out.decided_at
            events.approval_decided(approval.id, claim.run_id, outcome)
        assert claim.node is not None and claim.visit is not None and decided_at is not None
        output = {
            "approval": approval.id,
            "outcome": outcome,
            "decided_by": approval.decided_by,
            "decided_at": decided_at.isoformat(),
            "comment": approval.comment,
        }
        return Resume(
            node=claim.node, visit=claim.visit, outcome=_RESUMES.get(outcome, "timeout"), output=output
        )

    async def _remind_and_escalate(
        self, conn: AsyncConnection[Any], claim: Claim, approval_id: int
    ) -> datetime | None:
        """What an undecided approval owes now (its latest due reminder, its escalation), written in the
        woken wait's transaction and keyed, so a retried walk writes nothing twice; and when it is next
        owed something, or its deadline (None: never by time)."""
        schedule = await one(conn, _Schedule, QUERIES["approval_schedule"], {"id": approval_id})
        assert schedule is not None
        requested_at, remind_after = schedule.requested_at, schedule.remind_after
        escalate_after, escalated_at = schedule.escalate_after, schedule.escalated_at
        now = self.clock() or await self._now(conn)
        elapsed = now - requested_at
        due = sum(1 for after in remind_after if after <= elapsed)
        if due > schedule.reminders_sent:
            # Only the latest reminder that fell due: a worker that was down does not send a burst.
            await conn.execute(QUERIES["queue_reminder_mails"], {"id": approval_id, "round": due})
            await conn.execute(QUERIES["reminders_sent"], {"id": approval_id, "sent": due})
        escalation_due = escalate_after is not None and escalated_at is None and escalate_after <= elapsed
        escalate = {"id": approval_id, "now": self.clock()}
        if escalation_due and await scalar(conn, QUERIES["escalate"], escalate) is not None:
            await conn.execute(QUERIES["queue_reminder_mails"], {"id": approval_id, "round": 0})
            line = JournalLine(
                code="approval_escalated",
                node=schedule.node,
                visit=schedule.visit,
                data={"approval": approval_id, "to": ", ".join(schedule.escalate_to)},
            )
            await append_journal(conn, claim.run_id, [line])
            escalated_at = now
        owed = [requested_at + after for after in remind_after if after > elapsed]
        if escalate_after is not None and escalated_at is None:
            owed.append(requested_at + escalate_after)
        if schedule.deadline_at is not None:
            owed.append(schedule.deadline_at)
        return min(owed) if owed else None

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        return (await self._locked(conn, claim)).outcome is not None

    async def close(self, conn: AsyncConnection[Any], run_id: int, keep: list[int], outcome: str) -> None:
        closing = {"run_id": run_id, "keep": keep, "outcome": outcome, "now": self.clock()}
        for approval_id in await scalars(conn, QUERIES["close_other_approvals"], closing):
            events.approval_decided(approval_id, run_id, outcome)

    async def wake_decided(self, conn: AsyncConnection[Any], wait_ids: list[int]) -> list[int]:
        """Make due now the approval pauses of these waits decided while the wait was claimed."""
        decided = await every(conn, _DecidedPause, QUERIES["decided_pauses"], {"ids": wait_ids})
        return await wake_pauses(conn, decided, self.clock())

    async def standing_decision(self, conn: AsyncConnection[Any], run_id: int) -> StandingDecision | None:
        """A decision the run has yet to go on with (with several pauses pending, any of them)."""
        return await one(conn, StandingDecision, QUERIES["decision_awaiting_resume"], {"run_id": run_id})

    async def cancel_open(self, conn: AsyncConnection[Any], run_id: int, by: str | None) -> None:
        await conn.execute(QUERIES["cancel_open_approvals"], {"run_id": run_id, "by": by})

    async def fail_open(self, conn: AsyncConnection[Any], run_id: int) -> None:
        await conn.execute(QUERIES["close_open_approvals"], {"run_id": run_id})

    async def of_wait(self, conn: AsyncConnection[Any], run_id: int, visit: int) -> WaitApproval | None:
        where = {"run_id": run_id, "visit": visit}
        return await one(conn, WaitApproval, QUERIES["approval_of_wait"], where)

    async def sweep(self, conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
        return await sweep_decided_approvals(conn, now, retention)

    async def _locked(self, conn: AsyncConnection[Any], claim: Claim) -> ApprovalOfVisit:
        return await self._read(conn, claim, QUERIES["approval_of_visit"])

    async def _read(self, conn: AsyncConnection[Any], claim: Claim, query: LiteralString) -> ApprovalOfVisit:
        where = {"run_id": claim.run_id, "visit": claim.visit, "now": self.clock()}
        approval = await one(conn, ApprovalOfVisit, query, where)
        if approval is None:
            raise WaitFailed(code="approval_missing", run=claim.run_id, visit=claim.visit)
        return approval

    async def _now(self, conn: AsyncConnection[Any]) -> datetime:
        now: datetime = await scalar(conn, QUERIES["database_now"])
        return now
