"""Answered waits first (issue 18): a wait someone answered (an approval decided, an event delivered) is
claimed before a backlog of waits that fell due before it, by a full claim round and by the answered-only
claim a worker makes when a NOTIFY finds its slots too few for a full round; and the outcome batch writes
answered outcomes before the rest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from backend.approvals.decisions import ApprovalDecisions
from backend.people.accounts import Grant, add_user
from backend.queue.claims import Claim
from backend.queue.store import claim_due
from tests.events.support import post, waiting_flow
from tests.queue.test_batch import LOG_FLOW
from tests.queue.test_claim_reads import asking
from tests.support import Queue

LEASE = timedelta(seconds=30)


def _claim(queue: Queue, limit: int, *, answered_only: bool = False) -> list[Claim]:
    async def go(conn: Any) -> list[Claim]:
        return await claim_due(conn, "w", limit, queue.clock(), LEASE, answered_only=answered_only)

    return queue.aconn(go)


def _backlog(queue: Queue, count: int) -> list[int]:
    """`count` runs due an hour before anything else: ordered by due time alone, they come first."""
    flow_id = queue.save(LOG_FLOW)
    runs = [queue.start(flow_id, input={"who": f"r{n}"}) for n in range(count)]
    queue.one(
        "UPDATE waits SET wake_at = wake_at - interval '1 hour' WHERE run_id = ANY(%s) RETURNING 1", runs
    )
    return runs


def _give_back(queue: Queue) -> None:
    """The hand-made claims back in the queue, and everything drained: the next test starts empty."""
    queue.all(
        "UPDATE waits SET status = 'waiting', claimed_by = NULL, claim_expires_at = NULL"
        " WHERE claimed_by = 'w' RETURNING id"
    )
    queue.drain()
    assert queue.one("SELECT count(*) FROM waits WHERE wake_at < 'infinity'") == (0,)


def test_a_decided_wait_is_claimed_before_a_backlog_due_before_it(queue: Queue) -> None:
    asked = queue.start(queue.save(asking()))
    queue.drain()  # parked at its approval, due never by time
    backlog = _backlog(queue, 5)
    approval = queue.one("SELECT id FROM approvals WHERE run_id = %s", asked)
    assert approval is not None
    queue.aconn(lambda conn: add_user(conn, "ann", grants=[Grant.parse("decide")]))
    queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(
            conn, approval[0], "approved", by="ann", comment=None
        )
    )

    first = _claim(queue, 1)
    rest = _claim(queue, 10)

    assert [(claim.run_id, claim.answered) for claim in first] == [(asked, True)]
    assert first[0].approval is not None and first[0].approval.outcome == "approved", "read by the claim"
    assert sorted(claim.run_id for claim in rest) == backlog
    assert not any(claim.answered for claim in rest)
    assert queue.one("SELECT count(*) FROM waits WHERE answered_at IS NOT NULL") == (0,), "a claim clears it"
    _give_back(queue)
    assert queue.status(asked) == ("succeeded", None)


def test_the_answered_only_claim_takes_answers_and_leaves_the_backlog(queue: Queue) -> None:
    waiting = queue.start(queue.save(waiting_flow()), input={"order": "o-1"})
    queue.drain()  # parked at its wait_event
    backlog = _backlog(queue, 3)
    assert post(queue, "paid", "o-1", {"amount": 5}).delivered

    answered = _claim(queue, 10, answered_only=True)
    again = _claim(queue, 10, answered_only=True)

    assert [(claim.run_id, claim.kind, claim.answered) for claim in answered] == [(waiting, "event", True)]
    assert again == [], "nothing else was answered; the backlog is left to full rounds"
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = ANY(%s) AND status = 'waiting'", backlog) == (
        3,
    )
    _give_back(queue)
    assert queue.status(waiting) == ("succeeded", None)


def test_the_batch_takes_answered_outcomes_first() -> None:
    from backend.queue.batch import OutcomeBatch
    from backend.queue.settle import Outcome

    def pending(wait_id: int, answered: bool) -> Any:
        now = datetime(2031, 5, 1, tzinfo=UTC)
        claim = Claim(wait_id, wait_id, "delay", None, None, None, 1, now, 1, 1, None, answered)
        return Outcome(claim, None, None, now), None  # type: ignore[arg-type]  # only the claim is read

    batch = OutcomeBatch(None, "w", None, size=3)  # type: ignore[arg-type]  # nothing is written
    batch._pending = [
        pending(1, False),
        pending(2, True),
        pending(3, False),
        pending(4, True),
        pending(5, False),
    ]

    assert [p[0].claim.wait_id for p in batch._take(answered_only=False)] == [2, 4, 1]
    assert [p[0].claim.wait_id for p in batch._pending] == [3, 5]
    batch._pending.append(pending(6, True))
    assert [p[0].claim.wait_id for p in batch._take(answered_only=True)] == [6]
    assert [p[0].claim.wait_id for p in batch._pending] == [3, 5], "the answered writer leaves the rest"


def test_answers_take_at_most_half_of_a_round_and_leave_the_rest_to_waits_due_by_time(queue: Queue) -> None:
    _backlog(queue, 3)
    flow_id = queue.save(LOG_FLOW)
    answered = [queue.start(flow_id, input={"who": f"a{n}"}) for n in range(4)]
    # A steady stream of answers, made by hand: four waits answered, more than half of a round of four.
    queue.all("UPDATE waits SET answered_at = now() WHERE run_id = ANY(%s) RETURNING id", answered)

    round_of_four = _claim(queue, 4)

    assert sorted(claim.answered for claim in round_of_four) == [False, False, True, True]
    assert not {claim.run_id for claim in round_of_four if not claim.answered} & set(answered)
    assert {claim.run_id for claim in round_of_four if claim.answered} <= set(answered)
    _give_back(queue)


# Last in the file: the 20,000 due waits it makes stay behind.
def test_claiming_from_a_large_backlog_reads_no_table_whole(queue: Queue) -> None:
    """Every wait due at once (a drain's start): the claim's limits are constants the planner sees, so it
    plans index reads of `limit` rows, not a tenth of the table (a limit computed from the answered count
    was estimated so, and scanned waits and runs whole on every claim)."""
    from backend.queue.queries import QUERIES
    from tests.support import sequential_scans

    flow_id = queue.save(LOG_FLOW)
    with psycopg.connect(queue.url) as conn:
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, 20000)",
            (flow_id,),
        )
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at)"
            " SELECT id, 'start', now() - interval '1 hour' FROM runs"
            " WHERE NOT EXISTS (SELECT 1 FROM waits WHERE waits.run_id = runs.id)"
        )
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE waits")
        conn.execute("VACUUM ANALYZE runs")
    full = {
        "me": "w",
        "limit": 10,
        "answered_limit": 5,
        "abandoned_limit": 1,
        "due_limit": 10,
        "in_hand": [1, 2],
        "now": None,
        "lease": LEASE,
    }
    answered_only = {**full, "answered_limit": 10, "abandoned_limit": 0, "due_limit": 0}
    for params in (full, answered_only):
        assert sequential_scans(queue.url, QUERIES["claim"], params, {"waits", "runs"}) == [], params
