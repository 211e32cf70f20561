"""A connection killed under a walk or under the write of its outcome costs the claim nothing.

Before, a worker whose connection died mid-walk or mid-write gave the claim up to its lease: the next claim
counted one more attempt, and a run whose claims met five such blips stopped with `claim_abandoned`
though nothing of its own had failed (the busy drain with connections killed at random,
tests/crashes/test_database_away.py, did that once in a loaded CI run). Now the worker does the step
again under the same claim once the database answers.

The test kills every connection of the worker's pool at a fault point, from a connection of its own, and
lets the worker go on: its next statement meets a dead connection (psycopg learns of a killed idle
connection only when it next uses it).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from backend.approvals.queue_port import ApprovalsPort
from backend.faults import Faults
from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from tests.support import Queue, flow

APP = "flowyard-blip-test"
# The walk that meets the kill is a resume (its first journal line, wait_claimed, names its attempt).
STEPS = flow(
    "start:trigger",
    {"id": "pause", "type": "delay", "config": {"duration": "PT1M"}},
    {"id": "note", "type": "log", "config": {"message": "written once"}},
    wires=[{"from": "start", "to": "pause"}, {"from": "pause", "to": "note"}],
)


class KillAt(Faults):
    """At `point`, the first time it is reached: every backend of the worker's pool killed."""

    def __init__(self, url: str, point: str) -> None:
        super().__init__()
        self.url, self.point, self.left, self.killed = url, point, 1, 0

    async def reach(self, point: str) -> None:
        if point != self.point or self.left == 0:
            return
        self.left -= 1
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as killer:
            cur = await killer.execute(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (APP,),
            )
            row = await cur.fetchone()
        assert row is not None
        self.killed += row[0]


@pytest.mark.parametrize("point", ["after_claim", "before_outcome"])
def test_a_walk_or_write_whose_connections_are_killed_is_done_again_under_the_same_claim(
    queue: Queue, point: str
) -> None:
    run_id = queue.start(queue.save(STEPS))
    queue.drain()  # to the delay
    assert queue.status(run_id) == ("waiting", None)
    queue.clock.advance(timedelta(minutes=2))
    faults = KillAt(queue.url, point)

    async def go() -> None:
        # Two connections at most: the worker's claim, walk and write share them, and each is killed.
        pool = open_pool(make_conninfo(queue.url, application_name=APP), size=2)
        await pool.open()
        try:
            worker = Worker(
                pool,
                clock=queue.clock,
                name="blips",
                lease=timedelta(seconds=30),
                approvals=ApprovalsPort(queue.clock),
                faults=faults,
            )
            await worker.drain()
        finally:
            await pool.close()

    asyncio.run(go())

    assert faults.killed >= 1  # the fault did kill something the worker was holding
    assert queue.status(run_id) == ("succeeded", None)
    claimed = queue.all(
        "SELECT data -> 'attempt' FROM journal WHERE run_id = %s AND code = 'wait_claimed' ORDER BY seq",
        run_id,
    )
    assert claimed == [(1,)]  # claimed once: the blip cost no attempt, and no lease had to lapse
    assert queue.codes(run_id).count("log_written") == 1
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)


def test_a_worker_never_claims_again_a_wait_it_has_in_hand(queue: Queue) -> None:
    """A write whose commit landed but whose answer was lost re-parks the wait with its attempts at 0 while
    the worker, told the database went away, tries the write again. Were the worker to claim that wait
    anew meanwhile (attempts 1 again), the second try would pass the claim's guard and write the outcome
    twice: the claim statement leaves out the waits the worker has in hand."""
    from backend.queue.store import claim_due

    run_id = queue.start(queue.save(STEPS))
    row = queue.one("SELECT id FROM waits WHERE run_id = %s", run_id)
    assert row is not None
    wait_id = row[0]

    async def claim(conn: psycopg.AsyncConnection[Any], in_hand: list[int]) -> list[int]:
        claims = await claim_due(conn, "w", 10, queue.clock(), timedelta(seconds=30), in_hand=in_hand)
        return [c.wait_id for c in claims]

    assert queue.aconn(lambda conn: claim(conn, [wait_id])) == []
    assert queue.aconn(lambda conn: claim(conn, [])) == [wait_id]
