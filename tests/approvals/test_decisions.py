"""Approval pauses through the queue: a decision resumes the run once; a deadline applies on_timeout."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import psycopg
import pytest

from backend.approvals.decisions import ApprovalDecisions, Decision, DecisionRefused
from backend.approvals.queue_port import ApprovalsPort
from backend.people.accounts import Grant, add_user
from tests.support import Queue, flow


def approval_flow(**config: Any) -> dict[str, Any]:
    ask = {
        "id": "ask",
        "type": "approval",
        "config": {"title": "Pay {{trigger.id}}?", "approvers": [], **config},
    }
    return flow(
        "start:trigger",
        ask,
        {"id": "yes", "type": "log", "config": {"message": "approved"}},
        {"id": "no", "type": "log", "config": {"message": "rejected"}},
        {"id": "after", "type": "log", "config": {"message": "after"}},
        wires=[
            {"from": "start", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "yes"},
            {"from": "ask", "port": "reject", "to": "no"},
            {"from": "start", "to": "after"},
        ],
    )


def decide(queue: Queue, approval_id: int, outcome: str, by: str) -> Decision:
    return queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(conn, approval_id, outcome, by=by, comment=None)
    )


def user(queue: Queue, name: str, *grants: str, groups: tuple[str, ...] = ()) -> str:
    queue.aconn(
        lambda conn: add_user(conn, name, grants=[Grant.parse(g) for g in grants], groups=list(groups))
    )
    return name


def visited(queue: Queue, run_id: int) -> list[str]:
    rows = queue.all(
        "SELECT node FROM journal WHERE run_id = %s AND code = 'node_visited' ORDER BY seq", run_id
    )
    return [r[0] for r in rows]


def test_a_decision_resumes_the_run_once_and_the_first_decision_wins(queue: Queue) -> None:
    run_id = queue.start(queue.save(approval_flow()), input={"id": "A-7"})
    queue.drain()
    row = queue.one("SELECT id, title, outcome FROM approvals WHERE run_id = %s", run_id)
    assert row is not None and row[1:] == ("Pay A-7?", None)
    wait = queue.one("SELECT kind, wake_at = 'infinity' FROM waits WHERE run_id = %s", run_id)
    assert wait == ("approval", True), "no deadline: waits for a decision forever"

    ann, bob = user(queue, "ann", "decide"), user(queue, "bob", "decide")
    first = decide(queue, row[0], "approved", ann)
    with pytest.raises(DecisionRefused) as second:
        decide(queue, row[0], "rejected", bob)
    assert (first.outcome, first.decided_by) == ("approved", "ann")
    assert second.value.code == "approval_already_decided"
    assert second.value.standing == first

    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert visited(queue, run_id) == ["start", "ask", "yes", "after"]
    assert queue.one("SELECT decided_by FROM approvals WHERE id = %s", row[0]) == ("ann",)


@pytest.mark.parametrize(
    ("on_timeout", "outcome", "path"),
    [
        ("approve", "timed_out_approved", ["start", "ask", "yes", "after"]),
        ("reject", "timed_out_rejected", ["start", "ask", "no", "after"]),
        ("skip", "skipped", ["start", "ask", "after"]),
    ],
)
def test_a_deadline_applies_on_timeout(queue: Queue, on_timeout: str, outcome: str, path: list[str]) -> None:
    run_id = queue.start(queue.save(approval_flow(deadline="P2D", on_timeout=on_timeout)))
    queue.drain()
    queue.clock.advance(timedelta(days=2))
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.one("SELECT outcome FROM approvals WHERE run_id = %s", run_id) == (outcome,)
    assert visited(queue, run_id) == path
    if on_timeout == "skip":
        assert "approval_skipped" in queue.codes(run_id)


def test_a_decided_approval_cannot_be_changed_even_by_sql(queue: Queue) -> None:
    run_id = queue.start(queue.save(approval_flow()))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    decide(queue, row[0], "rejected", user(queue, "cid", "decide"))
    with psycopg.connect(queue.url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("UPDATE approvals SET outcome = 'approved' WHERE id = %s", (row[0],))
    with psycopg.connect(queue.url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("DELETE FROM approvals WHERE id = %s", (row[0],))
    assert queue.one("SELECT outcome FROM approvals WHERE id = %s", row[0]) == ("rejected",)


def test_a_run_cancelled_while_its_deadline_wait_is_claimed_goes_no_further(queue: Queue) -> None:
    """The cancel lands between the claim and the resolution: the walk must not take on_timeout."""
    from backend.queue.claims import ClaimLost
    from backend.queue.commands import open_pool
    from backend.queue.runs import cancel_run
    from tests.queue.test_runs import _claim

    run_id = queue.start(queue.save(approval_flow(deadline="PT1H", on_timeout="approve")))
    queue.drain()
    queue.clock.advance(timedelta(hours=1))

    async def go() -> None:
        pool = open_pool(queue.url, size=3)
        await pool.open()
        try:
            claim = await _claim(pool, "w", queue.clock(), timedelta(seconds=30))
            async with pool.connection() as conn:
                assert await cancel_run(conn, run_id, by="ann", approvals=ApprovalsPort())
                with pytest.raises(ClaimLost):
                    await ApprovalsPort(queue.clock).resolution(conn, claim)
        finally:
            await pool.close()

    asyncio.run(go())
    assert queue.status(run_id) == ("cancelled", None)
    assert queue.one("SELECT outcome, decided_by FROM approvals WHERE run_id = %s", run_id) == (
        "cancelled",
        "ann",
    )
    assert "yes" not in visited(queue, run_id)


def test_a_run_that_fails_while_it_waits_closes_its_open_approval(queue: Queue) -> None:
    run_id = queue.start(queue.save(approval_flow(deadline="PT1H", on_timeout="approve")))
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        # Its deadline has come, and every earlier claim of the wait died without a word.
        conn.execute("UPDATE waits SET attempts = 5, wake_at = now() WHERE run_id = %s", (run_id,))
    queue.drain()
    # It stops, its approval still open: a person may yet resume it. Ended, the approval closes.
    assert queue.status(run_id) == ("stopped", "claim_abandoned")
    assert queue.one("SELECT outcome FROM approvals WHERE run_id = %s", run_id) == (None,)
    queue.run(lambda: _end(queue.url, run_id))
    assert queue.status(run_id) == ("failed", "run_ended_by_person")
    assert queue.one("SELECT outcome, decided_by FROM approvals WHERE run_id = %s", run_id) == (
        "run_failed",
        None,
    )


async def _end(url: str, run_id: int) -> None:
    from backend.queue.stops import end_run

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await end_run(conn, run_id, by="ann", approvals=ApprovalsPort())
