"""Crash after (and before) every commit: the reduced corpus of `make test`, and the counter itself in a
worker and a CLI command.

Every commit index of one scenario, the middle index of each other scenario (and the first and last of
the actions' scenario; five indexes spread over the branch retry's, issue 35; the indexes of a violation
the full sweep found instead of the middle one), before and after, each followed by a fresh player taking
over; bench/crash_sweep.py runs every index of the whole corpus (some thirty minutes, past what `make
test` may spend: the branch retry alone is 30 commits, 60 crashes and two minutes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from queue import Empty, SimpleQueue

import httpx
import psycopg
import pytest

from backend.store import commits
from backend.store.errors import StoreError
from tests.actions.servers import recording_server
from tests.api.support import auth, make_user
from tests.crashes.conftest import REPORTS
from tests.crashes.scenarios import (
    ACTIONS,
    BRANCH_RETRY,
    CORPUS,
    DELAYS_AND_MISSING,
    UNDO,
    UNHANDLED,
    Scenario,
)
from tests.crashes.sweep import Sweep, Tally, report
from tests.observability.live import Live, started
from tests.queue.test_workers import wait_until_ended, worker
from tests.support import Queue, flow

FULL = (DELAYS_AND_MISSING,)
# Ks the full sweep found a violation at, kept as regressions: `action_without_error_port` crashed between
# its last try's outcome and the failure it leads to (after commit 38 or 39, before 40) stopped at its wait,
# naming no node, where the crash-free run stops at `broken` (the abandoned claim now names the action).
# `undo_on_cancel` crashed after its cancel (the replayed cancel started the undos over) or after its undo
# succeeded (the takeover journaled no `undo_done`): queue/runs.py and queue/undo.py now keep both whole.
REGRESSIONS = {UNHANDLED.name: (38, 39, 40), UNDO.name: (9, 12)}
# Sweeps side by side, each with a database, a receiver and a crash driver of its own, taking the next
# scenario as they finish one: a trial mostly waits (for its processes, for PostgreSQL, for a dead try's
# deadline), and one sweep took some 100 s alone.
LANES = 3

ONE_STEP = flow(
    "start:trigger",
    {"id": "a", "type": "log", "config": {"message": "one"}},
    wires=[{"from": "start", "to": "a"}],
)


def _sample(sweep: Sweep, scenario: Scenario) -> tuple[int, int]:
    """The scenario's trials: every K of a FULL one, else the Ks below; (its commits if FULL, Ks sampled)."""
    if scenario in FULL:
        return sweep.scenario(scenario), 0
    reference, commits_made = sweep.reference(scenario)
    # The actions' scenario also at its ends: its last commits are where a lost outcome hid.
    ends = {1, commits_made} if scenario is ACTIONS else set()
    if scenario is BRANCH_RETRY:  # its retries' commits, spread from the first to the last
        ends = {1 + (commits_made - 1) * i // 4 for i in range(5)}
    found = REGRESSIONS.get(scenario.name, ())
    ks = sorted(set(found) or {max(1, commits_made // 2), *ends})
    sweep.crash_at(scenario, reference, ks)
    return 0, len(ks)


def _lane(url: str, todo: SimpleQueue[Scenario]) -> tuple[Tally, int, int]:
    """Sweeps scenarios from `todo` in the database at `url` until none is left; its tally, the commits
    of its FULL scenarios and the Ks it sampled of the others."""
    full = sampled = 0
    with recording_server() as receiver, Sweep(url, receiver) as sweep:
        while True:
            try:
                scenario = todo.get_nowait()
            except Empty:
                return sweep.tally, full, sampled
            every, some = _sample(sweep, scenario)
            full, sampled = full + every, sampled + some


def test_the_reduced_corpus_keeps_every_invariant_at_every_crash(
    migrated_databases: Callable[[], str],
) -> None:
    began = time.monotonic()
    todo: SimpleQueue[Scenario] = SimpleQueue()
    # the longest first, so that no lane starts one when the others are done
    for scenario in (*FULL, BRANCH_RETRY, *(s for s in CORPUS if s not in (*FULL, BRANCH_RETRY))):
        todo.put(scenario)
    urls = [migrated_databases() for _ in range(LANES)]
    with ThreadPoolExecutor(LANES) as lanes:
        swept = list(lanes.map(lambda url: _lane(url, todo), urls))
    tally, full, sampled = Tally(), 0, 0
    for lane, every, some in swept:
        tally.add(lane)
        full, sampled = full + every, sampled + some
    REPORTS.append("crash sweep (reduced corpus): " + report(tally, time.monotonic() - began))
    assert tally.violations == []
    # every K of the full scenario crashed its process, and the sampled Ks of each other scenario did
    assert tally.crashes + tally.passed_the_end == 2 * (full + sampled)
    assert tally.crashes >= 2 * full
    assert set(tally.per_scenario) == {scenario.name for scenario in CORPUS}
    assert tally.effects_sent > 0 and tally.invariants > 0


def _cli(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        env=os.environ | {"DATABASE_URL": url} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_cli_command_exits_at_its_commit_and_a_run_is_started_whole_or_not_at_all(queue: Queue) -> None:
    flow_id = queue.save(ONE_STEP)
    outcomes = []
    for k in range(1, 10):
        for mode, name in (("before", commits.BEFORE_ENV), ("after", commits.AFTER_ENV)):
            runs_before = queue.one("SELECT count(*) FROM runs")
            done = _cli(queue.url, "run", str(flow_id), **{name: str(k)})
            runs_after = queue.one("SELECT count(*) FROM runs")
            assert runs_before is not None and runs_after is not None
            started = runs_after[0] - runs_before[0]
            if done.returncode == 0:
                assert started == 1 and "started run" in done.stdout
                outcomes.append((mode, k, "done"))
                continue
            assert done.returncode == commits.CRASH_EXIT_CODE, done.stderr
            assert f"crash_{mode}_commit={k}" in done.stderr
            assert "started run" not in done.stdout
            outcomes.append((mode, k, "started" if started else "nothing"))
        if outcomes[-1][2] == "done" and outcomes[-2][2] == "done":
            break
    # a run and its start wait are one commit: never one without the other
    assert queue.one(
        "SELECT count(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM journal j WHERE j.run_id = r.id)"
    ) == (0,)
    no_wait = (
        "SELECT count(*) FROM runs r"
        " WHERE ended_at IS NULL AND NOT EXISTS (SELECT 1 FROM waits w WHERE w.run_id = r.id)"
    )
    assert queue.one(no_wait) == (0,)
    kinds = {outcome for _, _, outcome in outcomes}
    assert kinds == {"nothing", "started", "done"}, outcomes
    # crashing after the commit that started the run leaves it started; before that commit, nothing
    first_started = min(k for mode, k, outcome in outcomes if mode == "after" and outcome == "started")
    assert ("before", first_started, "nothing") in outcomes


def test_a_worker_exits_right_after_its_commit_and_a_fresh_one_finishes_the_run(queue: Queue) -> None:
    run_id = queue.start(queue.save(ONE_STEP))
    # its first commit is the migration check every command makes; the fourth is made while serving
    env = os.environ | {"DATABASE_URL": queue.url, commits.AFTER_ENV: "4"}
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "worker", "--lease", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as doomed:
        try:
            said, errors = doomed.communicate(timeout=120)
        finally:
            if doomed.poll() is None:
                doomed.kill()
    assert doomed.returncode == commits.CRASH_EXIT_CODE
    assert "is serving" in said
    assert "crash_after_commit=4: exiting now" in errors and "Traceback" not in errors
    with worker(queue.url, "--lease", "1"):
        wait_until_ended(queue.url, [run_id], timeout_s=60)
    assert queue.status(run_id) == ("succeeded", None)
    assert queue.codes(run_id).count("log_written") == 1


def _commits_before_served(log: Path) -> int:
    """The commits the process made before it logged its first request as served."""
    text = log.read_text()
    return text[: text.index('"request served"')].count("flowyard: commit ")


def test_an_api_process_exits_at_its_commit_and_a_save_stands_whole_or_not_at_all(
    queue: Queue, tmp_path: Path
) -> None:
    token = make_user(queue.url, "crash_api_editor", "edit")
    serve = ["serve", "--no-worker", "--port", "0"]

    def save(live: Live) -> httpx.Response:
        return httpx.post(f"{live.base}/api/flows", json=ONE_STEP, headers=auth(token), timeout=60)

    # Counted first: the serve's own start-up commits, then the save's, whose last one is the flow's.
    with started(serve, queue.url, tmp_path / "count.log", **{commits.COUNT_ENV: "1"}) as live:
        assert save(live).status_code == 201
    # Read once the process has ended: its stderr reaches the file through a thread (LogPump), and read
    # at the answer the save's own commit line could still be on its way (CI once crashed a commit early).
    saved_at = _commits_before_served(tmp_path / "count.log")
    flows = queue.one("SELECT count(*) FROM flows")
    assert flows is not None

    for mode, name, made in (("before", commits.BEFORE_ENV, 0), ("after", commits.AFTER_ENV, 1)):
        log = tmp_path / f"{mode}.log"
        with started(serve, queue.url, log, **{name: str(saved_at)}) as live:
            with pytest.raises(httpx.TransportError):  # the process is gone before it could answer
                save(live)
            assert live.process.wait(timeout=60) == commits.CRASH_EXIT_CODE
        assert f"crash_{mode}_commit={saved_at}: exiting now" in log.read_text()
        assert queue.one("SELECT count(*) FROM flows") == (flows[0] + made,)
        unversioned = (
            "SELECT count(*) FROM flows f"
            " WHERE NOT EXISTS (SELECT 1 FROM flow_versions v WHERE v.flow_id = f.id)"
        )
        assert queue.one(unversioned) == (0,), "a flow and its version 1 are one commit"
        flows = (flows[0] + made,)


def test_unarmed_nothing_is_wrapped_and_a_bad_setting_is_refused() -> None:
    original = psycopg.AsyncCursor.execute
    assert commits.arm_from_environment({}) is False
    assert psycopg.AsyncCursor.execute is original and commits.counted() is None
    with pytest.raises(StoreError) as three:
        commits.arm_from_environment({commits.AFTER_ENV: "three"})
    assert (three.value.code, three.value.params) == (
        "crash_setting_invalid",
        {"name": commits.AFTER_ENV, "given": "three"},
    )
    with pytest.raises(StoreError):
        commits.arm_from_environment({commits.BEFORE_ENV: "0"})
    assert psycopg.AsyncCursor.execute is original
