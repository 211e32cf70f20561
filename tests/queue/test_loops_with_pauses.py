"""Loops whose bodies pause, through the real queue: each stretch is walked by a fresh worker.

The pure walker's tests prove the walk; these prove that a loop's state survives being a row between
workers: a repeat with an approval in its body and a break on reject, and a foreach whose body waits.
"""

from __future__ import annotations

from datetime import timedelta

from tests.approvals.test_decisions import decide, user, visited
from tests.support import Queue, flow

ALWAYS = {"left": "{{trigger.go}}", "op": "eq", "right": 1}
REPEAT_UNTIL_REJECTED = flow(
    "start:trigger",
    {"id": "again", "type": "repeat", "config": {"while": ALWAYS}},
    {"id": "ask", "type": "approval", "config": {"title": "Once more?", "approvers": []}},
    {"id": "yes", "type": "log", "config": {"message": "once more"}},
    {"id": "stop", "type": "break", "config": {}},
    {"id": "after", "type": "log", "config": {"message": "left the loop"}},
    wires=[
        {"from": "start", "to": "again"},
        {"from": "again", "port": "body", "to": "ask"},
        {"from": "ask", "port": "approve", "to": "yes"},
        {"from": "ask", "port": "reject", "to": "stop"},
        {"from": "again", "port": "done", "to": "after"},
    ],
)

EACH_LINE_WAITS = flow(
    "start:trigger",
    {"id": "each", "type": "foreach", "config": {"items": "{{trigger.lines}}", "as": "line"}},
    {"id": "pause", "type": "delay", "config": {"duration": "PT1H"}},
    {"id": "note", "type": "log", "config": {"message": "line {{line}}"}},
    {"id": "after", "type": "log", "config": {"message": "all lines"}},
    wires=[
        {"from": "start", "to": "each"},
        {"from": "each", "port": "body", "to": "pause"},
        {"from": "pause", "to": "note"},
        {"from": "each", "port": "done", "to": "after"},
    ],
)


def _open_approval(queue: Queue, run_id: int) -> int:
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s AND outcome IS NULL", run_id)
    assert row is not None, "the run is not waiting at an approval"
    return int(row[0])


def test_a_repeat_with_an_approval_runs_until_a_reject_breaks_it(queue: Queue) -> None:
    approver = user(queue, "loop_approver", "decide")
    run_id = queue.start(queue.save(REPEAT_UNTIL_REJECTED), input={"go": 1})
    queue.drain()

    for outcome in ("approved", "approved", "rejected"):
        assert queue.status(run_id) == ("waiting", None)
        decide(queue, _open_approval(queue, run_id), outcome, by=approver)
        queue.drain()

    assert queue.status(run_id) == ("succeeded", None)
    assert visited(queue, run_id) == ["start", "again", "ask", "yes", "ask", "yes", "ask", "stop", "after"]
    outcomes = queue.all("SELECT outcome FROM approvals WHERE run_id = %s ORDER BY id", run_id)
    assert [row[0] for row in outcomes] == ["approved", "approved", "rejected"]
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)


def test_a_foreach_whose_body_waits_goes_on_with_the_right_item_after_each_delay(queue: Queue) -> None:
    run_id = queue.start(queue.save(EACH_LINE_WAITS), input={"lines": ["a", "b", "c"]})
    queue.drain()

    for _ in range(3):
        assert queue.status(run_id) == ("waiting", None)
        queue.clock.advance(timedelta(hours=1))
        queue.drain()

    assert queue.status(run_id) == ("succeeded", None)
    assert visited(queue, run_id) == ["start", "each", *["pause", "note"] * 3, "after"]
    notes = queue.all(
        "SELECT data->>'message' FROM journal WHERE run_id = %s AND node = 'note' AND code = 'log_written'"
        " ORDER BY seq",
        run_id,
    )
    assert [row[0] for row in notes] == ["line a", "line b", "line c"]
