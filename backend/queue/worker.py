"""The worker: claim due waits, walk them, write each outcome under the claim.

One question drives it: which waits are due. It claims up to its free concurrency in one statement,
walks each claim in a task of its own, renews the leases of what it holds, and sleeps until a NOTIFY
says a wait became due now, a walk finishes, or the earliest known `wake_at` comes (at most a second:
NOTIFY cannot fire in the future, and another worker may have parked something sooner).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import uuid
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.queue.batch import OutcomeBatch
from backend.queue.claims import Claim, Clock, database_clock
from backend.queue.driver import Actions, Approvals, FlowCache, NoActions, load_run, walk_claim
from backend.queue.faults import Faults
from backend.queue.outcome import ClaimLost, write_failure, write_outcome
from backend.queue.queries import QUERIES
from backend.queue.runs import NOTIFY_CHANNEL
from backend.queue.schedules import fire_due
from backend.queue.sweep import DEFAULT_RETENTION

log = logging.getLogger("flowyard.worker")

LEASE = timedelta(seconds=30)
MAX_SLEEP_S = 1.0
HEARTBEAT_S = 5.0
SWEEP_EVERY_BEATS = 12  # a minute


def worker_name() -> str:
    """This process, not the last one on this host: a restarted worker never inherits old claims."""
    return f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:6]}"


class Worker:
    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        *,
        concurrency: int = 10,
        lease: timedelta = LEASE,
        clock: Clock = database_clock,
        actions: Actions | None = None,
        approvals: Approvals | None = None,
        faults: Faults | None = None,
        name: str | None = None,
        retention: timedelta | None = DEFAULT_RETENTION,
    ) -> None:
        from backend.approvals.service import ApprovalService

        self.pool = pool
        self.name = name or worker_name()
        self.concurrency = concurrency
        self.lease = lease
        self.clock = clock
        self.actions: Actions = actions or NoActions()
        self.approvals: Approvals = approvals or ApprovalService(clock)
        self.faults = faults or Faults()
        self.retention = retention
        self.flows = FlowCache()
        self.outcomes = OutcomeBatch(pool)
        self._inflight: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        """Serve due waits until `stop` is set; then finish the walks in hand and return."""
        listener = asyncio.create_task(self._listen(stop))
        beats = asyncio.create_task(self._heartbeat(stop))
        try:
            while not stop.is_set():
                # Cleared before looking, not after: a NOTIFY that lands while we claim is not lost.
                self._wake.clear()
                claimed = await self.serve_due()
                if claimed and len(self._inflight) < self.concurrency:
                    continue  # there may be more due right now
                await self._sleep(stop)
        finally:
            if self._inflight:
                await asyncio.gather(*self._inflight.values(), return_exceptions=True)
            listener.cancel()
            beats.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            with contextlib.suppress(asyncio.CancelledError):
                await beats
            async with self.pool.connection() as conn:
                await conn.execute(QUERIES["worker_gone"], {"me": self.name})

    async def serve_due(self) -> int:
        """Claim what is due, up to the free concurrency, and start walking it; how many were claimed."""
        free = self.concurrency - len(self._inflight)
        if free <= 0:
            return 0
        now = self.clock()
        async with self.pool.connection() as conn:
            await fire_due(conn, now)
            await conn.execute(QUERIES["release_expired_claims"], {"now": now})
            cur = await conn.execute(
                QUERIES["claim"], {"me": self.name, "limit": free, "now": now, "lease": self.lease}
            )
            claims = [Claim.from_row(row) for row in await cur.fetchall()]
        for claim in claims:
            task = asyncio.create_task(self._serve(claim))
            self._inflight[claim.wait_id] = task
            task.add_done_callback(functools.partial(self._done, claim.wait_id))
        return len(claims)

    async def drain(self) -> None:
        """Serve until nothing is due and nothing is in hand (for tests and `flowyard run --wait`)."""
        while await self.serve_due() or self._inflight:
            if self._inflight:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)

    def _done(self, wait_id: int, _task: asyncio.Task[None]) -> None:
        self._inflight.pop(wait_id, None)
        self._wake.set()

    async def _serve(self, claim: Claim) -> None:
        renew = asyncio.create_task(self._renew(claim))
        try:
            async with self.pool.connection() as conn:
                await self.faults.reach("after_claim")
                try:
                    run = await load_run(conn, claim.run_id, self.flows)
                    walked = await walk_claim(conn, claim, run, self.actions, self.approvals)
                except Exception as failure:
                    log.warning("resume of wait %s failed: %s", claim.wait_id, failure)
                    await write_failure(conn, self.name, self.clock(), claim, failure)
                    return
            await self.faults.reach("before_outcome")
            now = self.clock()
            await self.outcomes.write(
                lambda conn: write_outcome(conn, self.name, now, claim, run, walked, self.approvals)
            )
        except ClaimLost:
            log.info("wait %s is no longer ours; wrote nothing", claim.wait_id)
        except Exception:
            log.exception("writing the outcome of wait %s failed; its lease will expire", claim.wait_id)
        finally:
            renew.cancel()

    async def _renew(self, claim: Claim) -> None:
        while True:
            await asyncio.sleep(self.lease.total_seconds() / 3)
            async with self.pool.connection() as conn:
                await conn.execute(
                    QUERIES["renew_claims"],
                    {"ids": [claim.wait_id], "me": self.name, "now": self.clock(), "lease": self.lease},
                )

    async def _sleep(self, stop: asyncio.Event) -> None:
        timeout = MAX_SLEEP_S
        if len(self._inflight) < self.concurrency:
            async with self.pool.connection() as conn:
                cur = await conn.execute(QUERIES["next_wake"])
                row = await cur.fetchone()
                now_row = await (await conn.execute("SELECT now()")).fetchone()
            if row and row[0] is not None and now_row:
                timeout = min(MAX_SLEEP_S, max(0.0, (row[0] - (self.clock() or now_row[0])).total_seconds()))
        waiters = [asyncio.create_task(self._wake.wait()), asyncio.create_task(stop.wait())]
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for waiter in waiters:
            waiter.cancel()

    async def _listen(self, stop: asyncio.Event) -> None:
        conninfo = self.pool.conninfo
        assert isinstance(conninfo, str), "the worker's pool is made from a URL"
        while not stop.is_set():
            try:
                async with await AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    async for _ in conn.notifies():
                        self._wake.set()
            except Exception:
                log.warning("lost the LISTEN connection; polling until it is back", exc_info=True)
                await asyncio.sleep(MAX_SLEEP_S)

    async def _heartbeat(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with self.pool.connection() as conn:
                    await conn.execute(
                        QUERIES["heartbeat"], {"me": self.name, "concurrency": self.concurrency}
                    )
            except Exception:
                log.warning("heartbeat failed", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), HEARTBEAT_S)
