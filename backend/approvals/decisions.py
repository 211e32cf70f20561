"""A person's decision on an approval, and what they may decide: the product's side of approvals, which the
API and the terminal call (the queue's side is backend/approvals/queue_port.py).

A decision is a vote (its own immutable row) and, when the votes settle the approval (its quorum reached,
or a reject that decides), an UPDATE ... WHERE outcome IS NULL and, in the same transaction, `wake_at =
now()` on the run's wait and a NOTIFY: the worker is the only one that resumes the run. A deadline's
outcome is the same UPDATE made by the worker, so a decision and a deadline landing together resolve once.
Votes on one approval take turns on its row lock, so none is counted twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.approvals.audit import decode_cursor, encode_cursor
from backend.approvals.records import Approval, Outcome, read_one_with_votes, read_with_votes
from backend.errors import CodedError
from backend.observability import events
from backend.people.accounts import principals_of
from backend.store.queries import load, one, scalars

QUERIES = load("backend.approvals", "queries.sql")

# The longest comment a decision keeps, from the API and the terminal alike.
COMMENT_MAX = 2000

# The moment a decision is taken at; None: the database's now() (tests and benches give their own).
Clock = Callable[[], datetime | None]


def database_clock() -> datetime | None:
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision that stands on an approval."""

    approval_id: int
    outcome: Outcome | None  # None: a vote was counted and the approval still waits for more
    decided_at: datetime
    decided_by: str | None


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


class ApprovalDecisions:
    """What people do with approvals: decide one (a vote), read one, list what they may decide."""

    def __init__(self, clock: Clock = database_clock) -> None:
        self.clock = clock

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
