"""A run's life through the queue, driven by an in-process worker and a clock the test moves."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import psycopg
import pytest

from backend.approvals.queue_port import ApprovalsPort
from backend.queue.runs import RunAlreadyParked, park_first
from tests.support import AsyncConnection, Queue, flow

LOG_FLOW = flow(
    "start:trigger",
    {"id": "note", "type": "log", "config": {"message": "hello {{trigger.who}}"}},
    wires=[{"from": "start", "to": "note"}],
)
DELAY_FLOW = flow(
    "start:trigger",
    {"id": "pause", "type": "delay", "config": {"duration": "PT1H"}},
    {"id": "note", "type": "log", "config": {"message": "later"}},
    wires=[{"from": "start", "to": "pause"}, {"from": "pause", "to": "note"}],
)


def test_a_started_run_is_walked_to_the_end_and_its_wait_deleted(queue: Queue) -> None:
    run_id = queue.start(queue.save(LOG_FLOW), input={"who": "ann"})
    assert queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT kind FROM waits WHERE run_id = %s", run_id) == ("start",)

    queue.drain()

    assert queue.status(run_id) == ("succeeded", None)
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
    codes = queue.codes(run_id)
    assert codes[0] == "run_created"
    assert codes[-1] == "run_succeeded"
    logged = queue.one("SELECT data FROM journal WHERE run_id = %s AND code = 'log_written'", run_id)
    assert logged is not None and logged[0]["message"] == "hello ann"


def test_a_delay_is_a_wait_with_a_future_wake_at_and_fires_when_its_time_comes(queue: Queue) -> None:
    run_id = queue.start(queue.save(DELAY_FLOW))
    queue.drain()
    assert queue.status(run_id) == ("waiting", None)
    wait = queue.one("SELECT kind, wake_at, node FROM waits WHERE run_id = %s", run_id)
    assert wait is not None
    assert wait[0] == "delay" and wait[2] == "pause"
    assert wait[1] == queue.clock.now + timedelta(hours=1)

    queue.clock.advance(timedelta(minutes=59))
    queue.drain()
    assert queue.status(run_id) == ("waiting", None), "woken before its time"

    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert "wait_claimed" in queue.codes(run_id)


def test_a_resume_that_always_throws_is_tried_five_times_with_backoff_then_stops(queue: Queue) -> None:
    # No action performer is configured in this worker, so the http node's visit throws every time.
    failing = flow(
        "start:trigger",
        {"id": "call", "type": "http", "config": {"method": "GET", "url": "http://127.0.0.1:9/"}},
        wires=[{"from": "start", "to": "call"}],
    )
    run_id = queue.start(queue.save(failing))
    waits_at = []
    for _ in range(4):
        queue.drain()
        row = queue.one("SELECT wake_at, attempts, last_error FROM waits WHERE run_id = %s", run_id)
        assert row is not None and row[2] == "action_unavailable"
        waits_at.append(row[0] - queue.clock.now)
        queue.clock.advance(row[0] - queue.clock.now)
        assert queue.status(run_id) == ("waiting", None)
    queue.drain()

    assert waits_at == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert queue.status(run_id) == ("stopped", "action_unavailable")
    wait = queue.one("SELECT status, wake_at = 'infinity' FROM waits WHERE run_id = %s", run_id)
    assert wait == ("stopped", True), "kept, out of every claim"
    failures = queue.all(
        "SELECT data FROM journal WHERE run_id = %s AND code = 'resume_failed' ORDER BY seq", run_id
    )
    assert [f[0]["attempt"] for f in failures] == [1, 2, 3, 4, 5]
    assert all(f[0]["error"] == "action_unavailable" for f in failures)
    assert queue.codes(run_id)[-2:] == ["resume_attempts_exhausted", "run_stopped"]


def test_the_same_idempotency_key_twice_starts_one_run(queue: Queue) -> None:
    flow_id = queue.save(LOG_FLOW)
    first = queue.start(flow_id, input={"who": "a"}, key="delivery-17")
    second = queue.start(flow_id, input={"who": "b"}, key="delivery-17")
    assert first == second
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = %s", flow_id) == (1,)
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", first) == (1,)


def test_a_run_is_pinned_to_the_version_it_started_on(queue: Queue) -> None:
    from backend.flows.store import save_version

    flow_id = queue.save(DELAY_FLOW)
    run_id = queue.start(flow_id)
    queue.drain()
    edited = dict(
        DELAY_FLOW,
        nodes=[*DELAY_FLOW["nodes"][:2], {"id": "note", "type": "log", "config": {"message": "edited"}}],
    )

    assert queue.aconn(lambda conn: save_version(conn, flow_id, edited, by="test")) == 2
    queue.clock.advance(timedelta(hours=1))
    queue.drain()
    assert queue.one("SELECT version FROM runs WHERE id = %s", run_id) == (1,)
    logged = queue.one("SELECT data FROM journal WHERE run_id = %s AND code = 'log_written'", run_id)
    assert logged is not None and logged[0]["message"] == "later"


def test_cancel_deletes_the_wait_and_journals_who_cancelled(queue: Queue) -> None:

    from backend.queue.runs import cancel_run

    run_id = queue.start(queue.save(DELAY_FLOW))
    queue.drain()

    async def cancel(conn: AsyncConnection) -> tuple[bool, bool]:
        approvals = ApprovalsPort()
        first = await cancel_run(conn, run_id, by="ann", approvals=approvals)
        return first, await cancel_run(conn, run_id, by="bob", approvals=approvals)

    assert queue.aconn(cancel) == (True, False)
    assert queue.status(run_id) == ("cancelled", None)
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
    line = queue.one("SELECT code, data FROM journal WHERE run_id = %s ORDER BY seq DESC LIMIT 1", run_id)
    assert line == ("run_cancelled", {"by": "ann"})


async def _claim(pool: Any, me: str, now: Any, lease: timedelta) -> Any:
    from backend.queue.claims import Claim
    from backend.queue.queries import QUERIES

    async with pool.connection() as conn:
        await conn.execute(QUERIES["release_expired_claims"], {"now": now})
        cur = await conn.execute(
            QUERIES["claim"],
            {
                "me": me,
                "limit": 1,
                "answered_limit": 1,
                "abandoned_limit": 1,
                "due_limit": 1,
                "in_hand": [],
                "now": now,
                "lease": lease,
            },
        )
        return Claim.from_row((await cur.fetchall())[0])


async def _always_ours() -> bool:
    return True


@pytest.mark.parametrize("second_worker", ["fast", "slow"])
def test_a_lapsed_claims_late_write_is_refused_and_changes_nothing(queue: Queue, second_worker: str) -> None:
    """The claim is the worker and the claiming: even the same worker, claiming again after its own
    lease lapsed, cannot write the first claim's outcome over the second's."""
    from backend.queue.commands import open_pool
    from backend.queue.driver import walk_claim
    from backend.queue.flow_cache import FlowCache, load_run
    from backend.queue.ports import NoActions
    from backend.queue.settle import Outcome, settle
    from backend.queue.worker import Worker

    run_id = queue.start(queue.save(LOG_FLOW), input={"who": "ann"})
    approvals = ApprovalsPort(queue.clock)

    async def go() -> None:
        pool = open_pool(queue.url, size=4)
        await pool.open()
        try:
            claim = await _claim(pool, "slow", queue.clock(), timedelta(seconds=1))
            run = await load_run(pool, claim, FlowCache())
            walked = await walk_claim(pool, claim, run, NoActions(), approvals, _always_ours)
            queue.clock.advance(timedelta(seconds=2))  # the slow walk's lease lapses
            if second_worker == "slow":
                # The same worker claims the wait again and holds it while the first claim tries to write.
                again = await _claim(pool, "slow", queue.clock(), timedelta(seconds=30))
                assert (again.wait_id, again.attempts) == (claim.wait_id, claim.attempts + 1)
            async with pool.connection() as conn:
                if second_worker == "fast":
                    await Worker(pool, clock=queue.clock, name="fast", approvals=approvals).drain()
                async with conn.transaction():
                    late = await settle(conn, "slow", [Outcome(claim, run, walked, queue.clock())], approvals)
                assert late.waits == set(), "the lapsed claim wrote nothing"
            if second_worker == "slow":
                async with pool.connection() as conn, conn.transaction():
                    written = await settle(
                        conn, "slow", [Outcome(again, run, walked, queue.clock())], approvals
                    )
                assert written.waits == {again.wait_id}
        finally:
            await pool.close()

    asyncio.run(go())
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.codes(run_id).count("run_succeeded") == 1
    assert queue.codes(run_id).count("log_written") == 1


def test_a_delay_until_that_is_no_time_stops_after_five_attempts_never_loops(queue: Queue) -> None:
    bad = flow(
        "start:trigger",
        {"id": "pause", "type": "delay", "config": {"until": "{{trigger.when}}"}},
        wires=[{"from": "start", "to": "pause"}],
    )
    run_id = queue.start(queue.save(bad), input={"when": "tomorrow"})
    for _ in range(5):
        queue.drain()
        row = queue.one("SELECT wake_at FROM waits WHERE run_id = %s AND status = 'waiting'", run_id)
        if row is None:
            break
        queue.clock.now = max(queue.clock.now, row[0])
    assert queue.status(run_id) == ("stopped", "delay_until_invalid")
    errors = queue.all(
        "SELECT data->>'error' FROM journal WHERE run_id = %s AND code = 'resume_failed' ORDER BY seq", run_id
    )
    assert errors == [("delay_until_invalid",)] * 5


def test_a_wait_whose_claims_all_died_stops_the_run_instead_of_looping(queue: Queue) -> None:
    run_id = queue.start(queue.save(LOG_FLOW))
    with psycopg.connect(queue.url) as conn:
        # Five claims that ended without a word: each worker died holding it.
        conn.execute("UPDATE waits SET attempts = 5 WHERE run_id = %s", (run_id,))
    queue.drain()
    assert queue.status(run_id) == ("stopped", "claim_abandoned")
    line = queue.one("SELECT data FROM journal WHERE run_id = %s AND code = 'resume_failed'", run_id)
    assert line is not None and line[0]["error"] == "claim_abandoned"
    assert queue.one("SELECT status FROM waits WHERE run_id = %s", run_id) == ("stopped",)


def test_a_second_open_wait_for_one_run_is_a_domain_error_and_changes_nothing(queue: Queue) -> None:
    async def park_twice(conn: AsyncConnection, run_id: int) -> RunAlreadyParked:
        with pytest.raises(RunAlreadyParked) as raised:
            await park_first(conn, run_id)
        return raised.value

    run_id = queue.start(queue.save(DELAY_FLOW))
    before = queue.all("SELECT id, kind, wake_at FROM waits WHERE run_id = %s", run_id)

    refused = queue.aconn(lambda conn: park_twice(conn, run_id))

    assert (refused.code, refused.params) == ("run_already_parked", {"run": run_id})
    assert queue.all("SELECT id, kind, wake_at FROM waits WHERE run_id = %s", run_id) == before
