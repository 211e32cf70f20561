"""What a claim round reads for its walks (issue 18): an approval wait's approval, decided or timed out,
comes with the round's time-out statement, so its walk resumes with no read of its own; and the outcome
batch says when the soonest wait it parked falls due, so its worker looks again then."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from backend.approvals.decisions import ApprovalDecisions
from backend.approvals.queue_port import QUERIES as APPROVAL_QUERIES
from backend.people.accounts import Grant, add_user
from tests.queue.test_batch import DELAY_FLOW, LOG_FLOW
from tests.support import Queue, flow


def asking(**config: Any) -> dict[str, Any]:
    ask = {"id": "ask", "type": "approval", "config": {"title": "ok?", "approvers": [], **config}}
    return flow(
        "start:trigger",
        ask,
        {"id": "yes", "type": "log", "config": {"message": "approved"}},
        {"id": "no", "type": "log", "config": {"message": "rejected"}},
        wires=[
            {"from": "start", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "yes"},
            {"from": "ask", "port": "reject", "to": "no"},
        ],
    )


def test_decided_and_timed_out_approvals_resume_from_the_claim_rounds_read(
    queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided = queue.start(queue.save(asking()))
    timed_out = queue.start(queue.save(asking(deadline="PT1H", on_timeout="reject")))
    queue.drain()
    approval = queue.one("SELECT id FROM approvals WHERE run_id = %s", decided)
    assert approval is not None
    queue.aconn(lambda conn: add_user(conn, "ann", grants=[Grant.parse("decide")]))
    queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(
            conn, approval[0], "approved", by="ann", comment="ok"
        )
    )
    queue.clock.advance(timedelta(hours=1))
    # A walk that read its approval itself would fail on this statement and be retried later.
    monkeypatch.setitem(APPROVAL_QUERIES, "approval_of_visit_read", "SELECT no_such_column FROM approvals")

    queue.drain()

    assert queue.status(decided) == ("succeeded", None) and queue.status(timed_out) == ("succeeded", None)
    visits = "SELECT node FROM journal WHERE run_id = %s AND code = 'node_visited' ORDER BY seq"
    assert [node for (node,) in queue.all(visits, decided)] == ["start", "ask", "yes"]
    assert [node for (node,) in queue.all(visits, timed_out)] == ["start", "ask", "no"]
    outcomes = "SELECT outcome, decided_by, comment FROM approvals WHERE run_id = %s"
    assert queue.one(outcomes, decided) == ("approved", "ann", "ok")
    assert queue.one(outcomes, timed_out) == ("timed_out_rejected", None, None)


def test_an_outcome_batch_says_when_the_soonest_wait_it_parked_falls_due(queue: Queue) -> None:
    from backend.queue.batch import OutcomeBatch

    queue.start(queue.save(DELAY_FLOW))
    queue.start(queue.save(LOG_FLOW), input={"who": "ann"})
    told: list[timedelta] = []
    original = OutcomeBatch.__init__

    def listening(self: OutcomeBatch, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **{**kwargs, "due_in": told.append})

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(OutcomeBatch, "__init__", listening)
        queue.drain()

    assert told == [timedelta(hours=1)], "the delay's hour, by the worker's clock; the ended run says nothing"
