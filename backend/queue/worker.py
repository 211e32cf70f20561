"""The worker: claim due waits, walk them, write each outcome under the claim.

One question drives it: which waits are due. It claims up to its free concurrency in one statement
(once at least half of it is free, so claims come in batches), walks each claim in a task of its own,
writes the outcomes of walks that end together in one transaction, renews the leases of everything it
holds in one statement, and sleeps until a NOTIFY says a wait became due now, a walk finishes, or the
earliest known `wake_at` comes (at most a second: NOTIFY cannot fire in the future, and another worker
may have parked something sooner). Schedules and expired claims are looked at once a second, not on
every claim round.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.events.store import DEFAULT_KEEP
from backend.events.wake import sweep as sweep_events
from backend.observability import events
from backend.queue import store
from backend.queue.batch import OutcomeBatch
from backend.queue.claims import (
    MAX_ATTEMPTS,
    Claim,
    ClaimLost,
    Clock,
    database_clock,
)
from backend.queue.driver import walk_claim
from backend.queue.events import with_events
from backend.queue.faults import Faults
from backend.queue.flow_cache import FlowCache, load_run
from backend.queue.leases import Renewer
from backend.queue.outcome import write_failure
from backend.queue.ports import Actions, Approvals, NoActions
from backend.queue.records import sweep_run_records
from backend.queue.runs import NOTIFY_CHANNEL
from backend.queue.schedules import fire_due
from backend.queue.settle import Outcome
from backend.queue.sweep import DEFAULT_KEY_RETENTION, DEFAULT_RETENTION, sweep_ended_runs
from backend.queue.wakes import WORKERS_CHANNEL, Wakes
from backend.queue.walked import Ended, Parked, Reparked, Run, WaitFailed, Walked
from backend.store.errors import database_gone
from backend.walker.sizes import DEFAULT_LIMITS, Limits

log = logging.getLogger("flowyard.worker")
T = TypeVar("T")

LEASE = timedelta(seconds=30)
MAX_SLEEP_S = 1.0
# With walks in hand, the worker sleeps until one ends or this long, without asking when the next wait is
# due: a walk ending wakes it anyway, and a timed wait falling due meanwhile is at most this late. Also how
# long free slots may wait for more of them to free up, so that claims come in batches.
BUSY_SLEEP_S = 0.25
# Firing schedules and releasing expired claims: once a second per worker is plenty for both (a schedule
# fires at most a second late, a dead worker's claim comes back at most a second after its lease).
HOUSEKEEPING_S = 1.0
HEARTBEAT_S = 5.0
# Claims in hand, walking or waiting for their outcome's commit, as a multiple of the concurrency (which
# bounds the walks alone). Every outcome commit waits for its WAL flush (milliseconds on a plain disk), so
# while one batch is being flushed the next claims are walked and queue up: the deeper the queue, the more
# outcomes share the next flush.
IN_HAND = 4
SWEEP_S = 60.0  # how often a worker sweeps what retention lets go
# The first pause before a walk or a write that met the database away is done again; doubled each time.
BLIP_PAUSE_S = 0.05


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
        approvals: Approvals,  # given by whoever builds the process: the queue knows only the port
        faults: Faults | None = None,
        name: str | None = None,
        retention: timedelta | None = DEFAULT_RETENTION,
        approval_retention: timedelta | None = None,
        outbox: Outbox | None = None,
        record_retention: timedelta | None = None,
        key_retention: timedelta = DEFAULT_KEY_RETENTION,
        limits: Limits = DEFAULT_LIMITS,
        events_keep: timedelta = DEFAULT_KEEP,
    ) -> None:
        self.pool = pool
        self.name = name or worker_name()
        self.concurrency = concurrency
        self.lease = lease
        self.clock = clock
        self.actions: Actions = actions or NoActions()
        self.approvals: Approvals = with_events(approvals, clock)  # wait_event's waits (backend/events)
        self.faults = faults or Faults()
        self.retention = retention
        self.approval_retention = approval_retention
        self.outbox = outbox
        self.record_retention = record_retention  # run records outlive the runs: off unless set
        self.key_retention = key_retention  # the triggers' keys', never shorter than the runs'
        self.limits = limits  # of every walk's values
        self.flows = FlowCache()
        self.outcomes = OutcomeBatch(
            pool, self.name, self.approvals, due_in=self._parked, events_keep=events_keep
        )
        # Claims come in batches: a new claim round waits until this many slots are free (or none is busy).
        self.claim_at_free = max(1, concurrency // 2)
        # Every claim in hand, until its outcome is written; `_walking` are those not yet handed to the
        # batch writer. Only walks count against the concurrency: the next batch is claimed and walked
        # while the last one's outcomes are being written, up to IN_HAND times the concurrency in hand.
        self._inflight: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._walking: set[tuple[int, int]] = set()
        # The claim in hand whose last claim was abandoned, if any (`Claim.abandoned`): one at most, so that
        # should it kill this worker again, no other suspect dies with it (docs/runs.md).
        self._suspect: tuple[int, int] | None = None
        self._wake = asyncio.Event()
        self._claimed_at = 0.0  # monotonic time of the last full claim round
        # Whether a claim round may find something: a NOTIFY of its own, a timer, a full last round.
        self._wakes = Wakes(self.name)
        self._beat_now = asyncio.Event()  # a worker came or went: learn the live ones now
        # (monotonic time read, monotonic time due) of the earliest timed wait, read by the last sleep.
        self._next_wake: tuple[float, float] | None = None
        self._kept: tuple[float, Any] | None = None  # (monotonic time, clock) of the last housekeeping
        # The monotonic time the soonest wait this worker parked falls due (None: none known), and the
        # event that tells a sleeping loop it came closer: no NOTIFY can announce a wait due in 10 ms.
        self._due_at: float | None = None
        self._sooner = asyncio.Event()
        # Set once the worker is told to stop: a walk or write that met the database away is not done
        # again then (the lease gives it back), so that stopping during an outage takes no longer for it.
        self._stopping = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        """Serve due waits until `stop` is set; then finish the walks in hand and return.

        A failure of the loop itself (the database gone for a moment) is logged and tried again after a
        second: the loop ends only when it is told to.
        """
        self._stopping = stop
        listener = asyncio.create_task(self._listen(stop))
        beats = asyncio.create_task(self._heartbeat(stop))
        conninfo = self.pool.conninfo
        assert isinstance(conninfo, str), "the worker's pool is made from a URL"
        renewer = asyncio.create_task(
            Renewer(conninfo, self.name, self.lease, self.clock, lambda: list(self._inflight)).run()
        )
        tasks = [listener, beats, renewer]
        if self.outbox is not None:
            tasks.append(asyncio.create_task(self.outbox.run(stop)))
        try:
            while not stop.is_set():
                # Cleared before looking, not after: a NOTIFY that lands while we claim is not lost.
                self._wake.clear()
                try:
                    claimed = await self.serve_due()
                    if claimed and self._wakes.look and self._free() >= self.claim_at_free:
                        continue  # the round filled what it asked for: there may be more due right now
                    await self._sleep(stop)
                except Exception:
                    log.exception("the worker's loop failed; trying again in a second")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), MAX_SLEEP_S)
        finally:
            if self._inflight:
                # Off the list first: the runs this worker owned are answered by the others while it
                # finishes its walks, not a second later by their idle rounds.
                await self._gone()
                await asyncio.gather(*self._inflight.values(), return_exceptions=True)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self._gone()  # again, should a heartbeat in flight have listed it anew

    async def _gone(self) -> None:
        with contextlib.suppress(Exception):
            async with self.pool.connection() as conn:
                await store.worker_gone(conn, self.name)

    async def serve_due(self) -> int:
        """Claim what is due, up to the free concurrency, and start walking it; how many were claimed.

        Answered waits (a decision, an event) come first in every claim round. A worker woken by a NOTIFY
        whose free slots are too few for a full round claims the answered waits alone, at once, with the
        slots it has (`answered_only`): an answer does not wait for the backlog's walks to free half of
        them. Only for a reason (backend/queue/wakes.py): a walk's end alone finds nothing new."""
        wakes, moment = self._wakes, time.monotonic()
        parked_due = self._due_at is not None and self._due_at <= moment
        looks = wakes.look or wakes.heard or parked_due or moment - self._claimed_at >= BUSY_SLEEP_S
        if looks and self._claimable_at() <= time.monotonic():
            limit, answered_only = self._free(), False
        elif wakes.heard and self._free_for_answers() > 0:
            limit, answered_only = self._free_for_answers(), True
        else:
            return 0
        wakes.heard = False  # cleared before the claim, not after: a NOTIFY during it is not lost
        now = self.clock()
        claims = await self._claim(limit, now, answered_only=answered_only)
        wakes.rounded(len(claims), limit, answered_only=answered_only)
        events.claimed(len(claims))
        # The time-outs of the round's approval waits whose approval the claim did not find final,
        # set-based, with those approvals read in the same statement, on a connection of their own: the
        # loop claims on meanwhile, and only those waits' walks wait for them (they write the flow's hash
        # chain, whose head every time-out of the flow takes).
        unread = [claim for claim in claims if claim.kind == "approval" and claim.approval is None]
        reading = asyncio.create_task(self._time_out(unread, now)) if unread else None
        waiting_for = {claim.wait_id for claim in unread}
        for claim in claims:
            key = (claim.wait_id, claim.attempts)
            task = asyncio.create_task(self._serve(claim, reading if claim.wait_id in waiting_for else None))
            self._inflight[key] = task
            self._walking.add(key)
            if claim.abandoned:
                self._suspect = key
            task.add_done_callback(functools.partial(self._done, key))
        return len(claims)

    async def _claim(self, limit: int, now: datetime | None, *, answered_only: bool) -> list[Claim]:
        """One claim statement (with the housekeeping when its second has come), noting when it looked."""
        if not answered_only:  # a claim of answered waits alone does not look at those due by time
            self._claimed_at = time.monotonic()
        async with self.pool.connection() as conn:
            if self._housekeeping_due(now):
                await fire_due(conn, now)
                await store.release_expired_claims(conn, now)
            in_hand = {wait_id for wait_id, _ in self._inflight}
            return await store.claim_due(
                conn,
                self.name,
                limit,
                now,
                self.lease,
                answered_only=answered_only,
                in_hand=in_hand,
                suspect_in_hand=self._suspect is not None,
            )

    def _claimable_at(self) -> float:
        """When a full claim round may next claim, by its own conditions (monotonic time; infinity: not
        before a walk ends, as no slot is free). Claims come in batches: with walks in hand, a round waits
        until half the slots are free, but not longer than BUSY_SLEEP_S after the last round (walks blocked
        on slow actions must not keep the free slots idle)."""
        free = self._free()
        if free <= 0:
            return float("inf")
        if free < self.claim_at_free and self._walking:
            return self._claimed_at + BUSY_SLEEP_S
        return time.monotonic()

    def _free_for_answers(self) -> int:
        """Slots for answered waits between full rounds: any slot not walking, and one concurrency's worth
        in hand beyond IN_HAND (the outcomes queued behind a slow commit do not hold an answer back)."""
        return min(
            self.concurrency - len(self._walking), (IN_HAND + 1) * self.concurrency - len(self._inflight)
        )

    async def drain(self) -> None:
        """Serve until nothing is due and nothing is in hand (for tests): every round looks."""
        while await self._look_now() or self._inflight:
            if self._inflight:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)

    async def _look_now(self) -> int:
        self._wakes.look = True
        return await self.serve_due()

    def _free(self) -> int:
        return min(self.concurrency - len(self._walking), IN_HAND * self.concurrency - len(self._inflight))

    def _housekeeping_due(self, now: Any) -> bool:
        """Once a second, and whenever an injected clock has moved (a test walking through time)."""
        moment = time.monotonic()
        if self._kept is None or self._kept[1] != now or moment - self._kept[0] >= HOUSEKEEPING_S:
            self._kept = (moment, now)
            return True
        return False

    def _done(self, key: tuple[int, int], task: asyncio.Task[None]) -> None:
        if self._inflight.get(key) is task:  # never another claim's (`in_hand` keeps keys apart anyway)
            del self._inflight[key]
            self._walking.discard(key)
            if self._suspect == key:
                self._suspect = None
        self._wake.set()
        if self.outbox is not None:
            self.outbox.wake.set()  # the walk may have parked at an approval whose mails now wait

    async def _time_out(self, claims: list[Claim], now: Any) -> dict[int, Claim]:
        """A claim round's time-outs and approval reads (`time_out_claimed`): its claims by wait, each with
        its approval when found final. Should the statement fail, none is read, and each approval wait's
        walk reads (and times out) its own approval, as every wait did before this statement existed."""
        try:
            async with self.pool.connection() as conn:
                return {
                    claim.wait_id: claim
                    for claim in await store.time_out_claimed(conn, self.name, claims, now)
                }
        except Exception:
            log.warning("the time-outs of a claim round failed; each wait reads its own", exc_info=True)
            return {}

    async def _serve(self, claim: Claim, reading: asyncio.Task[dict[int, Claim]] | None = None) -> None:
        """Walk one claim and write what it came to; a failure anywhere is a resume failure (backoff).
        `reading`: the claim round's time-outs and approval reads, for an approval wait."""
        if reading is not None:
            claim = (await reading).get(claim.wait_id, claim)  # before anything else, as it always was
        started = events.claim_started(claim.run_id, claim.visit, claim.kind, claim.attempts, self.name)
        try:
            await self.faults.reach("after_claim")
            if claim.attempts > MAX_ATTEMPTS:
                # Every earlier claim ended without a word: its worker died or hung in this walk. The
                # run stops at the action it died in (a try without an outcome, or the walk's newest
                # action when its last try failed: the walk died before writing that failure), else at
                # its wait.
                async with self.pool.connection() as conn:
                    died_in = await store.open_effect_of_run(conn, claim.run_id, claim.visit)
                where = {"node": died_in.node, "visit": died_in.visit} if died_in else {}
                abandoned = WaitFailed(code="claim_abandoned", attempts=claim.attempts - 1, **where)
                await self._fail(claim, abandoned)
                return
            try:
                run, walked = await self._through_blips(claim, functools.partial(self._walk, claim))
                events.walked(started)
            except ClaimLost:
                raise
            except Exception as failure:
                if database_gone(failure):  # not the walk's failure: no backoff, no resume_failed
                    log.warning("wait %s: the database went away; its lease gives it back", claim.wait_id)
                    return
                log.warning("resume of wait %s failed: %s", claim.wait_id, failure)
                await self._fail(claim, failure)
                return
            await self.faults.reach("before_outcome")
            now = self.clock()
            try:
                self._walking.discard((claim.wait_id, claim.attempts))
                self._wake.set()  # a slot is free: the next batch may be claimed while this one is written
                outcome = Outcome(claim, run, walked, now)
                await self._through_blips(claim, functools.partial(self.outcomes.write, outcome))
            except ClaimLost:
                raise
            except Exception as failure:
                if database_gone(failure):
                    log.warning("wait %s: the database went away; its lease gives it back", claim.wait_id)
                    return
                log.exception("writing the outcome of wait %s failed", claim.wait_id)
                await self._fail(claim, failure)
            else:
                match walked:
                    case Parked(step=step) | Ended(step=step):
                        events.resume_written(step, started)
                    case Reparked():
                        events.resume_written(None, started)
        except ClaimLost:
            events.claim_lost()
            log.info("wait %s is no longer ours; wrote nothing", claim.wait_id)
        except Exception:
            log.exception(
                "wait %s: even its failure could not be written; its lease will expire", claim.wait_id
            )

    async def _walk(self, claim: Claim) -> tuple[Run, Walked]:
        self.faults.walking(claim.run_id)
        run = await load_run(self.pool, claim, self.flows)
        walked = await walk_claim(
            self.pool,
            claim,
            run,
            self.actions,
            self.approvals,
            functools.partial(self._still_ours, claim),
            now=self.clock(),
            limits=self.limits,
        )
        return run, walked

    async def _through_blips(self, claim: Claim, step: Callable[[], Awaitable[T]]) -> T:
        """`step` (the walk, or the write of its outcome), done again while the database is away for a
        moment (a connection killed, a restart), for up to one lease after the first failure.

        Giving up at once would cost the claim an attempt: its lease lapses, the next claim counts one
        more, and a run whose claims meet five such blips in a row stops with `claim_abandoned`, though
        nothing of its own failed. Both steps may be done again under the same claim: a walk is done again
        from the same continuation (an action already sent is found under its effect key, never sent
        twice), and a write is guarded by the claim (one that did commit before its connection died
        finds no claim the second time: ClaimLost, and nothing written twice; the worker never claims a
        wait again while it has it in hand, so the re-parked wait cannot pass the guard under a new claim
        of the same number). Past the lease, or once the
        worker is told to stop, the failure goes to the caller (`_serve`: the lease gives the claim back)."""
        give_up_at = None
        pause = BLIP_PAUSE_S
        while True:
            try:
                return await step()
            except ClaimLost:
                raise
            except Exception as failure:
                if not database_gone(failure):
                    raise
                give_up_at = give_up_at or time.monotonic() + self.lease.total_seconds()
                if time.monotonic() + pause >= give_up_at or self._stopping.is_set():
                    raise
                log.warning(
                    "wait %s: the database went away (%s); trying again in %.2f s",
                    claim.wait_id, type(failure).__name__, pause,
                )  # fmt: skip
                with contextlib.suppress(TimeoutError):  # a back-off, cut short by a stop
                    await asyncio.wait_for(self._stopping.wait(), pause)
                if self._stopping.is_set():
                    raise
                pause = min(pause * 2, self.lease.total_seconds() / 3)

    async def _fail(self, claim: Claim, failure: BaseException) -> None:
        async with self.pool.connection() as conn:
            await write_failure(conn, self.name, self.clock(), claim, failure)
        events.resume_failed(getattr(failure, "code", "resume_error"), final=claim.attempts >= MAX_ATTEMPTS)

    async def _still_ours(self, claim: Claim) -> bool:
        async with self.pool.connection() as conn:
            return await store.still_claimed(conn, claim.wait_id, self.name, claim.attempts)

    def _parked(self, due_in: timedelta) -> None:
        """An outcome batch committed a wait that falls due `due_in` from now: look again then."""
        due_at = time.monotonic() + due_in.total_seconds()
        if self._due_at is None or self._due_at <= self._claimed_at or due_at < self._due_at:
            self._due_at = due_at
            self._sooner.set()

    async def _sleep(self, stop: asyncio.Event) -> None:
        """Until a NOTIFY or a walk's end wakes us, the soonest wait this worker parked falls due, or the
        timeout: a quarter of a second with walks in hand, else until the earliest wake_at (at most 1 s)."""
        timeout = BUSY_SLEEP_S if self._inflight else await self._until_next_wake()
        deadline = time.monotonic() + timeout
        while not (self._wake.is_set() or stop.is_set()):
            self._sooner.clear()
            remaining = min(deadline, self._parked_due_claimable()) - time.monotonic()
            if remaining <= 0:
                break
            await _until_any((self._wake, stop, self._sooner), remaining)
        if not self._wake.is_set():
            self._wakes.look = True  # a timer ran out (or a wait it parked fell due): look for what is due

    async def _until_next_wake(self) -> float:
        """How long an idle worker may sleep: until the earliest timed wait falls due, at most a second.
        Read at most once per BUSY_SLEEP_S while the time it read is ahead: under a stream of decisions the
        worker falls idle after every walk, and a wait another worker parks sooner is that worker's to look
        after (`_parked`). Answered waits are not timed: their NOTIFY wakes their owner (wakes.py)."""
        moment = time.monotonic()
        if (
            self._next_wake is None
            or moment - self._next_wake[0] >= BUSY_SLEEP_S
            or self._next_wake[1] <= moment
        ):
            async with self.pool.connection() as conn:
                earliest = await store.next_wake(conn)
            due = float("inf")
            if earliest is not None and earliest.wake_at is not None:
                due = moment + (earliest.wake_at - (self.clock() or earliest.now)).total_seconds()
            self._next_wake = (moment, due)
        return min(MAX_SLEEP_S, max(0.0, self._next_wake[1] - moment))

    def _parked_due_claimable(self) -> float:
        """When to look again for the soonest wait this worker parked (monotonic time; infinity: no reason
        to). Not before it falls due, nor before a claim round may claim it (`_claimable_at`): with no slot
        free the loop would spin, and a walk's end wakes it anyway. Forgotten once a claim statement has
        looked after it fell due, whatever that claim took (a full round: `answered_only` looks at answered
        waits only)."""
        if self._due_at is None:
            return float("inf")
        if self._claimed_at >= self._due_at:
            self._due_at = None
            return float("inf")
        return max(self._due_at, self._claimable_at())

    async def _listen(self, stop: asyncio.Event) -> None:
        conninfo = self.pool.conninfo
        assert isinstance(conninfo, str), "the worker's pool is made from a URL"
        while not stop.is_set():
            try:
                async with await AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await store.listen(conn, (NOTIFY_CHANNEL, WORKERS_CHANNEL))
                    self._beat_now.set()  # who else is alive, now that no word of them can be missed
                    async for notice in conn.notifies():
                        if notice.channel == WORKERS_CHANNEL:
                            self._beat_now.set()
                        elif self._wakes.notified(notice.payload):
                            self._wake.set()
            except Exception:
                log.warning("lost the LISTEN connection; polling until it is back", exc_info=True)
                await asyncio.sleep(MAX_SLEEP_S)

    async def _heartbeat(self, stop: asyncio.Event) -> None:
        """Say we are alive, and learn who else is (also at once when a worker comes or goes, or this one
        starts listening); once a minute, also sweep what retention lets go (any worker may: it is
        idempotent), forget long-silent workers and expired login sessions."""
        announced = False
        swept_at = -float("inf")
        while not stop.is_set():
            self._beat_now.clear()
            try:
                async with self.pool.connection() as conn:
                    peers = await store.heartbeat(conn, self.name, self.concurrency, 3 * HEARTBEAT_S)
                    self._wakes.peers = tuple(peers)
                    if not announced:  # the others learn of this worker now, not at their next beat
                        await store.notify_workers(conn, self.name)
                        announced = True
                    if time.monotonic() - swept_at >= SWEEP_S:
                        swept_at = time.monotonic()
                        await store.forget_silent_workers(conn)
                        await store.forget_expired_sessions(conn)
                        keys_kept = max(self.key_retention, self.retention or timedelta(0))
                        await sweep_events(conn, self.clock(), keys_kept)  # wait_event (backend/events)
                        if self.retention is not None:
                            await sweep_ended_runs(conn, self.clock(), self.retention, keys_kept)
                        if self.record_retention is not None:
                            await sweep_run_records(conn, self.clock(), self.record_retention)
                        if self.approval_retention is not None:
                            await self.approvals.sweep(conn, self.clock(), self.approval_retention)
            except Exception:
                log.warning("heartbeat failed", exc_info=True)
            await _until_any((stop, self._beat_now), HEARTBEAT_S)


async def _until_any(events: Iterable[asyncio.Event], timeout: float) -> None:
    """Until one of `events` is set, or `timeout` seconds have passed."""
    waiters = [asyncio.create_task(event.wait()) for event in events]
    await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for waiter in waiters:
        waiter.cancel()
