"""Each NOTIFY has one owner among the live workers (backend/queue/wakes.py): the workers learn each other
when they start and stop, and a run whose owner is listed but dead is still resumed, by another worker's
own round."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from backend.approvals.decisions import ApprovalDecisions
from backend.approvals.queue_port import ApprovalsPort
from backend.people.accounts import Grant, add_user
from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from tests.queue.test_claim_reads import asking
from tests.support import Queue

# Bounds for what a slow, shared machine does in well under a second: the outcome is what is asserted.
PATIENCE_S = 60.0


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait, looking every 20 ms, until `condition` holds; fail after PATIENCE_S."""
    async with asyncio.timeout(PATIENCE_S):
        while not condition():
            await asyncio.sleep(0.02)
    assert condition(), what


def test_workers_learn_each_other_when_they_start_and_forget_one_that_stops(queue: Queue) -> None:
    async def go() -> None:
        pool = open_pool(queue.url, size=6)
        await pool.open()
        first = Worker(pool, approvals=ApprovalsPort(), name="wakes-a")
        second = Worker(pool, approvals=ApprovalsPort(), name="wakes-b")
        stop_first, stop_second = asyncio.Event(), asyncio.Event()
        running = [asyncio.create_task(first.run(stop_first)), asyncio.create_task(second.run(stop_second))]
        try:
            both = ("wakes-a", "wakes-b")
            await until(lambda: first._wakes.peers == both == second._wakes.peers, "both know both")
            stop_second.set()
            await running[1]
            await until(lambda: first._wakes.peers == ("wakes-a",), "the one left knows it is alone")
        finally:
            stop_first.set()
            stop_second.set()
            await asyncio.gather(*running)
            await pool.close()

    queue.run(go)
    assert queue.all("SELECT name FROM workers WHERE name LIKE 'wakes-%%'") == []


def test_a_decision_whose_owner_is_listed_but_dead_is_resumed_by_a_live_worker(queue: Queue) -> None:
    flow_id = queue.save(asking())
    runs = [queue.start(flow_id) for _ in range(4)]
    queue.drain()  # each parked at its approval
    queue.aconn(lambda conn: add_user(conn, "dee", grants=[Grant.parse("decide")]))
    # A worker that died without a word, its heartbeat fresh for the whole test: it owns the odd runs.
    queue.one(
        "INSERT INTO workers (name, concurrency, heartbeat_at)"
        " VALUES ('wakes-z', 10, now() + interval '1 day') RETURNING 1"
    )
    ownerless = [run for run in runs if run % 2 == 1]
    assert ownerless, "two of four consecutive runs are odd"

    async def go() -> None:
        pool = open_pool(queue.url, size=6)
        await pool.open()
        live = Worker(pool, approvals=ApprovalsPort(), name="wakes-a")
        stop = asyncio.Event()
        running = asyncio.create_task(live.run(stop))
        try:
            await until(lambda: live._wakes.peers == ("wakes-a", "wakes-z"), "the dead worker is listed")
            assert [live._wakes.owns(str(run)) for run in ownerless] == [False] * len(ownerless)
            async with pool.connection() as conn:
                for run in ownerless:
                    approval = await (
                        await conn.execute("SELECT id FROM approvals WHERE run_id = %s", (run,))
                    ).fetchone()
                    assert approval is not None
                    await ApprovalDecisions().decide(conn, approval[0], "approved", by="dee", comment=None)
            ended = "SELECT count(*) FROM runs WHERE id = ANY(%s) AND status = 'succeeded'"

            async def resumed() -> int:
                async with pool.connection() as conn:
                    row = await (await conn.execute(ended, (ownerless,))).fetchone()
                    return int(row[0]) if row else 0

            async with asyncio.timeout(PATIENCE_S):
                while await resumed() < len(ownerless):
                    await asyncio.sleep(0.05)
        finally:
            stop.set()
            await running
            await pool.close()

    queue.run(go)
    assert queue.codes(ownerless[0])[-1] == "run_succeeded"
