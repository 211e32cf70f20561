"""The two writes that do not wait for their WAL flush (a claim, an approval's time-out): the setting lasts
for their own transaction only, and a decision that lands between reading an approval and timing it out
wins."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any, LiteralString

from backend.approvals.queue_port import ApprovalOfVisit, ApprovalsPort
from backend.walker import Resume
from tests.approvals.test_decisions import approval_flow
from tests.queue.test_runs import _claim
from tests.support import Queue, flow

CHAINED = "SELECT count(*) FROM audit_chain WHERE kind = 'decision' AND ref_id = %s"
LOG_FLOW = flow(
    "start:trigger",
    {"id": "note", "type": "log", "config": {"message": "hello"}},
    wires=[{"from": "start", "to": "note"}],
)


def test_a_claim_leaves_its_connection_waiting_for_flushes_again(queue: Queue) -> None:
    from backend.queue.commands import open_pool

    queue.one("WITH gone AS (DELETE FROM waits RETURNING 1) SELECT count(*) FROM gone")
    run_id = queue.start(queue.save(LOG_FLOW))
    queue.clock.advance(timedelta(minutes=1))

    async def go() -> tuple[Any, ...]:
        pool = open_pool(queue.url, size=1)  # one connection: the claim's is the one asked afterwards
        await pool.open()
        try:
            claim = await _claim(pool, "w", queue.clock(), timedelta(seconds=30))
            async with pool.connection() as conn:
                setting = await (await conn.execute("SHOW synchronous_commit")).fetchone()
            return claim.run_id, setting
        finally:
            await pool.close()

    assert queue.run(go) == (run_id, ("on",))
    # Committed: another connection sees the claim.
    assert queue.one("SELECT status, claimed_by FROM waits WHERE run_id = %s", run_id) == ("claimed", "w")


def _woken_approval(queue: Queue, service: ApprovalsPort) -> tuple[Any, tuple[Any, ...] | None, int]:
    """Start an approval run, let its deadline pass, claim its wait and resolve it on one connection;
    what it resumed with, the connection's setting afterwards, and the approval."""
    from backend.queue.commands import open_pool

    # The module's database: no wait of an earlier test may be the one claimed here.
    queue.one("WITH gone AS (DELETE FROM waits RETURNING 1) SELECT count(*) FROM gone")
    run_id = queue.start(queue.save(approval_flow(deadline="PT1H", on_timeout="approve")))
    queue.clock.advance(timedelta(minutes=1))  # the start wait is due by the test's clock
    queue.drain()
    approval = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert approval is not None
    queue.clock.advance(timedelta(hours=1))

    async def go() -> tuple[Any, tuple[Any, ...] | None]:
        pool = open_pool(queue.url, size=1)
        await pool.open()
        try:
            claim = await _claim(pool, "w", queue.clock(), timedelta(seconds=30))
            async with pool.connection() as conn:
                resume = await service.resolution(conn, claim)
                setting = await (await conn.execute("SHOW synchronous_commit")).fetchone()
            return resume, setting
        finally:
            await pool.close()

    resume, setting = queue.run(go)
    return resume, setting, int(approval[0])


def test_a_time_out_is_written_and_the_connection_waits_for_flushes_again(queue: Queue) -> None:
    resume, setting, approval = _woken_approval(queue, ApprovalsPort(queue.clock))
    assert isinstance(resume, Resume) and resume.outcome == "timeout"
    assert resume.output is not None and resume.output["outcome"] == "timed_out_approved"
    assert setting == ("on",)
    assert queue.one("SELECT outcome FROM approvals WHERE id = %s", approval) == ("timed_out_approved",)
    assert queue.one(CHAINED, approval) == (1,)


class _DecidedMeanwhile(ApprovalsPort):
    """Reads the approval as undecided once (as it was a moment before), while a person has decided it."""

    stale = True

    async def _read(self, conn: Any, claim: Any, query: LiteralString) -> ApprovalOfVisit:
        row = await super()._read(conn, claim, query)
        if self.stale:
            self.stale = False
            await conn.execute(
                "UPDATE approvals SET outcome = 'approved', decided_by = 'ann', decided_at = now()"
                " WHERE id = %s",
                (row.id,),
            )
            return replace(
                row, outcome=None, decided_by=None, decided_at=None, comment=None, past_deadline=True
            )
        return row


def test_a_decision_that_lands_before_the_time_out_wins(queue: Queue) -> None:
    resume, _, approval = _woken_approval(queue, _DecidedMeanwhile(queue.clock))
    assert isinstance(resume, Resume) and resume.output is not None
    assert (resume.output["outcome"], resume.output["decided_by"]) == ("approved", "ann")
    decided = queue.one("SELECT outcome, decided_by FROM approvals WHERE id = %s", approval)
    assert decided == ("approved", "ann")
    assert queue.one(CHAINED, approval) == (1,)
