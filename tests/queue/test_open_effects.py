"""Where h19's crash corpus meets h20's stopped runs: a try whose worker died before its outcome leaves the
effect open (`outcome IS NULL`). The sixth claim stops the run with `claim_abandoned`; while stopped the row
stays open (a resume tries again under the same key), and ending or cancelling the run closes it."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import psycopg
import pytest

from backend.approvals.queue_port import ApprovalsPort
from backend.queue.runs import cancel_run
from tests.actions.servers import RecordingServer, Reply, recording_server
from tests.actions.support import drain, effects
from tests.queue.test_stops import act, pay_flow
from tests.support import Queue


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def abandoned(queue: Queue, receiver: RecordingServer) -> int:
    """A run whose last try died after it was committed and before its outcome: the row is as that try
    left it (no outcome, its deadline still ahead: a person may end the run at once), and the wait has
    been claimed five times already."""
    receiver.routes["/pay"] = lambda _request: Reply(status=500)
    run_id = queue.start(queue.save(pay_flow()), input={"url": f"{receiver.url}/pay"})
    drain(queue)  # one try, answered 500: an error nothing built on, so the next try sends again
    with psycopg.connect(queue.url) as conn:
        conn.execute(
            "UPDATE effects SET outcome = NULL, output = NULL, completed_at = NULL,"
            " deadline_at = now() + interval '1 hour' WHERE run_id = %s",
            (run_id,),
        )
        conn.execute("UPDATE waits SET attempts = 5, wake_at = now() WHERE run_id = %s", (run_id,))
    drain(queue)
    assert queue.status(run_id) == ("stopped", "claim_abandoned")
    line = queue.one("SELECT node, visit FROM journal WHERE run_id = %s AND code = 'run_stopped'", run_id)
    assert line == ("pay", 2), "stopped at the action its walk died in, as a failing action stops"
    [row] = effects(queue, run_id)
    assert row["outcome"] is None, "stopped, the try stays in doubt: a resume sends again under its key"
    return run_id


def test_ending_a_run_stopped_by_an_abandoned_claim_closes_its_open_effect(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = abandoned(queue, receiver)

    act(queue, "end", run_id)

    assert queue.status(run_id) == ("failed", "run_ended_by_person")
    [row] = effects(queue, run_id)
    assert row["outcome"] == "error"
    assert row["output"] == {"code": "run_ended_by_person", "in_doubt": True}
    assert queue.one("SELECT count(*) FROM effects WHERE outcome IS NULL AND run_id = %s", run_id) == (0,)


def test_cancelling_a_run_stopped_by_an_abandoned_claim_closes_its_open_effect(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = abandoned(queue, receiver)

    async def cancel() -> bool:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await cancel_run(conn, run_id, by="ann", approvals=ApprovalsPort())

    assert queue.run(cancel)
    assert queue.status(run_id)[0] == "cancelled"
    [row] = effects(queue, run_id)
    assert (row["outcome"], row["output"]) == ("error", {"code": "run_cancelled", "in_doubt": True})


def test_resuming_a_run_stopped_by_an_abandoned_claim_sends_again_under_the_same_key(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = abandoned(queue, receiver)
    with psycopg.connect(queue.url) as conn:  # the dead try's deadline has passed: nothing is in flight
        conn.execute(
            "UPDATE effects SET deadline_at = now() - interval '1 second' WHERE run_id = %s", (run_id,)
        )
    [before] = effects(queue, run_id)
    receiver.routes["/pay"] = lambda _request: Reply()

    act(queue, "resume", run_id)
    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    [after] = effects(queue, run_id)
    assert (after["key"], after["outcome"], after["attempts"]) == (
        before["key"],
        "out",
        before["attempts"] + 1,
    )
    assert receiver.received[-1].headers["idempotency-key"] == before["key"]


def test_cancelling_a_waiting_run_leaves_a_try_within_its_deadline_to_its_worker(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/pay"] = lambda _request: Reply(status=500)
    runs = []
    for deadline in ("1 hour", "-1 second"):
        run_id = queue.start(queue.save(pay_flow()), input={"url": f"{receiver.url}/pay"})
        drain(queue)  # answered 500: waiting for its next attempt
        with psycopg.connect(queue.url) as conn:
            conn.execute(
                "UPDATE effects SET outcome = NULL, output = NULL, completed_at = NULL,"
                " deadline_at = now() + %s::interval WHERE run_id = %s",
                (deadline, run_id),
            )
        runs.append(run_id)

    async def cancel(run_id: int) -> bool:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await cancel_run(conn, run_id, by="ann", approvals=ApprovalsPort())

    for run_id in runs:
        assert queue.status(run_id)[0] == "waiting"
        assert queue.run(functools.partial(cancel, run_id))
    in_flight, dead = (effects(queue, run_id)[0] for run_id in runs)
    assert in_flight["outcome"] is None, "a try within its deadline may still answer: its worker writes it"
    assert (dead["outcome"], dead["output"]) == ("error", {"code": "run_cancelled", "in_doubt": True})
