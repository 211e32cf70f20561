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
from typing import Any, Protocol

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.queue.batch import OutcomeBatch
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, Clock, database_clock
from backend.queue.driver import Actions, Approvals, FlowCache, NoActions, WaitFailed, load_run, walk_claim
from backend.queue.faults import Faults
from backend.queue.outcome import write_failure, write_outcome
from backend.queue.queries import QUERIES
from backend.queue.runs import NOTIFY_CHANNEL
from backend.queue.schedules import fire_due
from backend.queue.sweep import DEFAULT_RETENTION, sweep_decided_approvals, sweep_ended_runs

log = logging.getLogger("flowyard.worker")

LEASE = timedelta(seconds=30)
MAX_SLEEP_S = 1.0
HEARTBEAT_S = 5.0
SWEEP_EVERY_BEATS = 12  # a minute


class Outbox(Protocol):
    """What the worker runs beside its walks to send what they left to send (the approval mails)."""

    wake: asyncio.Event

    async def run(self, stop: asyncio.Event) -> None: ...


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
        approval_retention: timedelta | None = None,
        outbox: Outbox | None = None,
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
        self.approval_retention = approval_retention
        self.outbox = outbox
        self.flows = FlowCache()
        self.outcomes = OutcomeBatch(pool)
        self._inflight: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._wake = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        """Serve due waits until `stop` is set; then finish the walks in hand and return.

        A failure of the loop itself (the database gone for a moment) is logged and tried again after a
        second: the loop ends only when it is told to.
        """
        listener = asyncio.create_task(self._listen(stop))
        beats = asyncio.create_task(self._heartbeat(stop))
        tasks = [listener, beats]
        if self.outbox is not None:
            tasks.append(asyncio.create_task(self.outbox.run(stop)))
        try:
            while not stop.is_set():
                # Cleared before looking, not after: a NOTIFY that lands while we claim is not lost.
                self._wake.clear()
                try:
                    claimed = await self.serve_due()
                    if claimed and len(self._inflight) < self.concurrency:
                        continue  # there may be more due right now
                    await self._sleep(stop)
                except Exception:
                    log.exception("the worker's loop failed; trying again in a second")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), MAX_SLEEP_S)
        finally:
            if self._inflight:
                await asyncio.gather(*self._inflight.values(), return_exceptions=True)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            with contextlib.suppress(Exception):
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
            key = (claim.wait_id, claim.attempts)
            task = asyncio.create_task(self._serve(claim))
            self._inflight[key] = task
            task.add_done_callback(functools.partial(self._done, key))
        return len(claims)

    async def drain(self) -> None:
        """Serve until nothing is due and nothing is in hand (for tests)."""
        while await self.serve_due() or self._inflight:
            if self._inflight:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)

    def _done(self, key: tuple[int, int], _task: asyncio.Task[None]) -> None:
        self._inflight.pop(key, None)
        self._wake.set()
        if self.outbox is not None:
            self.outbox.wake.set()  # the walk may have parked at an approval whose mails now wait

    async def _serve(self, claim: Claim) -> None:
        """Walk one claim and write what it came to; a failure anywhere is a resume failure (backoff)."""
        renew = asyncio.create_task(self._renew(claim))
        try:
            await self.faults.reach("after_claim")
            if claim.attempts > MAX_ATTEMPTS:
                # Every earlier claim ended without a word: its worker died or hung in this walk.
                await self._fail(claim, WaitFailed(code="claim_abandoned", attempts=claim.attempts - 1))
                return
            try:
                run = await load_run(self.pool, claim, self.flows)
                walked = await walk_claim(
                    self.pool,
                    claim,
                    run,
                    self.actions,
                    self.approvals,
                    functools.partial(self._still_ours, claim),
                )
            except ClaimLost:
                raise
            except Exception as failure:
                log.warning("resume of wait %s failed: %s", claim.wait_id, failure)
                await self._fail(claim, failure)
                return
            await self.faults.reach("before_outcome")
            now = self.clock()
            try:
                await self.outcomes.write(
                    lambda conn: write_outcome(conn, self.name, now, claim, run, walked, self.approvals)
                )
            except ClaimLost:
                raise
            except Exception as failure:
                log.exception("writing the outcome of wait %s failed", claim.wait_id)
                await self._fail(claim, failure)
        except ClaimLost:
            log.info("wait %s is no longer ours; wrote nothing", claim.wait_id)
        except Exception:
            log.exception(
                "wait %s: even its failure could not be written; its lease will expire", claim.wait_id
            )
        finally:
            renew.cancel()

    async def _fail(self, claim: Claim, failure: BaseException) -> None:
        async with self.pool.connection() as conn:
            await write_failure(conn, self.name, self.clock(), claim, failure)

    async def _still_ours(self, claim: Claim) -> bool:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                QUERIES["still_claimed"], {"id": claim.wait_id, "me": self.name, "attempts": claim.attempts}
            )
            return await cur.fetchone() is not None

    async def _renew(self, claim: Claim) -> None:
        """Keep the lease while the walk runs; a failed renewal is tried again, a refused one ends it."""
        params = {"id": claim.wait_id, "me": self.name, "attempts": claim.attempts, "lease": self.lease}
        while True:
            await asyncio.sleep(self.lease.total_seconds() / 3)
            try:
                async with self.pool.connection() as conn:
                    cur = await conn.execute(QUERIES["renew_claim"], {**params, "now": self.clock()})
                    if await cur.fetchone() is None:
                        return  # taken over or cancelled: the guarded writes and the action check know
            except Exception:
                log.warning(
                    "renewing the claim on wait %s failed; trying again", claim.wait_id, exc_info=True
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
        """Say we are alive; once a minute, also sweep what retention lets go (any worker may: it is
        idempotent), forget long-silent workers and expired login sessions."""
        beats = 0
        while not stop.is_set():
            try:
                async with self.pool.connection() as conn:
                    await conn.execute(
                        QUERIES["heartbeat"], {"me": self.name, "concurrency": self.concurrency}
                    )
                    if beats % SWEEP_EVERY_BEATS == 0:
                        await conn.execute(QUERIES["forget_silent_workers"])
                        await conn.execute(QUERIES["forget_expired_sessions"])
                        if self.retention is not None:
                            await sweep_ended_runs(conn, self.clock(), self.retention)
                        if self.approval_retention is not None:
                            await sweep_decided_approvals(conn, self.clock(), self.approval_retention)
            except Exception:
                log.warning("heartbeat failed", exc_info=True)
            beats += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), HEARTBEAT_S)
