"""The outcome batch: many walks written by one set-based statement, each still guarded by its own claim."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from backend.approvals.queue_port import ApprovalsPort
from tests.support import Queue, flow

LOG_FLOW = flow(
    "start:trigger",
    {"id": "note", "type": "log", "config": {"message": "hello {{trigger.who}}"}},
    wires=[{"from": "start", "to": "note"}],
)
DELAY_FLOW = flow(
    "start:trigger",
    {"id": "pause", "type": "delay", "config": {"duration": "PT1H"}},
    wires=[{"from": "start", "to": "pause"}],
)


async def _always_ours() -> bool:
    return True


def _walk_all(queue: Queue, count: int, spoil: Any = None) -> list[BaseException | None]:
    """Claim `count` due waits as worker "w", walk them, write all outcomes as one batch; what each write
    raised. `spoil(pool, outcomes)` may interfere between the walks and the write."""
    from backend.queue.batch import OutcomeBatch
    from backend.queue.claims import Claim
    from backend.queue.commands import open_pool
    from backend.queue.driver import walk_claim
    from backend.queue.flow_cache import FlowCache, load_run
    from backend.queue.ports import NoActions
    from backend.queue.queries import QUERIES
    from backend.queue.settle import Outcome

    approvals = ApprovalsPort(queue.clock)
    queue.clock.advance(timedelta(minutes=1))  # every start wait is due by the test's clock, however slow

    async def go() -> list[BaseException | None]:
        pool = open_pool(queue.url, size=4)
        await pool.open()
        try:
            async with pool.connection() as conn:
                params = {
                    "me": "w",
                    "limit": count,
                    "answered_limit": count,
                    "abandoned_limit": 1,
                    "due_limit": count,
                    "in_hand": [],
                    "now": queue.clock(),
                    "lease": timedelta(seconds=30),
                }
                cur = await conn.execute(QUERIES["claim"], params)
                claims = sorted((Claim.from_row(row) for row in await cur.fetchall()), key=lambda c: c.run_id)
            assert len(claims) == count
            flows, outcomes = FlowCache(), []
            for claim in claims:
                run = await load_run(pool, claim, flows)
                walked = await walk_claim(pool, claim, run, NoActions(), approvals, _always_ours)
                outcomes.append(Outcome(claim, run, walked, queue.clock()))
            if spoil is not None:
                outcomes = await spoil(pool, outcomes)
            batch = OutcomeBatch(pool, "w", approvals)
            results = await asyncio.gather(*(batch.write(o) for o in outcomes), return_exceptions=True)
            return [r if isinstance(r, BaseException) else None for r in results]
        finally:
            await pool.close()

    return queue.run(go)


def test_one_batch_writes_runs_that_end_and_runs_that_pause(queue: Queue) -> None:
    ends = [queue.start(queue.save(LOG_FLOW), input={"who": name}) for name in ("ann", "bob")]
    pauses = queue.start(queue.save(DELAY_FLOW))

    assert _walk_all(queue, 3) == [None, None, None]

    for run_id in ends:
        assert queue.status(run_id) == ("succeeded", None)
        assert queue.codes(run_id) == [
            "run_created",
            "node_visited",
            "node_visited",
            "log_written",
            "run_succeeded",
        ]
    assert queue.status(pauses) == ("waiting", None)
    wait = queue.one(
        "SELECT kind, node, status, claimed_by, attempts, wake_at FROM waits WHERE run_id = %s", pauses
    )
    assert wait == ("delay", "pause", "waiting", None, 0, queue.clock.now + timedelta(hours=1))
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = ANY(%s)", ends) == (0,)
    seqs = queue.all("SELECT seq FROM journal WHERE run_id = %s ORDER BY seq", ends[0])
    assert [s for (s,) in seqs] == [1, 2, 3, 4, 5], "numbered on from the run's last line, without gaps"


def test_a_lost_claim_writes_nothing_and_the_rest_of_its_batch_lands(queue: Queue) -> None:
    from backend.queue.claims import ClaimLost
    from backend.queue.runs import cancel_run

    runs = [queue.start(queue.save(LOG_FLOW), input={"who": name}) for name in ("ann", "bob", "eve")]

    async def cancel_bob(pool: Any, outcomes: list[Any]) -> list[Any]:
        async with pool.connection() as conn:
            assert await cancel_run(conn, runs[1], by="ann", approvals=ApprovalsPort())
        return outcomes

    results = _walk_all(queue, 3, cancel_bob)

    assert results[0] is None and results[2] is None
    assert isinstance(results[1], ClaimLost)
    assert queue.status(runs[0]) == ("succeeded", None) and queue.status(runs[2]) == ("succeeded", None)
    assert queue.status(runs[1])[0] == "cancelled"
    assert queue.codes(runs[1]) == ["run_created", "run_cancelled"], "the lost walk wrote no line"


def test_an_outcome_postgresql_refuses_fails_alone_and_the_others_land(queue: Queue) -> None:
    from backend.walker import JournalLine

    runs = [queue.start(queue.save(LOG_FLOW), input={"who": name}) for name in ("ann", "bob")]

    async def spoil_ann(pool: Any, outcomes: list[Any]) -> list[Any]:
        # A journal line PostgreSQL's jsonb refuses (NaN): the whole set-based write fails with it.
        bad = JournalLine(code="log_written", node="note", visit=2, data={"value": float("nan")})
        walked = outcomes[0].walked
        walked.journal = [*walked.journal, bad]
        return [replace(outcomes[0], walked=walked), *outcomes[1:]]

    results = _walk_all(queue, 2, spoil_ann)

    assert results[0] is not None and results[1] is None
    assert queue.status(runs[1]) == ("succeeded", None)
    assert queue.status(runs[0]) == ("waiting", None), "the refused outcome changed nothing"
    assert queue.codes(runs[0]) == ["run_created"]
    claimed = queue.one("SELECT status, claimed_by FROM waits WHERE run_id = %s", runs[0])
    assert claimed == ("claimed", "w"), (
        "still claimed: the worker's failure path (backoff) takes it from here"
    )


@pytest.mark.parametrize("count", [1, 25])
def test_workers_drain_many_runs_with_a_journal_each(queue: Queue, count: int) -> None:
    runs = [queue.start(queue.save(LOG_FLOW), input={"who": str(n)}) for n in range(count)]
    queue.clock.advance(timedelta(minutes=1))  # the last start waits are due by the test's clock too
    queue.drain(concurrency=10)
    for run_id in runs:
        assert queue.status(run_id) == ("succeeded", None)
        assert queue.codes(run_id)[-1] == "run_succeeded"


def test_a_broken_statement_fails_every_outcome_loudly_and_is_not_written_one_by_one(
    queue: Queue, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The one-by-one fallback is for a failure one outcome may own (a refused value, a deadlock): a
    statement that names a column that does not exist fails the same for every outcome, and must not be
    hidden behind the slower path that happens not to use it."""
    import psycopg

    from backend.queue.queries import QUERIES

    runs = [queue.start(queue.save(LOG_FLOW), input={"who": name}) for name in ("ann", "bob")]
    broken = QUERIES["write_walks"].replace("SELECT id AS wait_id,", "SELECT no_such_column AS wait_id,")
    assert broken != QUERIES["write_walks"]
    monkeypatch.setitem(QUERIES, "write_walks", broken)

    with caplog.at_level(logging.WARNING, logger="flowyard.worker"):
        results = _walk_all(queue, 2)

    assert [type(result) for result in results] == [psycopg.errors.UndefinedColumn] * 2
    assert not [r for r in caplog.records if "one by one" in r.getMessage()]
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    for run_id in runs:
        assert queue.status(run_id) == ("waiting", None) and queue.codes(run_id) == ["run_created"]


