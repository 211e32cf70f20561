"""Approval requests and decisions: the product table the queue consults when an approval wait wakes.

A person's decision is a vote (its own immutable row) and, when the votes settle the approval (its quorum
reached, or a reject that decides), an UPDATE ... WHERE outcome IS NULL and, in the same transaction,
`wake_at = now()` on the run's wait and a NOTIFY: the worker is the only one that resumes the run. A
deadline's outcome is the same UPDATE made by the worker, so a decision and a deadline landing together
resolve once. Votes on one approval take turns on its row lock, so none is counted twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, LiteralString

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.approvals.records import Approval, Outcome, read_one_with_votes, read_with_votes
from backend.approvals.retention import sweep_decided_approvals
from backend.errors import CodedError
from backend.graph.durations import parse_duration
from backend.observability import events
from backend.people.accounts import principals_of
from backend.queue.claims import Claim, ClaimLost, Clock, database_clock
from backend.queue.runs import StandingDecision, WaitApproval
from backend.queue.store import append_journal, wake_pauses
from backend.queue.walked import Run, Undecided, WaitFailed
from backend.store.queries import every, load, one, scalar, scalars
from backend.walker import ApprovalRequest, JournalLine, Resume

QUERIES = load("backend.approvals", "queries.sql")

# The longest comment a decision keeps, from the API and the terminal alike.
COMMENT_MAX = 2000
# What a decision resumes the walk with, by the outcome recorded.
_RESUMES: dict[str, str] = {"approved": "approve", "rejected": "reject"}


def _microseconds(duration: timedelta | None) -> int | None:
    return None if duration is None else duration // timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision that stands on an approval."""

    approval_id: int
    outcome: Outcome | None  # None: a vote was counted and the approval still waits for more
    decided_at: datetime
    decided_by: str | None


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


@dataclass(frozen=True, slots=True)
class _Cast:
    """What `decide_approval` (migration 0028) did with a vote: refused it (a reason code, and the person
    it concerns), or counted it; `outcome` when the vote settled the approval."""

    refusal: str | None
    refused: str | None
    outcome: Outcome | None
    run_id: int | None
    decided_at: datetime | None


class DecisionRefused(CodedError):
    """A decision not taken, with its reason code; `standing` is the decision that stands, if any."""

    status = 422  # a refusal of what was asked

    def __init__(self, *, code: str, standing: Decision | None = None, **params: object) -> None:
        super().__init__(code=code, **params)
        self.standing = standing


