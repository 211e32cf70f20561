"""Undo on cancel when something is done twice or dies halfway (found by the crash sweep's
`undo_on_cancel`): a cancel repeated while the run runs its undos changes nothing, and an undo that
succeeded in a walk that then failed (or died) is journaled `undo_done` by the next walk, once, never
sent again."""

from __future__ import annotations

import psycopg

from backend.approvals.queue_port import ApprovalsPort
from backend.queue.runs import cancel_run
from tests.actions.servers import Reply, recording_server
from tests.actions.support import drain, journal_data
from tests.queue.test_undo import booking, paths
from tests.support import Queue


def _cancel(queue: Queue, run_id: int) -> bool:
    async def go() -> bool:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await cancel_run(conn, run_id, by="ann", approvals=ApprovalsPort())

    done = queue.run(go)
    return bool(done)


def _undo_lines(queue: Queue, run_id: int) -> list[tuple[int | None, str | None, str]]:
    rows = queue.all(
        "SELECT visit, node, code FROM journal WHERE run_id = %s"
        " AND code IN ('run_undoing', 'undo_done', 'run_cancelled') ORDER BY seq",
        run_id,
    )
    return [(visit, node, code) for visit, node, code in rows]


def test_a_second_cancel_while_the_undos_run_changes_nothing(queue: Queue) -> None:
    with recording_server() as receiver:
        receiver.routes["/reserve"] = lambda _r: Reply(body=b'{"id": "r-1"}')
        receiver.routes["/charge"] = lambda _r: Reply(body=b'{"id": "c-9"}')
        run_id = queue.start(queue.save(booking(receiver.url)), input={"amount": 40})
        drain(queue)
        assert _cancel(queue, run_id) is True
        wait = queue.one("SELECT id, kind, wake_at FROM waits WHERE run_id = %s", run_id)

        # a person retrying the cancel that got no answer: the run is on its way to `cancelled` already
        assert _cancel(queue, run_id) is True
        assert queue.status(run_id) == ("waiting", None)
        assert queue.one("SELECT id, kind, wake_at FROM waits WHERE run_id = %s", run_id) == wait
        assert journal_data(queue, run_id, "run_undoing") == [{"by": "ann", "undos": "charge, reserve"}]

        drain(queue)
        assert queue.status(run_id) == ("cancelled", None)
        assert paths(receiver) == ["POST /reserve", "POST /charge", "POST /refund", "DELETE /reserve/r-1"]
        assert _undo_lines(queue, run_id) == [
            (None, None, "run_undoing"),
            (3, "charge", "undo_done"),
            (2, "reserve", "undo_done"),
            (None, None, "run_cancelled"),
        ]
        # and once it has ended, a cancel is refused as for every ended run
        assert _cancel(queue, run_id) is False


def test_an_undo_that_succeeded_before_an_older_one_failed_is_journaled_by_the_walk_that_finishes(
    queue: Queue,
) -> None:
    with recording_server() as receiver:
        receiver.routes["/reserve"] = lambda _r: Reply(body=b'{"id": "r-1"}')
        receiver.routes["/charge"] = lambda _r: Reply(body=b'{"id": "c-9"}')
        receiver.routes["/reserve/r-1"] = lambda _r: Reply(status=503)
        run_id = queue.start(queue.save(booking(receiver.url)), input={"amount": 40})
        drain(queue)
        _cancel(queue, run_id)
        drain(queue)  # the refund succeeds, the older undo fails: the walk is retried later
        assert journal_data(queue, run_id, "resume_failed")[0]["remaining"] == "reserve"
        assert _undo_lines(queue, run_id) == [(None, None, "run_undoing")]

        receiver.routes["/reserve/r-1"] = lambda _r: Reply()
        row = queue.one("SELECT wake_at FROM waits WHERE run_id = %s", run_id)
        assert row is not None
        queue.clock.now = max(queue.clock.now, row[0])
        drain(queue)

        assert queue.status(run_id) == ("cancelled", None)
        assert [p for p in paths(receiver) if p == "POST /refund"] == ["POST /refund"], "sent once"
        assert _undo_lines(queue, run_id) == [
            (None, None, "run_undoing"),
            (3, "charge", "undo_done"),
            (2, "reserve", "undo_done"),
            (None, None, "run_cancelled"),
        ]
        assert journal_data(queue, run_id, "undo_done") == [{"undo_visit": -3}, {"undo_visit": -2}]
