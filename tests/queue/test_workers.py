"""Several worker processes on one database, and a worker killed in the middle of a walk."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

from tests.run_changes import wait_for
from tests.server_logs import server_log
from tests.support import Queue, flow

TWO_STEPS = flow(
    "start:trigger",
    {"id": "a", "type": "log", "config": {"message": "one"}},
    {"id": "b", "type": "log", "config": {"message": "two"}},
    wires=[{"from": "start", "to": "a"}, {"from": "a", "to": "b"}],
)


@contextmanager
def worker(url: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    env = dict(os.environ, DATABASE_URL=url)
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "worker", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            assert "is serving" in process.stdout.readline()
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                # Killed, so that a worker that does not stop fails the test here rather than hanging it
                # (leaving the `with`, Popen waits for its process with no bound).
                process.kill()
                raise
        assert process.stderr is not None
        errors = process.stderr.read()
        server_log("worker (test_workers)", errors)
        assert "Traceback" not in errors, errors


def wait_until_ended(url: str, run_ids: list[int], timeout_s: float = 180) -> None:
    """Until every run of `run_ids` has ended: looked at again at each run's change, bounded in time."""
    query = "SELECT count(*) FROM runs WHERE id = ANY(%s) AND ended_at IS NULL"
    wait_for(url, query, run_ids, want=(0,), timeout_s=timeout_s)


def test_four_workers_resume_two_thousand_due_waits_exactly_once(queue: Queue) -> None:
    flow_id = queue.save(TWO_STEPS)
    with psycopg.connect(queue.url) as conn:
        run_ids = [
            r[0]
            for r in conn.execute(
                "INSERT INTO runs (flow_id, version, status, trigger_kind)"
                " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, 2000) RETURNING id",
                (flow_id,),
            )
        ]
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at) SELECT unnest(%s::bigint[]), 'start', now()",
            (run_ids,),
        )
    with (
        worker(queue.url, "--concurrency", "10") as w1,
        worker(queue.url, "--concurrency", "10") as w2,
        worker(queue.url, "--concurrency", "10") as w3,
        worker(queue.url, "--concurrency", "10") as w4,
    ):
        # Not "all four registered": a fast drain may end before a slow-starting worker claims anything.
        wait_until_ended(queue.url, run_ids)
    assert [w.returncode for w in (w1, w2, w3, w4)] == [0, 0, 0, 0]

    by_status = dict(queue.all("SELECT status, count(*) FROM runs WHERE flow_id = %s GROUP BY 1", flow_id))
    assert by_status == {"succeeded": 2000}
    visits = queue.all(
        "SELECT node, count(*), count(DISTINCT run_id) FROM journal"
        " WHERE code = 'node_visited' GROUP BY node ORDER BY node"
    )
    assert visits == [("a", 2000, 2000), ("b", 2000, 2000), ("start", 2000, 2000)]
    lines_per_run = queue.all(
        "SELECT array_agg(code ORDER BY seq) FROM journal WHERE run_id = ANY(%s) GROUP BY run_id", run_ids
    )
    assert len(lines_per_run) == 2000
    once = ["node_visited", "node_visited", "log_written", "node_visited", "log_written", "run_succeeded"]
    assert {tuple(codes) for (codes,) in lines_per_run} == {tuple(once)}, "each run resumed exactly once"
    assert queue.one("SELECT count(*) FROM journal WHERE code = 'run_succeeded'") == (2000,)
    assert queue.one("SELECT count(*) FROM waits") == (0,)
    assert queue.one("SELECT count(*) FROM workers") == (0,), "a worker that stops cleanly leaves the list"


def test_a_worker_killed_mid_walk_leaves_the_run_to_the_next_worker_after_its_lease(queue: Queue) -> None:
    run_id = queue.start(queue.save(TWO_STEPS))
    with worker(queue.url, "--lease", "1", "--fault-point", "before_outcome") as doomed:
        assert doomed.stdout is not None
        assert doomed.stdout.readline().strip() == "fault point before_outcome reached"
        claimed = queue.one("SELECT status, claimed_by FROM waits WHERE run_id = %s", run_id)
        assert claimed is not None and claimed[0] == "claimed"
        doomed.send_signal(signal.SIGKILL)
    assert queue.status(run_id) == ("waiting", None)
    assert queue.codes(run_id) == ["run_created"], "the killed walk wrote nothing"

    with worker(queue.url, "--lease", "1"):
        wait_until_ended(queue.url, [run_id], timeout_s=60)

    assert queue.status(run_id) == ("succeeded", None)
    codes = queue.codes(run_id)
    assert codes.count("run_succeeded") == 1
    assert codes.count("node_visited") == 3


def test_sigterm_finishes_the_walk_in_hand_then_exits_with_nothing_half_written(
    queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.actions.servers import recording_server

    monkeypatch.setenv("FLOWYARD_ACTIONS_ALLOW", "127.0.0.1")  # the worker's environment
    with recording_server() as receiver:
        receiver.routes["/slow"] = receiver.hold()
        document = flow(
            "start:trigger",
            {"id": "call", "type": "http", "config": {"method": "POST", "url": f"{receiver.url}/slow"}},
            {"id": "note", "type": "log", "config": {"message": "answered {{call.status}}"}},
            wires=[{"from": "start", "to": "call"}, {"from": "call", "to": "note"}],
        )
        run_id = queue.start(queue.save(document))
        with worker(queue.url) as process:
            receiver.wait_for(1)  # the walk is in hand, waiting for the slow server
            process.send_signal(signal.SIGTERM)
            with pytest.raises(subprocess.TimeoutExpired):
                process.wait(timeout=1)  # it does not drop the walk in hand to exit
            receiver.release.set()
            assert process.wait(timeout=60) == 0
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.codes(run_id)[-1] == "run_succeeded"
    assert queue.one("SELECT count(*) FROM waits") == (0,)
    assert len(receiver.received) == 1
