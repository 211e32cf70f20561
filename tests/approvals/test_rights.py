"""Deciding is a right of its own, and a named approver list narrows who holds it for one approval."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from backend.approvals.decisions import ApprovalDecisions, Decision, DecisionRefused
from tests.approvals.test_decisions import approval_flow, decide, user, visited
from tests.support import Queue, flow


def ask(queue: Queue, document: dict[str, Any]) -> tuple[int, int]:
    run_id = queue.start(queue.save(document))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    return run_id, row[0]


def refused(queue: Queue, approval_id: int, by: str, outcome: str = "approved") -> DecisionRefused:
    with pytest.raises(DecisionRefused) as caught:
        decide(queue, approval_id, outcome, by)
    return caught.value


def test_an_editor_without_the_decide_right_is_refused(queue: Queue) -> None:
    run_id, approval_id = ask(queue, approval_flow())
    author = user(queue, "author", "edit", "run", "audit", "admin")
    assert refused(queue, approval_id, author).code == "decide_right_missing"
    assert queue.one("SELECT outcome FROM approvals WHERE id = %s", approval_id) == (None,)
    assert queue.status(run_id) == ("waiting", None)


def test_the_decide_right_on_another_flow_does_not_count(queue: Queue) -> None:
    other = queue.save(approval_flow())
    _, approval_id = ask(queue, approval_flow())
    elsewhere = user(queue, "elsewhere", f"decide:{other}")
    assert refused(queue, approval_id, elsewhere).code == "decide_right_missing"


def test_a_decider_not_among_the_named_approvers_is_refused(queue: Queue) -> None:
    _, approval_id = ask(queue, approval_flow(approvers=["group:finance", "user:boss"]))
    outsider = user(queue, "outsider", "decide")
    finance = user(queue, "fin", "decide", groups=("finance",))
    boss = user(queue, "boss", "decide")
    assert refused(queue, approval_id, outsider).code == "approver_not_named"
    assert decide(queue, approval_id, "rejected", finance).outcome == "rejected"
    assert refused(queue, approval_id, boss).code == "approval_already_decided"


def test_an_outcome_other_than_approve_or_reject_and_an_unknown_approval_are_refused(queue: Queue) -> None:
    _, approval_id = ask(queue, approval_flow())
    who = user(queue, "who", "decide")
    assert refused(queue, approval_id, who, outcome="skipped").code == "decision_outcome_invalid"
    assert refused(queue, 10**9, who).code == "approval_not_found"


def test_ten_concurrent_decisions_one_stands_and_the_run_resumes_once(queue: Queue) -> None:
    run_id, approval_id = ask(queue, approval_flow())
    deciders = [user(queue, f"d{i}", "decide") for i in range(10)]

    async def one(name: str, outcome: str) -> Decision | str:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            try:
                return await ApprovalDecisions(queue.clock).decide(
                    conn, approval_id, outcome, by=name, comment=name
                )
            except DecisionRefused as refusal:
                return refusal.code

    async def all_at_once() -> list[Decision | str]:
        outcomes = ["approved", "rejected"]
        return list(await asyncio.gather(*(one(n, outcomes[i % 2]) for i, n in enumerate(deciders))))

    results = asyncio.run(all_at_once())
    taken = [r for r in results if isinstance(r, Decision)]
    assert len(taken) == 1
    assert sorted(r for r in results if isinstance(r, str)) == ["approval_already_decided"] * 9
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    branch = "yes" if taken[0].outcome == "approved" else "no"
    assert visited(queue, run_id) == ["start", "ask", branch, "after"]
    assert queue.codes(run_id).count("wait_claimed") == 1


def test_an_approval_in_a_three_pass_foreach_asks_three_times_independently(queue: Queue) -> None:
    looped = flow(
        "start:trigger",
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.invoices}}", "as": "invoice"}},
        {"id": "ask", "type": "approval", "config": {"title": "Pay {{invoice}}?", "approvers": []}},
        {"id": "paid", "type": "log", "config": {"message": "paid {{invoice}}"}},
        wires=[
            {"from": "start", "to": "each"},
            {"from": "each", "port": "body", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "paid"},
        ],
    )
    run_id = queue.start(queue.save(looped), input={"invoices": ["A", "B", "C"]})
    who = user(queue, "payer", "decide")
    outcomes = {"A": "approved", "B": "rejected", "C": "approved"}
    for _ in range(3):
        queue.drain()
        open_ = queue.all("SELECT id, title FROM approvals WHERE run_id = %s AND outcome IS NULL", run_id)
        assert len(open_) == 1, "one open approval per pass"
        approval_id, title = open_[0]
        decide(queue, approval_id, outcomes[title[4]], who)
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    rows = queue.all("SELECT title, outcome, visit FROM approvals WHERE run_id = %s ORDER BY id", run_id)
    assert [(t, o) for t, o, _ in rows] == [
        ("Pay A?", "approved"),
        ("Pay B?", "rejected"),
        ("Pay C?", "approved"),
    ]
    assert len({v for _, _, v in rows}) == 3
    paid = queue.all(
        "SELECT data->>'message' FROM journal WHERE run_id = %s AND code = 'log_written'", run_id
    )
    assert paid == [("paid A",), ("paid C",)]
