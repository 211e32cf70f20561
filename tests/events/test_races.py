"""Each event is consumed once, whatever races: posts against posts, and posts against runs parking at
the node in two workers at once (the (name, key) lock of backend/events/store.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg

from backend.approvals.service import ApprovalService
from backend.events.service import Delivery, deliver
from backend.events.wake import parked
from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from backend.walker import EventRequest
from tests.events.support import KEEP, LIMIT, logged, waiting_flow
from tests.support import Queue


async def _post(url: str, key: str, amount: int) -> Delivery:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        return await deliver(
            conn, "paid", key, {"amount": amount}, keep=KEEP, max_payload_bytes=LIMIT, sent_by="race"
        )


def test_two_posts_racing_for_one_waiting_run_are_delivered_once(queue: Queue) -> None:
    queue.clock.catch_up(queue.url)
    run_id = queue.start(queue.save(waiting_flow()), input={"order": "R-1"})
    queue.drain()

    async def race() -> list[Delivery]:
        return list(await asyncio.gather(*(_post(queue.url, "R-1", n) for n in range(8))))

    deliveries = queue.run(race)
    assert sum(d.delivered for d in deliveries) == 1
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.one("SELECT count(*) FROM events WHERE key = 'R-1' AND consumed_run IS NOT NULL") == (1,)
    assert len(logged(queue, run_id)) == 1


def test_posts_racing_runs_that_park_in_two_workers_each_consume_exactly_one_event(queue: Queue) -> None:
    runs = 12
    flow_id = queue.save(waiting_flow(timeout=None))
    run_ids = [queue.start(flow_id, input={"order": "SAME"}) for _ in range(runs)]
    queue.clock.catch_up(queue.url)

    async def race() -> None:
        pools = [open_pool(queue.url, size=4) for _ in range(2)]
        for pool in pools:
            await pool.open()
        try:

            async def work(pool: Any, name: str) -> None:
                worker = Worker(pool, clock=queue.clock, name=name, approvals=ApprovalService(queue.clock))
                await worker.drain()

            await asyncio.gather(
                work(pools[0], "w1"),
                work(pools[1], "w2"),
                *(_post(queue.url, "SAME", n) for n in range(runs)),
            )
        finally:
            for pool in pools:
                await pool.close()

    queue.run(race)
    queue.drain()  # the runs an event woke after both workers had finished
    consumed = queue.all("SELECT consumed_run FROM events WHERE key = 'SAME'")
    assert len(consumed) == runs
    assert sorted(row[0] for row in consumed) == sorted(run_ids), "every event to one run, every run one"
    for run_id in run_ids:
        assert queue.status(run_id) == ("succeeded", None)
        assert len(logged(queue, run_id)) == 1


def test_an_event_posted_while_a_run_parks_waits_for_the_park_and_is_delivered_to_it(queue: Queue) -> None:
    """The one interleaving that would lose an event without the lock: the park has looked for kept
    events and found none, and has not committed; the post must not decide "kept" before it does."""
    run_id = queue.start(queue.save(waiting_flow(timeout=None)), input={"order": "P-1"})

    async def interleave() -> tuple[bool, Delivery]:
        async with await psycopg.AsyncConnection.connect(queue.url) as parking:
            request = EventRequest("wait", 2, ["paid"], "P-1", None, None)
            await parked(parking, [(run_id, request)], None)  # registered, nothing taken, not committed
            post = asyncio.create_task(_post(queue.url, "P-1", 1))
            async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as watch:
                while not post.done():  # until the post is seen waiting for the park's lock (or is done)
                    cur = await watch.execute(
                        # This database's only: another test process's lock on the same server
                        # (pytest-xdist) would pass for the post's, and the test would prove nothing.
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    )
                    row = await cur.fetchone()
                    if row is not None and row[0]:
                        break
                    await asyncio.sleep(0.01)
            blocked = not post.done()
            await parking.commit()
            return blocked, await post

    blocked, delivery = queue.run(interleave)
    assert blocked, "the post went ahead of a park of its own name and key"
    assert delivery.delivered
    row = queue.one("SELECT event_name, payload FROM event_waits WHERE run_id = %s AND visit = 2", run_id)
    assert row == ("paid", {"amount": 1})
