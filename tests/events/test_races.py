"""Each event is consumed once, whatever races: posts against posts, and posts against runs parking at
the node in two workers at once (the (name, key) lock of backend/events/store.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg

from backend.approvals.queue_port import ApprovalsPort
from backend.events.service import Delivery, deliver
from backend.events.wake import parked
from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from backend.walker import EventRequest
from tests.events.support import KEEP, LIMIT, logged, waiting_flow
from tests.support import Queue


async def _post(url: str, key: str, amount: int) -> Delivery:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        return await _post_on(conn, key, amount)


async def _post_on(conn: psycopg.AsyncConnection[Any], key: str, amount: int) -> Delivery:
    return await deliver(
        conn, "paid", key, {"amount": amount}, keep=KEEP, max_payload_bytes=LIMIT, sent_by="race"
    )


def _told_waiting(notice: psycopg.errors.Diagnostic, waiting: asyncio.Event) -> None:
    """Set `waiting` at the server's line saying this connection waits for an advisory lock."""
    message = notice.message_primary or ""
    if "still waiting" in message and "advisory lock" in message:
        waiting.set()


def test_two_posts_racing_for_one_waiting_run_are_delivered_once(queue: Queue) -> None:
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

    async def race() -> None:
        pools = [open_pool(queue.url, size=4) for _ in range(2)]
        for pool in pools:
            await pool.open()
        try:

            async def work(pool: Any, name: str) -> None:
                worker = Worker(pool, clock=queue.clock, name=name, approvals=ApprovalsPort(queue.clock))
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
            async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as posting:
                # The server tells the post when it waits for a lock: with log_lock_waits, a wait longer
                # than deadlock_timeout is logged, and at client_min_messages = log that line comes to
                # the post's connection as a notice.
                waiting = asyncio.Event()
                posting.add_notice_handler(lambda notice: _told_waiting(notice, waiting))
                await posting.execute(
                    "SET lc_messages = 'C'; SET log_lock_waits = on; SET client_min_messages = log;"
                    " SET deadlock_timeout = '50ms'"
                )
                post = asyncio.create_task(_post_on(posting, "P-1", 1))
                heard = asyncio.create_task(waiting.wait())
                await asyncio.wait({post, heard}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
                blocked = waiting.is_set() and not post.done()
                heard.cancel()
                await parking.commit()
                return blocked, await post

    blocked, delivery = queue.run(interleave)
    assert blocked, "the post went ahead of a park of its own name and key"
    assert delivery.delivered
    row = queue.one("SELECT event_name, payload FROM event_waits WHERE run_id = %s AND visit = 2", run_id)
    assert row == ("paid", {"amount": 1})
