"""A parallel over items through the real queue: one approval row per item, all pending together, decided
through the approvals service in a shuffled order, the run going on once after the last (issue 24)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from backend.approvals.decisions import ApprovalDecisions, Decision
from backend.people.accounts import Grant, add_user
from tests.actions.support import drain
from tests.support import Queue, flow

LINES = flow(
    "start:trigger",
    {"id": "each", "type": "parallel", "config": {"items": "{{trigger.lines}}", "as": "line"}},
    {
        "id": "ask",
        "type": "approval",
        "config": {"title": "Line {{line}}?", "explanation": "", "approvers": ["group:staff"]},
    },
    {"id": "said", "type": "log", "config": {"message": "{{line}}: {{ask.outcome}} by {{ask.decided_by}}"}},
    {"id": "after", "type": "log", "config": {"message": "after [{{line}}]"}},
    wires="start>each each.branches>ask ask.approve>said ask.reject>said each.done>after",
)
ITEMS = ["a", "b", "c"]
DECIDERS = {"a": "ann", "b": "ben", "c": "cat"}


def staff(queue: Queue) -> None:
    async def add(conn: Any) -> None:
        if await (await conn.execute("SELECT 1 FROM users WHERE name = 'ann'")).fetchone():
            return
        for name in DECIDERS.values():
            await add_user(
                conn, name, grants=[Grant.parse("decide")], groups=["staff"], email=f"{name}@x.test"
            )

    queue.aconn(add)


def walk(queue: Queue) -> None:
    queue.clock.advance(timedelta(seconds=10))
    drain(queue)


def decide(queue: Queue, approval_id: int, outcome: str, by: str) -> Decision:
    return queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(conn, approval_id, outcome, by=by, comment=None)
    )


def logged(queue: Queue, run_id: int) -> list[str]:
    rows = queue.all(
        "SELECT data ->> 'message' FROM journal WHERE run_id = %s AND code = 'log_written' ORDER BY seq",
        run_id,
    )
    return [row[0] for row in rows]


# Orders other than the items' own: the last item first, the middle one first, the first one first.
@pytest.mark.parametrize("decided", ["cab", "bca", "acb"])
def test_three_item_approvals_are_pending_together_and_the_run_goes_on_once_after_all(
    queue: Queue, decided: str
) -> None:
    staff(queue)
    run_id = queue.start(queue.save(LINES), input={"lines": ITEMS})
    walk(queue)
    rows = queue.all(
        "SELECT id, visit, title, outcome FROM approvals WHERE run_id = %s ORDER BY visit", run_id
    )
    assert [(row[2], row[3]) for row in rows] == [("Line a?", None), ("Line b?", None), ("Line c?", None)]
    assert [row[1] for row in rows] == [3, 4, 5], "one row per item, told apart by visit"
    row = queue.one("SELECT pauses FROM waits WHERE run_id = %s", run_id)
    assert row is not None and sorted(row[0]) == ["ask@3", "ask@4", "ask@5"]

    by_item = dict(zip(ITEMS, rows, strict=True))
    order = [(item, by_item[item]) for item in decided]
    for turn, (item, approval) in enumerate(order):
        outcome = "rejected" if item == "b" else "approved"
        decide(queue, approval[0], outcome, DECIDERS[item])
        walk(queue)
        left = len(order) - turn - 1
        if left:
            assert queue.status(run_id) == ("waiting", None)
            open_rows = queue.one(
                "SELECT count(*) FROM approvals WHERE run_id = %s AND outcome IS NULL", run_id
            )
            assert open_rows == (left,)
            assert "after []" not in logged(queue, run_id)
    assert queue.status(run_id) == ("succeeded", None)
    said = logged(queue, run_id)
    assert said[-1] == "after []" and said.count("after []") == 1
    expected = [
        f"{item}: {'rejected' if item == 'b' else 'approved'} by {DECIDERS[item]}" for item, _ in order
    ]
    assert said[:-1] == expected, "each branch saw its own item and its own decision, in the order decided"
    assert queue.codes(run_id).count("parallel_finished") == 1
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