@pytest.mark.parametrize(
    ("statement", "spoiled"),
    [
        (("backend.queue.queries", "write_walks"), ("SELECT id AS wait_id,", "SELECT id / 0 AS wait_id,")),
        (("backend.approvals.queue_port", "insert_approvals"), ("SELECT a.run_id,", "SELECT a.run_id / 0,")),
    ],
)
def test_a_batch_statement_broken_for_every_outcome_fails_each_of_them_one_by_one_too(
    queue: Queue,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    statement: tuple[str, str],
    spoiled: tuple[str, str],
) -> None:
    """A failure one outcome may own (here a division by zero, SQLSTATE class 22) sends the batch one by
    one; that fallback is the same `settle` on a batch of one, so a statement that fails for every
    outcome fails each of them there too, instead of being written by a second implementation that does
    not use it (issue 37: every test once passed with a syntax error in `insert_approvals`)."""
    import importlib

    import psycopg

    from tests.queue.test_claim_reads import asking

    module, name = statement
    queries = importlib.import_module(module).QUERIES
    broken = queries[name].replace(*spoiled)
    assert broken != queries[name]
    monkeypatch.setitem(queries, name, broken)
    runs = [queue.start(queue.save(asking())) for _ in range(2)]  # each one asks: both statements run

    with caplog.at_level(logging.WARNING, logger="flowyard.worker"):
        results = _walk_all(queue, 2)

    assert [type(result) for result in results] == [psycopg.errors.DivisionByZero] * 2
    assert [r.getMessage() for r in caplog.records] == [
        "a batch of 2 outcomes failed; writing them one by one"
    ]
    for run_id in runs:
        assert queue.status(run_id) == ("waiting", None) and queue.codes(run_id) == ["run_created"]
        claimed = queue.one("SELECT status, claimed_by FROM waits WHERE run_id = %s", run_id)
        assert claimed == ("claimed", "w"), "nothing written: the worker's failure path takes it from here"
    assert queue.one("SELECT count(*) FROM approvals") == (0,)
