"""Retention sweeps ended runs and their journals once quiet, never a waiting run, never an approval."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import psycopg
import pytest

from backend.approvals.queue_port import ApprovalsPort
from backend.queue.sweep import sweep_ended_runs
from tests.support import Queue, flow

DELAY = flow(
    "start:trigger",
    {"id": "pause", "type": "delay", "config": {"duration": "P400D"}},
    wires=[{"from": "start", "to": "pause"}],
)
ASK = flow(
    "start:trigger",
    {"id": "ask", "type": "approval", "config": {"title": "ok?", "approvers": []}},
    wires=[{"from": "start", "to": "ask"}],
)


def _age(conn: psycopg.Connection[tuple[object, ...]], run_id: int, interval: str) -> None:
    """Move a run's end and every journal line of it `interval` into the past: the run went quiet then."""
    conn.execute(f"UPDATE runs SET ended_at = ended_at - interval '{interval}' WHERE id = %s", (run_id,))
    conn.execute(f"UPDATE journal SET at = at - interval '{interval}' WHERE run_id = %s", (run_id,))


def test_the_sweep_takes_old_ended_runs_and_nothing_else(queue: Queue) -> None:
    ended = queue.start(queue.save(flow("start:trigger", wires=[])))
    recent = queue.start(queue.save(flow("start:trigger", wires=[])))
    waiting = queue.start(queue.save(DELAY))
    asked = queue.start(queue.save(ASK))
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        # Age everything a year: the ended run is past retention, the waiting ones are merely old.
        conn.execute("UPDATE runs SET created_at = created_at - interval '1 year' WHERE id <> %s", (recent,))
        _age(conn, ended, "1 year")
        conn.execute(
            "UPDATE approvals SET outcome = 'cancelled', decided_at = now() WHERE run_id = %s", (asked,)
        )
        conn.execute("UPDATE runs SET status = 'cancelled', ended_at = now() WHERE id = %s", (asked,))
        _age(conn, asked, "1 year")
        conn.execute("UPDATE journal SET at = at - interval '1 year' WHERE run_id = %s", (waiting,))

    def sweep() -> int:
        return queue.aconn(lambda conn: sweep_ended_runs(conn, None, timedelta(days=30)))

    assert sweep() == 2
    left = {r[0] for r in queue.all("SELECT id FROM runs")}
    assert left == {recent, waiting}
    assert queue.one("SELECT count(*) FROM journal WHERE run_id IN (%s, %s)", ended, asked) == (0,)
    assert queue.one("SELECT outcome FROM approvals WHERE run_id = %s", asked) == ("cancelled",)
    assert sweep() == 0


def test_a_running_worker_sweeps_from_its_heartbeat(queue: Queue) -> None:
    from backend.queue.commands import open_pool
    from backend.queue.worker import Worker

    old = queue.start(queue.save(flow("start:trigger", wires=[])))
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        _age(conn, old, "40 days")

    async def run_until_swept() -> bool:
        # The test's own trigger says when a run is deleted (no run's change is sent for a delete). Made
        # before the worker starts, whose heartbeat sweeps at once: nothing it deletes goes unheard.
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            await conn.execute(SWEPT_TRIGGER)
            await conn.execute("LISTEN test_run_swept")
            pool = open_pool(queue.url, size=5)
            await pool.open()
            stop = asyncio.Event()
            worker = asyncio.create_task(
                Worker(pool, retention=timedelta(days=30), approvals=ApprovalsPort()).run(stop)
            )
            try:
                async for swept in conn.notifies(timeout=60):
                    if swept.payload == str(old):
                        return True
                return False
            finally:
                stop.set()
                await worker
                await pool.close()
                await conn.execute("DROP TRIGGER test_run_swept ON runs; DROP FUNCTION test_run_swept()")

    assert asyncio.run(run_until_swept()), "the worker never swept"
    assert queue.one("SELECT count(*) FROM runs WHERE id = %s", old) == (0,)


SWEPT_TRIGGER = """
CREATE FUNCTION test_run_swept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('test_run_swept', OLD.id::text);
    RETURN OLD;
END $$;
CREATE TRIGGER test_run_swept AFTER DELETE ON runs FOR EACH ROW EXECUTE FUNCTION test_run_swept();
"""


