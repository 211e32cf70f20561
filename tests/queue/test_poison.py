"""A poison run among ordinary ones: a run that kills every worker that walks it stops alone.

Workers claim in batches, and a worker that dies loses every claim it holds. A run that crashes its worker
each time it is walked (an action that exhausts memory, a value that kills the process) used to take the
runs claimed beside it down with it: released together, claimed together again, each kill counted an
abandoned attempt against all of them, and after five the whole batch stopped with `claim_abandoned`.
Here real worker processes are killed by the poison run (`--fault-poison-run`: the worker SIGKILLs itself
as it starts walking that run) and restarted, until every run has settled.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import IO

import psycopg
from psycopg import AsyncConnection, sql

from backend.api.stream import CHANNEL as RUNS_CHANNEL
from backend.queue.claims import MAX_ATTEMPTS
from backend.queue.queries import QUERIES
from backend.queue.runs import start_run
from backend.queue.store import claim_due
from tests.server_logs import server_log
from tests.support import Queue, flow

TWO_STEPS = flow(
    "start:trigger",
    {"id": "a", "type": "log", "config": {"message": "one"}},
    {"id": "b", "type": "log", "config": {"message": "two"}},
    wires=[{"from": "start", "to": "a"}, {"from": "a", "to": "b"}],
)
ORDINARY = 99
WORKERS = 2
# Long enough that a live worker keeps its claims through the stalls of a loaded machine (up to 4.8 s seen:
# docs/crashes.md), short enough for five leases to lapse within the test.
LEASE_S = "5"
SETTLED = ("succeeded", "failed", "stopped", "cancelled")
LEASE = timedelta(seconds=30)


def test_a_claim_takes_one_abandoned_wait_at_most_and_none_for_a_worker_holding_one(queue: Queue) -> None:
    flow_id = queue.save(TWO_STEPS)
    suspects = [queue.start(flow_id) for _ in range(3)]

    async def go(conn: AsyncConnection) -> None:
        # A worker claims the three and dies: its leases lapse (given here already lapsed) and are given back.
        gone = await claim_due(conn, "gone", 10, None, timedelta(seconds=-1))
        assert sorted(claim.run_id for claim in gone) == suspects
        assert not any(claim.abandoned for claim in gone)
        released = await (await conn.execute(QUERIES["release_expired_claims"], {"now": None})).fetchall()
        assert len(released) == 3
        fresh = (await start_run(conn, flow_id)).run_id

        first = await claim_due(conn, "me", 10, None, LEASE)
        assert [(claim.run_id, claim.abandoned) for claim in first] == [(suspects[0], True), (fresh, False)]
        read = await conn.execute("SELECT abandoned FROM waits WHERE id = %s", (first[0].wait_id,))
        cleared = await read.fetchone()
        assert cleared == (False,), "the next claim clears the mark; a lapse of that claim sets it again"

        assert await claim_due(conn, "me", 10, None, LEASE, suspect_in_hand=True) == []
        assert await claim_due(conn, "me", 10, None, LEASE, answered_only=True) == []
        second = await claim_due(conn, "other", 10, None, LEASE)
        assert [(claim.run_id, claim.abandoned, claim.attempts) for claim in second] == [
            (suspects[1], True, 2)
        ]

    queue.aconn(go)


class Crew:
    """Worker processes armed with the poison run, each started again when it dies."""

    def __init__(self, url: str, poison: int, logs: Path) -> None:
        self.url, self.poison, self.logs = url, poison, logs
        self.processes: list[tuple[subprocess.Popen[str], IO[str]]] = []
        self.killed = 0  # workers that ended by SIGKILL: the poison's doing, nothing else kills them here

    def start(self) -> subprocess.Popen[str]:
        # The log goes to a file: a pipe nobody reads while the test waits could fill up and stall a worker.
        log = (self.logs / f"worker-{len(self.processes)}.log").open("w+", encoding="utf-8")
        process = subprocess.Popen(
            [
                sys.executable, "-m", "backend.cli", "worker",
                "--concurrency", "10", "--lease", LEASE_S, "--fault-poison-run", str(self.poison),
            ],
            env=dict(os.environ, DATABASE_URL=self.url),
            stdout=subprocess.DEVNULL,
            stderr=log,
            text=True,
        )  # fmt: skip
        self.processes.append((process, log))
        return process

    def keep_up(self, alive: list[subprocess.Popen[str]]) -> list[subprocess.Popen[str]]:
        """The crew with each dead worker replaced; a worker that ended any other way than SIGKILL fails."""
        kept = []
        for process in alive:
            code = process.poll()
            if code is None:
                kept.append(process)
                continue
            assert code == -signal.SIGKILL, f"a worker ended with {code}, not by the poison"
            self.killed += 1
            kept.append(self.start())
        return kept

    def stop(self) -> None:
        for process, _ in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, log in self.processes:
            code = process.wait(timeout=120)
            log.seek(0)
            errors = log.read()
            log.close()
            server_log("worker (test_poison)", errors)
            if code != -signal.SIGKILL:
                assert "Traceback" not in errors, errors


def unsettled(url: str, run_ids: list[int]) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM runs WHERE id = ANY(%s) AND status <> ALL(%s)", (run_ids, list(SETTLED))
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_poison_run_stops_alone_and_the_runs_claimed_beside_it_succeed(
    queue: Queue, tmp_path: Path
) -> None:
    flow_id = queue.save(TWO_STEPS)
    with psycopg.connect(queue.url) as conn:
        ids = [
            row[0]
            for row in conn.execute(
                "INSERT INTO runs (flow_id, version, status, trigger_kind)"
                " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, %s) RETURNING id",
                (flow_id, ORDINARY + 1),
            )
        ]
        poison, ordinary = ids[0], ids[1:]
        # All due at once, the poison first: it is in the first batch a worker claims, beside nine others.
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at)"
            " SELECT id, 'start', now() - CASE WHEN id = %s THEN interval '1 minute' ELSE interval '0' END"
            " FROM unnest(%s::bigint[]) AS id",
            (poison, ids),
        )

    crew = Crew(queue.url, poison, tmp_path)
    try:
        with psycopg.connect(queue.url, autocommit=True) as changes:
            # Woken by what the test waits for: a run's change (the runs' NOTIFY, sent at commit) or a
            # worker's death (its pidfd becomes readable); nothing else.
            changes.execute(sql.SQL("LISTEN {}").format(sql.Identifier(RUNS_CHANNEL)))
            alive = [crew.start() for _ in range(WORKERS)]
            deadline = time.monotonic() + 300  # a loaded machine: each kill costs a lease and a start
            while unsettled(queue.url, ids) and time.monotonic() < deadline:
                deaths = [os.pidfd_open(process.pid) for process in alive]
                try:
                    select.select([changes.fileno(), *deaths], [], [], deadline - time.monotonic())
                finally:
                    for descriptor in deaths:
                        os.close(descriptor)
                for _ in changes.notifies(timeout=0):
                    pass  # read, so the socket is quiet until the next change
                alive = crew.keep_up(alive)
        assert unsettled(queue.url, ids) == 0, "runs still unsettled after 300 s"
    finally:
        crew.stop()

    assert queue.status(poison) == ("stopped", "claim_abandoned")
    stopped = queue.one(
        "SELECT data FROM journal WHERE run_id = %s AND code = 'resume_failed' ORDER BY seq DESC LIMIT 1",
        poison,
    )
    assert stopped is not None and stopped[0]["attempts"] == MAX_ATTEMPTS
    assert crew.killed == MAX_ATTEMPTS, "the poison killed a worker at each of its attempts, and only then"
    by_status = dict(
        queue.all("SELECT status, count(*) FROM runs WHERE id = ANY(%s) GROUP BY status", ordinary)
    )
    assert by_status == {"succeeded": ORDINARY}, "no run claimed beside the poison went down with it"
    once = queue.all(
        "SELECT count(*) FROM journal WHERE run_id = ANY(%s) AND code = 'run_succeeded'", ordinary
    )
    assert once == [(ORDINARY,)]
