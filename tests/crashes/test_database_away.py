"""PostgreSQL going away under a busy drain of parallel runs: stopped and started again, or its connections
killed.

Real `flowyard serve` and `flowyard worker` processes keep running through it. Every run ends as it
would have without the outage; the API answers 503 `database_unavailable` while the database is away,
never a 500 and never a hang (the client's timeout would fail the test); the workers go on once it is
back (the runs ending is what shows it).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import psycopg
import pytest

from backend.store.migrations import migrate
from tests.api.support import make_user
from tests.observability.live import Live, started, wait_for
from tests.queue.test_workers import wait_until_ended
from tests.support import Queue, flow

RUNS = 150
# A parallel of two branches, each pausing on a short real-time delay, then a log once both are over: each
# run is claimed at least twice and holds two pauses in its one wait, so a drain of RUNS is busy for a while.
STEPS = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    {"id": "a", "type": "log", "config": {"message": "one"}},
    {"id": "pause", "type": "delay", "config": {"duration": "PT1S"}},
    {"id": "pause2", "type": "delay", "config": {"duration": "PT1S"}},
    {"id": "b", "type": "log", "config": {"message": "two"}},
    wires=[
        {"from": "start", "to": "both"},
        {"from": "both", "port": "branches", "to": "a"},
        {"from": "a", "to": "pause"},
        {"from": "both", "port": "branches", "to": "pause2"},
        {"from": "both", "port": "done", "to": "b"},
    ],
)
VISITED = ["start", "both", "a", "pause", "pause2", "b"]
# What a process may log with a traceback while its database is away: psycopg's connection failures.
GONE = re.compile(
    r"^psycopg(_pool)?\.(errors\.)?(OperationalError|AdminShutdown|PoolTimeout|CannotConnectNow)\b"
)


@contextmanager
def through_outage(command: list[str], url: str, log: Path) -> Iterator[Live]:
    """`started`, where a traceback is allowed when (and only when) it is of the database going away.

    `started` fails on any traceback in the log, after its process has stopped; a worker logs one for each
    heartbeat or claim round that met the outage. This reads those and lets only them through.
    """
    body_done = False
    try:
        with started(command, url, log) as live:
            yield live
            body_done = True
    except AssertionError:
        if not body_done:
            raise
        errors = [
            json.loads(text).get("error") for text in log.read_text().splitlines() if text.startswith("{")
        ]
        unexpected = [raised for raised in map(_raised, filter(None, errors)) if not GONE.match(raised)]
        assert unexpected == [], unexpected


def _raised(traceback: str) -> str:
    """The exception line of a formatted traceback: the first line that is not indented after its last
    frame (the message may go on below it, indented or not: PostgreSQL's `CONTEXT:` line is not)."""
    lines = traceback.strip().splitlines()
    frames = [i for i, line in enumerate(lines) if line.startswith("  File ")]
    after = lines[frames[-1] + 1 :] if frames else lines
    return next((line for line in after if not line[:1].isspace()), lines[-1])


def start_busy_drain(url: str, spread: timedelta = timedelta(0)) -> list[int]:
    """RUNS runs of STEPS, their starts due from now to now + `spread`, one after another: a spread keeps
    the drain busy that long, so that an outage can meet runs still open beside runs already ended."""
    queue = Queue(url)
    flow_id = queue.save(STEPS)
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, %s) RETURNING id",
            (flow_id, RUNS),
        ).fetchall()
        run_ids = [row[0] for row in rows]
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at)"
            " SELECT id, 'start', now() + %s * (n - 1) / %s"
            " FROM unnest(%s::bigint[]) WITH ORDINALITY AS s(id, n)",
            (spread, RUNS, run_ids),
        )
    return run_ids


def assert_ended_as_without_the_outage(url: str, run_ids: list[int]) -> None:
    with psycopg.connect(url) as conn:
        statuses = conn.execute(
            "SELECT status, count(*) FROM runs WHERE id = ANY(%s) GROUP BY status", (run_ids,)
        ).fetchall()
        visits = conn.execute(
            "SELECT array_agg(node ORDER BY seq) FROM journal"
            " WHERE run_id = ANY(%s) AND code = 'node_visited' GROUP BY run_id",
            (run_ids,),
        ).fetchall()
        logs = conn.execute(
            "SELECT count(*) FROM journal WHERE run_id = ANY(%s) AND code = 'log_written'", (run_ids,)
        ).fetchone()
        waits = conn.execute("SELECT count(*) FROM waits WHERE run_id = ANY(%s)", (run_ids,)).fetchone()
    assert statuses == [("succeeded", len(run_ids))]
    assert len(visits) == len(run_ids) and all(row[0] == VISITED for row in visits)
    assert logs == (2 * len(run_ids),), "each log written once"
    assert waits == (0,)


