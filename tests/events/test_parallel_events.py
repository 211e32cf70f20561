"""wait_event inside a parallel: an event answers its own branch's pause while the other branch waits on,
and a branch cancelled by its parallel's wait rule takes no event afterwards (docs/events.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.events.support import KEEP, LIMIT, drain, logged, post
from tests.support import Queue, flow


def _parallel(wait: str) -> dict[str, Any]:
    """trigger -> parallel(wait) with a branch waiting for `paid` and one waiting an hour -> done."""
    nodes = [
        {"id": "both", "type": "parallel", "config": {"wait": wait}},
        {
            "id": "wait",
            "type": "wait_event",
            "config": {"events": ["paid"], "key": "{{trigger.order}}", "timeout": "P2D"},
        },
        {"id": "on_paid", "type": "log", "config": {"message": "paid {{wait.amount}}"}},
        {"id": "on_timeout", "type": "log", "config": {"message": "timeout"}},
        {"id": "later", "type": "delay", "config": {"duration": "PT1H"}},
        {"id": "on_later", "type": "log", "config": {"message": "an hour"}},
        {"id": "done", "type": "log", "config": {"message": "done"}},
    ]
    wires = [
        {"from": "start", "to": "both"},
        {"from": "both", "port": "branches", "to": "wait"},
        {"from": "both", "port": "branches", "to": "later"},
        {"from": "wait", "port": "paid", "to": "on_paid"},
        {"from": "wait", "port": "timeout", "to": "on_timeout"},
        {"from": "later", "to": "on_later"},
        {"from": "both", "port": "done", "to": "done"},
    ]
    return flow("start:trigger", *nodes, wires=wires)


def test_an_event_resumes_its_branch_while_the_other_branch_still_waits(queue: Queue) -> None:
    run_id = queue.start(queue.save(_parallel("all")), input={"order": "P-1"})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)

    assert post(queue, "paid", "P-1", {"amount": 7}).delivered
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)  # the hour has not passed
    assert logged(queue, run_id) == ["paid 7"]

    queue.clock.advance(timedelta(hours=1, minutes=1))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["paid 7", "an hour", "done"]


def test_a_branch_cancelled_by_wait_first_takes_no_event_afterwards(queue: Queue) -> None:
    run_id = queue.start(queue.save(_parallel("first")), input={"order": "P-2"})
    drain(queue)
    queue.clock.advance(timedelta(hours=1, minutes=1))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["an hour", "done"]
    assert queue.one("SELECT count(*) FROM event_waits WHERE run_id = %s", run_id) == (0,)

    late = post(queue, "paid", "P-2", {"amount": 1})
    assert not late.delivered  # kept for a run that may still ask, not given to the cancelled branch
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", late.event_id) == (None,)


def test_an_event_posted_while_the_other_branch_is_walked_is_not_lost_when_the_walk_parks(
    queue: Queue,
) -> None:
    """The delivery answers the pause of a claimed wait but cannot make the wait due; the walk's park
    writes the pauses over it, and then makes the answered pause due now (`wake_pauses`, queue/store.py)."""
    from backend.approvals.queue_port import ApprovalsPort
    from backend.events.service import deliver
    from backend.queue.commands import open_pool
    from backend.queue.driver import walk_claim
    from backend.queue.events import with_events
    from backend.queue.flow_cache import FlowCache, load_run
    from backend.queue.ports import NoActions
    from backend.queue.settle import Outcome, settle
    from tests.queue.test_runs import _always_ours, _claim

    run_id = queue.start(queue.save(_parallel("all")), input={"order": "P-3"})
    drain(queue)
    queue.clock.advance(timedelta(hours=1, minutes=1))  # the hour is due; no event yet
    approvals = with_events(ApprovalsPort(queue.clock), queue.clock)

    async def go() -> bool:
        pool = open_pool(queue.url, size=4)
        await pool.open()
        try:
            claim = await _claim(pool, "w", queue.clock(), timedelta(seconds=30))
            run = await load_run(pool, claim, FlowCache())
            walked = await walk_claim(
                pool, claim, run, NoActions(), approvals, _always_ours, now=queue.clock()
            )
            async with pool.connection() as conn:
                paid = {"amount": 9}
                delivery = await deliver(
                    conn,
                    "paid",
                    "P-3",
                    paid,
                    keep=KEEP,
                    max_payload_bytes=LIMIT,
                    sent_by="t",
                    now=queue.clock(),
                )
                async with conn.transaction():
                    settled = await settle(conn, "w", [Outcome(claim, run, walked, queue.clock())], approvals)
                assert settled.waits == {claim.wait_id}
            return delivery.delivered
        finally:
            await pool.close()

    assert queue.run(go), "the event answers the claimed run's pause"
    row = queue.one("SELECT pauses, wake_at <= %s FROM waits WHERE run_id = %s", queue.clock.now, run_id)
    assert row is not None
    pending, due_now = row
    assert [pause["node"] for pause in pending.values()] == ["wait"]
    assert due_now, "the answered pause is due now, not at its timeout"
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["an hour", "paid 9", "done"]
