"""Quorum and four eyes through the real queue: each vote its own row; the approval settles when N
distinct approvers approve, or when approval can no longer reach N (or at the first reject); 20
concurrent voters never count twice; the run's starter and the version's author may not decide."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import psycopg
import pytest

from backend.approvals.decisions import ApprovalDecisions, Decision, DecisionRefused
from backend.flows.store import create_flow
from backend.queue.runs import start_run
from tests.approvals.test_decisions import approval_flow, decide, user, visited
from tests.support import Queue


def ask(queue: Queue, **config: Any) -> tuple[int, int]:
    """A run parked at an approval with `config`: (run, approval)."""
    run_id = queue.start(queue.save(approval_flow(**config)), input={"id": "Q"})
    queue.clock.advance(timedelta(minutes=1))  # past the start, however slow the machine
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None, queue.codes(run_id)
    return run_id, row[0]


@pytest.fixture(scope="module")
def queue(database_url: str) -> Queue:
    queue = Queue(database_url)
    for name in ("ann", "bob", "cy", "dee"):
        user(queue, name, "decide")
    return queue


def test_two_of_three_settles_at_the_second_approval_and_each_vote_is_a_row(queue: Queue) -> None:
    run_id, approval = ask(queue, approvers=["user:ann", "user:bob", "user:cy"], quorum=2)
    first = decide(queue, approval, "approved", "ann")
    assert first.outcome is None, "one of two: still waiting"
    with pytest.raises(DecisionRefused) as again:
        decide(queue, approval, "approved", "ann")
    assert again.value.code == "approval_vote_already_cast"
    queue.drain()
    assert queue.status(run_id)[0] == "waiting"

    second = decide(queue, approval, "approved", "bob")
    assert (second.outcome, second.decided_by) == ("approved", "bob")
    with pytest.raises(DecisionRefused) as late:
        decide(queue, approval, "rejected", "cy")
    assert late.value.code == "approval_already_decided"
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert visited(queue, run_id) == ["start", "ask", "yes", "after"]
    votes = queue.all("SELECT voter, vote FROM approval_votes WHERE approval_id = %s ORDER BY id", approval)
    assert votes == [("ann", "approve"), ("bob", "approve")]
    assert queue.codes(run_id).count("approval_vote_approve") == 2, "the journal shows each vote"
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation), psycopg.connect(queue.url) as conn:
        conn.execute("UPDATE approval_votes SET vote = 'reject' WHERE approval_id = %s", (approval,))


def test_reject_any_decides_at_the_first_reject(queue: Queue) -> None:
    run_id, approval = ask(queue, approvers=["user:ann", "user:bob", "user:cy"], quorum=2)
    decide(queue, approval, "approved", "ann")
    assert decide(queue, approval, "rejected", "bob").outcome == "rejected"
    queue.drain()
    assert visited(queue, run_id) == ["start", "ask", "no", "after"]


def test_reject_quorum_waits_until_the_quorum_cannot_be_reached(queue: Queue) -> None:
    run_id, approval = ask(queue, approvers=["user:ann", "user:bob", "user:cy"], quorum=2, reject="quorum")
    assert decide(queue, approval, "rejected", "ann").outcome is None, "bob and cy can still make two"
    assert decide(queue, approval, "rejected", "bob").outcome == "rejected", "only cy is left: one < two"
    queue.drain()
    assert visited(queue, run_id) == ["start", "ask", "no", "after"]


def test_twenty_concurrent_voters_never_count_twice(queue: Queue) -> None:
    voters = [user(queue, f"v{i}", "decide") for i in range(20)]
    run_id, approval = ask(queue, approvers=[f"user:{v}" for v in voters], quorum=5)

    async def vote(name: str) -> Decision | str:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            try:
                return await ApprovalDecisions(queue.clock).decide(
                    conn, approval, "approved", by=name, comment=None
                )
            except DecisionRefused as refused:
                return refused.code

    async def everyone() -> list[Decision | str]:
        return await asyncio.gather(*(vote(v) for v in voters))

    results = asyncio.run(everyone())
    decisions = [r for r in results if isinstance(r, Decision)]
    assert len(decisions) == 5, results
    assert [d.outcome for d in decisions].count("approved") == 1
    assert [r for r in results if isinstance(r, str)] == ["approval_already_decided"] * 15
    assert queue.one("SELECT count(*) FROM approval_votes WHERE approval_id = %s", approval) == (5,)
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.codes(run_id).count("wait_claimed") == 1, "the run resumed once"


def test_the_starter_and_the_author_may_not_decide_unless_the_node_allows_it(queue: Queue) -> None:
    async def started_by_dee(allow: bool) -> tuple[int, int]:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            flow_id = await create_flow(conn, approval_flow(allow_self_approval=allow), by="cy")
            started = await start_run(
                conn, flow_id, input={"id": "S"}, trigger_kind="manual", started_by="dee"
            )
            return flow_id, started.run_id

    _, run_id = asyncio.run(started_by_dee(False))
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id, started_by, author FROM approvals WHERE run_id = %s", run_id)
    assert row is not None and row[1:] == ("dee", "cy")
    for person in ("dee", "cy"):
        with pytest.raises(DecisionRefused) as refused:
            decide(queue, row[0], "approved", person)
        assert refused.value.code == "self_approval_refused"
    assert queue.one("SELECT count(*) FROM approval_votes WHERE approval_id = %s", row[0]) == (0,)
    assert decide(queue, row[0], "approved", "ann").outcome == "approved"

    _, allowed_run = asyncio.run(started_by_dee(True))
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    allowed = queue.one("SELECT id FROM approvals WHERE run_id = %s", allowed_run)
    assert allowed is not None
    assert decide(queue, allowed[0], "approved", "dee").outcome == "approved"
