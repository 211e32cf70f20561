"""A live worker never loses a claim: the renewal of its leases never waits for a lock.

The worker renews every claim it holds in one statement, those whose outcome its batch writer is writing
at that moment included. The statement used to update the rows as it found them: it waited for any row
another transaction held (the batch writer's, a decision's), holding back the renewal of every other
claim in hand, and could deadlock with the batch writer (both lock the same rows, in different orders);
with a short lease, every claim the worker held could lapse while it was still walking them. And the
renewal queued for a connection of the pool behind the walks and writes.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import psycopg
from psycopg import AsyncConnection

from backend.approvals.queue_port import ApprovalsPort
from backend.faults import Faults
from backend.queue.commands import open_pool
from backend.queue.queries import QUERIES
from backend.queue.store import claim_due
from backend.queue.worker import Worker
from tests.support import Queue, flow

LOG_FLOW = flow("start:trigger", {"id": "a", "type": "log", "config": {"message": "one"}}, wires=[])


def test_a_renewal_skips_a_claim_another_transaction_holds_and_renews_the_rest_at_once(queue: Queue) -> None:
    flow_id = queue.save(LOG_FLOW)
    for _ in range(3):
        queue.start(flow_id)

    async def go(conn: AsyncConnection) -> set[int]:
        claims = await claim_due(conn, "me", 10, None, timedelta(seconds=30))
        assert len(claims) == 3
        held = claims[1].wait_id
        params = {
            "wait_ids": [claim.wait_id for claim in claims],
            "claim_attempts": [claim.attempts for claim in claims],
            "me": "me",
            "lease": timedelta(minutes=10),
            "now": None,
        }
        # The batch writer in the middle of writing one of them: its row is locked until it commits.
        async with await AsyncConnection.connect(queue.url) as writer:
            await writer.execute("SELECT id FROM waits WHERE id = %s FOR UPDATE", (held,))
            # A renewal that waits for that lock fails here instead of hanging the test.
            await conn.execute("SET lock_timeout = '5s'")
            renewed = {
                row[0] for row in await (await conn.execute(QUERIES["renew_claims"], params)).fetchall()
            }
            await writer.rollback()
        assert renewed == {claim.wait_id for claim in claims} - {held}
        return renewed

    renewed = queue.aconn(go)
    with psycopg.connect(queue.url) as conn:
        rows = conn.execute(
            "SELECT id, claim_expires_at > now() + interval '5 minutes' FROM waits ORDER BY id"
        ).fetchall()
    assert {wait_id for wait_id, long in rows if long} == renewed, "the others' leases were extended"


class HoldBeforeOutcome(Faults):
    """The walk done, its outcome not yet handed to the writer: held there until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.reached, self.go_on = asyncio.Event(), asyncio.Event()

    async def reach(self, point: str) -> None:
        if point == "before_outcome":
            self.reached.set()
            await self.go_on.wait()


def test_a_worker_renews_its_claims_while_its_pool_is_busy(queue: Queue) -> None:
    """Walks, outcome writes, the claim round and the heartbeat share the pool; a renewal that queued for a
    connection behind them, for two thirds of a lease, lost every claim the worker held. It has a
    connection of its own."""
    run_id = queue.start(queue.save(LOG_FLOW))
    faults = HoldBeforeOutcome()
    lease = timedelta(seconds=1.5)

    async def go() -> bool:
        # The test's own trigger says when the wait's lease moves: the renewal itself is the sync. Made
        # before the worker starts, whose open transaction the trigger's creation would wait behind.
        async with await AsyncConnection.connect(queue.url, autocommit=True) as conn:
            await conn.execute(RENEWED_TRIGGER)
        pool = open_pool(queue.url, size=2)
        await pool.open()
        stop = asyncio.Event()
        worker = Worker(pool, name="busy", lease=lease, approvals=ApprovalsPort(), faults=faults)
        running = asyncio.create_task(worker.run(stop))
        try:
            await asyncio.wait_for(faults.reached.wait(), 60)
            async with await AsyncConnection.connect(queue.url, autocommit=True) as watch:
                await watch.execute("LISTEN test_lease_renewed")
                first = await expiry(watch, run_id)
                taken = [await pool.getconn(), await pool.getconn()]  # every connection of the pool
                renewed = False
                async for _ in watch.notifies(timeout=4 * lease.total_seconds(), stop_after=1):
                    renewed = True  # the test's trigger said the lease moved forward
                renewed = renewed and await expiry(watch, run_id) > first
                for conn in taken:
                    await pool.putconn(conn)
        finally:
            faults.go_on.set()
            stop.set()
            await asyncio.wait_for(running, 60)
            await pool.close()
        return renewed

    assert asyncio.run(go()), "the lease was not renewed while the pool was busy"
    assert queue.status(run_id) == ("succeeded", None)


RENEWED_TRIGGER = """
CREATE OR REPLACE FUNCTION test_lease_renewed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('test_lease_renewed', NEW.id::text);
    RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER test_lease_renewed AFTER UPDATE OF claim_expires_at ON waits
    FOR EACH ROW WHEN (NEW.claim_expires_at > OLD.claim_expires_at) EXECUTE FUNCTION test_lease_renewed();
"""


async def expiry(conn: AsyncConnection, run_id: int) -> datetime:
    row = await (
        await conn.execute("SELECT claim_expires_at FROM waits WHERE run_id = %s", (run_id,))
    ).fetchone()
    assert row is not None and isinstance(row[0], datetime)
    return row[0]