class ApprovalService:
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

    async def decide(
        self,
        conn: AsyncConnection[Any],
        approval_id: int,
        outcome: str,
        *,
        by: str,
        comment: str | None,
        approval: Approval | None = None,
        seen_approval: int | None = None,
        seen: str | None = None,
    ) -> Decision:
        """Cast `by`'s vote ("approved" or "rejected"); when it settles the approval, record the outcome
        and wake the run. `approval` is the approval as the caller read it already, if it has.

        What the decider saw binds the decision, when they say it (the page always does): `seen_approval`
        is the approval they decided on (another than `approval_id` is `decision_approval_mismatch`) and
        `seen` its digest (another is `approval_changed`). Both are refused before anything else is asked
        or written, so a decision is never applied to an approval its decider did not see.

        `by` must hold the decide right on the flow and be among the approvers, or stand in for one of
        them by a delegation; unless the node allows it, neither may be the run's starter nor the flow
        version's author. The checks, the vote, the tally, the outcome, the journal line, the run's
        `wake_at = now()` and the NOTIFY are one statement (`decide_approval`, migration 0028): one round
        trip and one commit, the locks held only while the server works. The first decision wins: a
        later vote is refused with `approval_already_decided`, carrying the decision that stands. A vote
        that leaves the approval open returns outcome None.
        """
        if outcome not in ("approved", "rejected"):
            raise DecisionRefused(code="decision_outcome_invalid", outcome=outcome)
        if comment is not None and len(comment) > COMMENT_MAX:
            raise DecisionRefused(code="decision_comment_too_long", limit=COMMENT_MAX)
        if seen_approval is not None and seen_approval != approval_id:
            raise DecisionRefused(
                code="decision_approval_mismatch", approval=approval_id, seen_approval=seen_approval
            )
        if seen is not None:
            approval = approval or await self.get(conn, approval_id)
            if approval is None:
                raise DecisionRefused(code="approval_not_found", approval=approval_id)
            if seen != approval.digest:
                raise DecisionRefused(code="approval_changed", approval=approval_id)
        # The vote's journal line (its data: the approval, the voter, whose seat, approves, the quorum).
        code = "approval_vote_approve" if outcome == "approved" else "approval_vote_reject"
        where = {
            "id": approval_id,
            "line_code": code,
            "vote": "approve" if outcome == "approved" else "reject",
            "voter": by,
            "comment": comment,
            "now": self.clock(),
        }
        if conn.autocommit:  # one statement is its own transaction: no BEGIN and COMMIT to send
            cast = await one(conn, _Cast, QUERIES["decide"], where)
        else:
            async with conn.transaction():
                cast = await one(conn, _Cast, QUERIES["decide"], where)
        assert cast is not None, "decide_approval returns one row"
        if cast.refusal is None:
            assert cast.run_id is not None and cast.decided_at is not None
            if cast.outcome is not None:
                events.approval_decided(approval_id, cast.run_id, cast.outcome)
            return Decision(approval_id, cast.outcome, cast.decided_at, by)
        if cast.refusal == "approval_not_found":
            raise DecisionRefused(code="approval_not_found", approval=approval_id)
        if cast.refusal == "approval_vote_already_cast":
            raise DecisionRefused(code="approval_vote_already_cast", approval=approval_id, user=by)
        # `decide_approval`'s other refusals, each written here as the literal it is, so that the catalogs'
        # extractor, which reads Python, finds the sentence (tests/i18n/test_sql_codes.py).
        if cast.refusal == "decide_right_missing":
            raise DecisionRefused(code="decide_right_missing", user=cast.refused)
        if cast.refusal == "approver_not_named":
            raise DecisionRefused(code="approver_not_named", user=cast.refused)
        if cast.refusal == "self_approval_refused":
            raise DecisionRefused(code="self_approval_refused", user=cast.refused)
        assert cast.refusal == "closed", f"decide_approval refused with {cast.refusal}, which is not handled"
        standing = await self.get(conn, approval_id)
        assert standing is not None
        if standing.outcome is None:
            raise DecisionRefused(code="approval_deadline_passed", approval=approval_id)
        assert standing.decided_at is not None
        stands = Decision(approval_id, standing.outcome, standing.decided_at, standing.decided_by)
        if standing.outcome == "cancelled":
            raise DecisionRefused(code="approval_cancelled", approval=approval_id, standing=stands)
        raise DecisionRefused(code="approval_already_decided", approval=approval_id, standing=stands)

    async def _now(self, conn: AsyncConnection[Any]) -> datetime:
        now: datetime = await scalar(conn, QUERIES["database_now"])
        return now

    async def get(self, conn: AsyncConnection[Any], approval_id: int) -> Approval | None:
        return await read_one_with_votes(conn, QUERIES["approval"], approval_id)

    async def inbox(
        self,
        conn: AsyncConnection[Any],
        user: str | None,
        *,
        limit: int = 100,
        cursor: str | None = None,
        with_values: bool = True,
    ) -> tuple[list[Approval], str | None]:
        """What `user` may decide now, the oldest request first, a page at a time; and the next cursor.

        `user=None` lists every open approval: the view of whoever holds the database's credentials.
        Without `with_values` each approval's `shown` is left unread and empty (its digest is then not the
        approval's: such a page is for counting, never for deciding).
        """
        from backend.approvals.audit import decode_cursor, encode_cursor

        after_at, after_id = decode_cursor(cursor) if cursor else (None, None)
        page_params = {
            "limit": limit + 1,
            "after_at": after_at,
            "after_id": after_id,
            "with_values": with_values,
        }
        if user is None:
            rows = await read_with_votes(conn, QUERIES["open_approvals"], page_params)
        else:
            mine = await principals_of(conn, user)
            for delegator in await scalars(
                conn, QUERIES["delegators_of"], {"name": user, "now": self.clock()}
            ):
                mine |= await principals_of(conn, delegator)
            mine_page = {"name": user, "principals": sorted(mine), **page_params}
            rows = await read_with_votes(conn, QUERIES["inbox"], mine_page)
        page = rows[:limit]
        more = len(rows) > limit
        return page, encode_cursor(page[-1].requested_at, page[-1].id) if more else None
