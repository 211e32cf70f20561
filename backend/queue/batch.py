"""Outcomes of several walks in one transaction: one commit, one WAL flush, a few statements, for up to
`size` runs.

A worker's walks finish close together; each writing its own transaction would wait for its own flush to
disk, and the flush and the round trips are most of an outcome's cost. Every outcome is written by the one
write path, `settle.settle`: the walks that got somewhere together, in one batch, where a claim lost
writes nothing of its run and the rest of the batch still lands. Should that transaction fail as a whole
for a reason one outcome may own (a value PostgreSQL refuses, a deadlock: `one_may_own`), its outcomes
are written again one by one: the same `settle` on a batch of one, each in a savepoint of its own, so one
bad outcome fails alone and its writer hears about it; approvals woken early are always written that way.
A statement that is broken for every outcome fails each of them there too: there is no second
implementation to hide it. Any other failure of the batch (a statement that does not compile, a column
that does not exist, a bug on this side, the database gone) is every outcome's at once: each writer hears
it, and it is logged as an error.

A crash before the commit loses the whole batch's outcomes, and loses nothing else: their waits are still
claimed, the leases expire, and any worker walks them again (the effect keys keep their side effects
single).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from backend.events.store import DEFAULT_KEEP
from backend.queue.claims import ClaimLost
from backend.queue.ports import Approvals
from backend.queue.settle import Outcome, Settled, batched, settle

log = logging.getLogger("flowyard.worker")

Pending = tuple[Outcome, asyncio.Future[None]]

# Batches in flight at once. One: tried with two (their runs are disjoint, so they never wait for each
# other), the invoice drain was no faster; each batch only took longer (docs/runs.md, fourth pass).
WRITERS = 1

# The SQLSTATE classes and codes of a failure one outcome of a batch may own, so that writing each alone
# lets the others land: a value PostgreSQL refuses (22 data exception, 23 integrity constraint, P0 a
# trigger's refusal), a deadlock or serialization failure (40), a lock or statement timeout.
_ONE_MAY_OWN = ("22", "23", "40", "P0", "55P03", "57014")


def one_may_own(failure: BaseException) -> bool:
    """Whether the set-based write's `failure` may be one outcome's, and so is worth writing one by one.

    Examples:
        >>> from psycopg import errors
        >>> one_may_own(errors.InvalidTextRepresentation()), one_may_own(errors.DeadlockDetected())
        (True, True)
        >>> one_may_own(errors.UndefinedColumn()), one_may_own(errors.SyntaxError()), one_may_own(KeyError())
        (False, False, False)
    """
    state = failure.sqlstate if isinstance(failure, psycopg.Error) else None
    return state is not None and (state[:2] in _ONE_MAY_OWN or state in _ONE_MAY_OWN)


class OutcomeBatch:
    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        me: str,
        approvals: Approvals,
        size: int = 50,
        due_in: Callable[[timedelta], None] | None = None,
        writers: int = WRITERS,
        events_keep: timedelta = DEFAULT_KEEP,
    ) -> None:
        self.pool = pool
        self.me = me
        self.approvals = approvals
        self.events_keep = (
            events_keep  # how long a wait_event's kept events reach back (FLOWYARD_EVENTS_KEEP)
        )
        self.size = size
        # Told, after each commit, how long until the soonest wait it parked falls due by time.
        self.due_in = due_in
        self.writers = writers
        self._pending: list[Pending] = []
        self._flushers: set[asyncio.Task[None]] = set()
        # The extra writer of answered outcomes (None: never started).
        self._answering: asyncio.Task[None] | None = None

    async def write(self, outcome: Outcome) -> None:
        """Write `outcome` in the next batch; returns once it has committed, raises ClaimLost when the
        claim no longer held (nothing of it was written).

        An answered claim's outcome (a decision, an event: `Claim.answered`) goes first in the next batch,
        and when every writer is busy, one more writer takes the answered outcomes alone at once: a
        person's answer waits for its own commit, not for a batch of the backlog in flight before it.
        Their runs are not the other batch's (one claim per run), so the two do not wait for each other."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((outcome, done))
        # Only writers still running: a finished one leaves the set in a callback that runs later, and
        # counting it meanwhile would leave this outcome pending with no writer to take it.
        self._flushers = {flusher for flusher in self._flushers if not flusher.done()}
        if len(self._flushers) < self.writers:
            flusher = asyncio.create_task(self._flush())
            self._flushers.add(flusher)
            flusher.add_done_callback(self._flushers.discard)
        elif outcome.claim.answered and (self._answering is None or self._answering.done()):
            # Not among the writers counted above: it takes answered outcomes only, and an outcome of the
            # backlog arriving meanwhile must still find a writer of its own.
            self._answering = asyncio.create_task(self._flush(answered_only=True))
        await done

    async def _flush(self, answered_only: bool = False) -> None:
        while self._pending:
            await asyncio.sleep(0)  # the walks finishing in this same tick join the batch
            batch = self._take(answered_only)
            if not batch:
                break  # another writer took them
            together = [pending for pending in batch if batched(pending[0])]
            alone = [pending for pending in batch if not batched(pending[0])]
            if together and not await self._together(together):
                alone = together + alone
            if alone:
                await self._one_by_one(alone)

    def _take(self, answered_only: bool) -> list[Pending]:
        """The next batch off the pending outcomes: answered ones first, at most `size`."""
        ordered = sorted(self._pending, key=lambda pending: not pending[0].claim.answered)  # stable
        if answered_only:
            ordered = [pending for pending in ordered if pending[0].claim.answered]
        batch = ordered[: self.size]
        taken = {id(pending) for pending in batch}
        self._pending = [pending for pending in self._pending if id(pending) not in taken]
        return batch

    async def _together(self, batch: list[Pending]) -> bool:
        """The set-based write; False when its transaction failed for a reason one outcome may own (nothing
        of it stands, and the batch is to be written one by one). Any other failure is every outcome's."""
        try:
            # Pipelined: the statements go out without waiting for each answer.
            async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
                outcomes = [outcome for outcome, _ in batch]
                settled = await settle(conn, self.me, outcomes, self.approvals, self.events_keep)
        except Exception as failure:
            if one_may_own(failure):
                log.warning(
                    "a batch of %d outcomes failed; writing them one by one", len(batch), exc_info=True
                )
                return False
            log.error("a batch of %d outcomes failed; none was written", len(batch), exc_info=True)
            for _, done in batch:
                done.set_exception(failure)
            return True
        self._written(settled)
        for outcome, done in batch:
            _answer(done, outcome, settled)
        return True

    async def _one_by_one(self, batch: list[Pending]) -> None:
        """Each outcome by `settle` on a batch of one, in a savepoint: one that fails, fails alone."""
        settled: dict[int, Settled] = {}
        failures: dict[int, BaseException] = {}
        try:
            async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
                for index, (outcome, _) in enumerate(batch):
                    try:
                        async with conn.transaction():  # a savepoint: this outcome alone
                            settled[index] = await settle(
                                conn, self.me, [outcome], self.approvals, self.events_keep
                            )
                    except Exception as failure:
                        failures[index] = failure
        except Exception as failure:  # the commit itself failed: no outcome of the batch stands
            for _, done in batch:
                if not done.done():
                    done.set_exception(failure)
            return
        for written in settled.values():
            self._written(written)
        for index, (outcome, done) in enumerate(batch):
            if index in failures:
                done.set_exception(failures[index])
            else:
                _answer(done, outcome, settled[index])

    def _written(self, settled: Settled) -> None:
        """Tell the worker, after a commit, how long until the soonest wait written falls due by time."""
        if settled.soonest is not None and self.due_in is not None:
            self.due_in(settled.soonest)


def _answer(done: asyncio.Future[None], outcome: Outcome, settled: Settled) -> None:
    """The writer's answer: written, or ClaimLost when its claim no longer held (nothing of it was)."""
    if outcome.claim.wait_id in settled.waits:
        done.set_result(None)
    else:
        done.set_exception(ClaimLost(outcome.claim.wait_id))