def test_approvals_have_their_own_retention_and_only_the_sweep_may_delete_a_decided_one(queue: Queue) -> None:
    from backend.approvals.retention import record_retention, sweep_decided_approvals

    asked = queue.start(queue.save(ASK))
    fresh = queue.start(queue.save(ASK))
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        conn.execute(
            "UPDATE approvals SET outcome = 'approved', decided_by = 'ann',"
            " decided_at = now() - interval '3 years' WHERE run_id = %s",
            (asked,),
        )
        conn.execute(
            "UPDATE approvals SET outcome = 'rejected', decided_by = 'bob', decided_at = now()"
            " WHERE run_id = %s",
            (fresh,),
        )
    with psycopg.connect(queue.url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("DELETE FROM approvals WHERE run_id = %s", (asked,))

    # Only by the retention the schema's owner recorded (flowyard migrate): none recorded, nothing goes.
    assert queue.aconn(lambda conn: sweep_decided_approvals(conn, None, timedelta(days=365 * 2))) == 0
    with psycopg.connect(queue.url) as conn:
        assert record_retention(conn, timedelta(days=365 * 2))
    assert queue.aconn(lambda conn: sweep_decided_approvals(conn, None, timedelta(days=365 * 2))) == 1
    assert queue.all("SELECT run_id FROM approvals WHERE run_id IN (%s, %s)", asked, fresh) == [(fresh,)]
    with psycopg.connect(queue.url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("DELETE FROM approvals WHERE run_id = %s", (fresh,))  # the sweep's leave ended with it


def _sweep(queue: Queue, retention: timedelta) -> int:
    return queue.aconn(lambda conn: sweep_ended_runs(conn, None, retention))


def test_a_webhook_key_still_answers_its_run_after_the_run_was_swept(queue: Queue) -> None:
    flow_id = queue.save(flow("start:trigger", wires=[]))
    first = queue.start(flow_id, key="webhook:order-6")
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        _age(conn, first, "31 days")

    assert _sweep(queue, timedelta(days=30)) == 1
    assert queue.one("SELECT count(*) FROM runs WHERE id = %s", first) == (0,)

    again = queue.start(flow_id, key="webhook:order-6")

    assert again == first
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = %s", flow_id) == (0,)


def test_keys_go_after_their_own_retention_but_never_while_their_run_is_kept(queue: Queue) -> None:
    """With the keys' retention of 90 days (the default) and the runs' of 30."""
    flow_id = queue.save(flow("start:trigger", wires=[]))
    swept = queue.start(flow_id, key="webhook:old")
    waiting = queue.start(queue.save(DELAY), key="webhook:still-waiting")
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        _age(conn, swept, "100 days")
        conn.execute("UPDATE trigger_keys SET created_at = now() - interval '100 days'")

    _sweep(queue, timedelta(days=30))

    assert queue.all("SELECT key FROM trigger_keys ORDER BY key") == [("webhook:still-waiting",)]
    assert queue.start(flow_id, key="webhook:old") not in (swept, waiting)


def test_retention_counts_from_the_last_journal_line_not_only_from_the_end(queue: Queue) -> None:
    # Both runs ended 40 days ago; one had a line journaled yesterday (an answer that came back after its
    # try was given up is journaled whenever it comes, even after the run ended).
    quiet = queue.start(queue.save(flow("start:trigger", wires=[])))
    spoken = queue.start(queue.save(flow("start:trigger", wires=[])))
    queue.drain()
    with psycopg.connect(queue.url) as conn:
        _age(conn, quiet, "40 days")
        _age(conn, spoken, "40 days")
        conn.execute("UPDATE runs SET journal_seq = journal_seq + 1 WHERE id = %s", (spoken,))
        conn.execute(
            "INSERT INTO journal (run_id, seq, code, at)"
            " SELECT id, journal_seq, 'late_result_ignored', now() - interval '1 day'"
            " FROM runs WHERE id = %s",
            (spoken,),
        )

    assert _sweep(queue, timedelta(days=30)) == 1
    assert queue.all("SELECT id FROM runs WHERE id IN (%s, %s)", quiet, spoken) == [(spoken,)]
    assert queue.one("SELECT count(*) FROM journal WHERE run_id = %s", spoken) != (0,)

    # Quiet for a retention since that line, it goes like any other.
    with psycopg.connect(queue.url) as conn:
        conn.execute("UPDATE journal SET at = at - interval '30 days' WHERE run_id = %s", (spoken,))
    assert _sweep(queue, timedelta(days=30)) == 1
    assert queue.one("SELECT count(*) FROM runs WHERE id = %s", spoken) == (0,)