def ask(live: Live, token: str) -> httpx.Response:
    # A client's timeout well above the pool's wait (10 s): an answer, not a hang, is what is asserted.
    return httpx.get(f"{live.base}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=60)


def ask_together(live: Live, token: str, times: int = 3) -> list[httpx.Response]:
    """`times` requests at once: while the pool has no connection each waits out its 10 s, one after
    another they waited 20 s of the test's 40."""
    with ThreadPoolExecutor(times) as requests:
        return list(requests.map(lambda _: ask(live, token), range(times)))


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "database_unavailable"
    assert answer.headers["retry-after"] == "1"


def flowyard_db(data_dir: Path, action: str) -> str:
    """`flowyard db ACTION` on the embedded server in `data_dir`, as an operator types it: `url` starts it
    (a process of its own each time, as the server library remembers the servers it started)."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"FLOWYARD_DATA_DIR": str(data_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "db", action],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def embedded() -> Iterator[tuple[str, Path]]:
    """A migrated database on an embedded server of this test's own, which the test stops and starts; its
    data folder outside pytest's (whose parents the server's system user may not enter)."""
    data_dir = Path(tempfile.mkdtemp(prefix="flowyard-restart-"))
    try:
        url = flowyard_db(data_dir, "url")
        with psycopg.connect(url) as conn:
            migrate(conn)
        yield url, data_dir
    finally:
        flowyard_db(data_dir, "stop")
        shutil.rmtree(data_dir, ignore_errors=True)


def test_postgresql_restarted_in_a_busy_drain_loses_nothing(
    embedded: tuple[str, Path], tmp_path: Path
) -> None:
    url, data_dir = embedded
    token = make_user(url, "restart_admin", "admin")
    # The 1 s delays alone end every run within a second or two of the first: all had ended when the stop
    # came. Starts spread over 20 s keep runs open well past the tenth that must have ended first.
    with (
        through_outage(["serve", "--no-worker", "--port", "0"], url, tmp_path / "api.log") as api,
        through_outage(["worker", "--lease", "2"], url, tmp_path / "w1.log"),
        through_outage(["worker", "--lease", "2"], url, tmp_path / "w2.log"),
    ):
        assert ask(api, token).status_code == 200
        # Started once the three processes are up: started before them, the runs were all due and drained
        # while a machine at a load of 12 was still starting the API, and no moment had some runs open.
        run_ids = start_busy_drain(url, spread=timedelta(seconds=20))
        # in the middle of the drain: some runs ended, not all
        wait_for(
            url,
            "SELECT 1 WHERE (SELECT count(*) FROM runs WHERE ended_at IS NOT NULL) >= %s"
            " AND EXISTS (SELECT FROM runs WHERE ended_at IS NULL)",
            RUNS // 10,
            # three processes starting at a load of 20 took longer than a minute to end the tenth run
            timeout_s=240,
        )
        assert flowyard_db(data_dir, "stop").startswith("stopped")
        for answer in ask_together(api, token):
            assert_unavailable(answer)
        assert flowyard_db(data_dir, "url") == url
        wait_until_ended(url, run_ids, timeout_s=240)
        answers = ask_together(api, token)
    assert_ended_as_without_the_outage(url, run_ids)
    assert 0 < open_at_the_restart(url, run_ids) < RUNS, "the outage met a drain half done"
    for answer in answers:
        assert answer.status_code == 200 or answer.json()["error"]["code"] == "database_unavailable"


def open_at_the_restart(url: str, run_ids: list[int]) -> int:
    """How many of the runs ended after the server started again: those the outage found open (an end is
    stamped with the database's now(), in a transaction the stop would have broken off)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM runs WHERE id = ANY(%s) AND ended_at >= pg_postmaster_start_time()",
            (run_ids,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_connections_killed_at_random_in_a_busy_drain_lose_nothing(queue: Queue, tmp_path: Path) -> None:
    token = make_user(queue.url, "kill_admin", "admin")
    chance = random.Random(19)
    kills, answers = 0, []
    serve = ["serve", "--no-worker", "--port", "0"]
    with (
        through_outage(serve, queue.url, tmp_path / "api.log") as api,
        through_outage(["worker", "--lease", "2"], queue.url, tmp_path / "w1.log"),
        through_outage(["worker", "--lease", "2"], queue.url, tmp_path / "w2.log"),
        psycopg.connect(queue.url, autocommit=True) as killer,
    ):
        run_ids = start_busy_drain(queue.url)  # the workers are up: the kills land in the drain
        while True:
            left = killer.execute(
                "SELECT count(*) FROM runs WHERE id = ANY(%s) AND ended_at IS NULL", (run_ids,)
            ).fetchone()
            if left == (0,) or kills >= 40:
                break
            backends = killer.execute(
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
            if backends:
                killer.execute("SELECT pg_terminate_backend(%s)", (chance.choice(backends)[0],))
                kills += 1
            answers.append(ask(api, token))
            # Pacing the fault, not a wait: a kill every fifth of a second while the drain runs (forty at
            # most), so that the kills spread over the drain. Nothing waits on this pause; the runs' end is
            # waited for below, on the runs' changes.
            killer.execute("SELECT pg_sleep(0.2)")
        wait_until_ended(queue.url, run_ids, timeout_s=240)
    assert kills > 0
    assert_ended_as_without_the_outage(queue.url, run_ids)
    for answer in answers:
        assert answer.status_code == 200 or answer.json()["error"]["code"] == "database_unavailable", (
            answer.text
        )
