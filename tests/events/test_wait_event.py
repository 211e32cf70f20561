"""A run waits for an outside event, through the real queue and a real PostgreSQL (docs/events.md)."""

from __future__ import annotations

from datetime import timedelta

from tests.events.support import drain, logged, post, waiting_flow
from tests.support import Queue


def test_a_run_waits_and_goes_on_with_the_events_payload(queue: Queue) -> None:
    run_id = queue.start(queue.save(waiting_flow()), input={"order": "A-1"})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT kind, node FROM waits WHERE run_id = %s", run_id) == ("event", "wait")

    delivery = post(queue, "paid", "A-1", {"amount": 120})
    assert delivery.delivered
    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["paid 120"]
    row = queue.one("SELECT consumed_run, consumed_visit FROM events WHERE id = %s", delivery.event_id)
    assert row == (run_id, 2)


def test_an_early_event_is_kept_and_consumed_when_the_run_reaches_the_node(queue: Queue) -> None:
    early = post(queue, "cancelled", "B-1", {"amount": 5})
    assert not early.delivered
    run_id = queue.start(queue.save(waiting_flow()), input={"order": "B-1"})
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["cancelled 5"]
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", early.event_id) == (run_id,)


def test_an_event_older_than_the_nodes_keep_early_is_not_consumed(queue: Queue) -> None:
    old = post(queue, "paid", "C-1", {"amount": 1})
    queue.clock.advance(timedelta(hours=2))
    run_id = queue.start(queue.save(waiting_flow(keep_early="PT1H")), input={"order": "C-1"})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", old.event_id) == (None,)


def test_an_expired_event_is_not_consumed_and_is_swept(queue: Queue) -> None:
    old = post(queue, "paid", "D-1", {"amount": 1})
    queue.clock.advance(timedelta(days=1, minutes=1))  # past FLOWYARD_EVENTS_KEEP's default, a day
    run_id = queue.start(queue.save(waiting_flow(keep_early="P7D")), input={"order": "D-1"})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", old.event_id) == (None,)

    from backend.events.wake import sweep

    swept = queue.run(lambda: _sweep(queue, sweep))
    assert swept[0] >= 1
    assert queue.one("SELECT count(*) FROM events WHERE id = %s", old.event_id) == (0,)


async def _sweep(queue: Queue, sweep: object) -> tuple[int, int]:
    import psycopg

    from backend.events.wake import sweep as sweep_events

    async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
        return await sweep_events(conn, queue.clock(), timedelta(days=90))


def test_the_timeout_port_is_followed_when_no_event_comes(queue: Queue) -> None:
    run_id = queue.start(queue.save(waiting_flow(timeout="PT1H")), input={"order": "E-1"})
    drain(queue)
    queue.clock.advance(timedelta(minutes=59))
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    queue.clock.advance(timedelta(minutes=2))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["timeout "]
    # The pause is closed: a late event is kept, not given to the run that timed out.
    assert not post(queue, "paid", "E-1").delivered


def test_two_runs_with_different_keys_each_get_their_own_event(queue: Queue) -> None:
    flow_id = queue.save(waiting_flow())
    first = queue.start(flow_id, input={"order": "F-1"})
    second = queue.start(flow_id, input={"order": "F-2"})
    drain(queue)
    assert post(queue, "paid", "F-2", {"amount": 2}).delivered
    drain(queue)
    assert queue.status(second) == ("succeeded", None)
    assert queue.status(first) == ("waiting", None)
    assert post(queue, "cancelled", "F-1", {"amount": 1}).delivered
    drain(queue)
    assert logged(queue, first) == ["cancelled 1"]
    assert logged(queue, second) == ["paid 2"]


def test_the_same_event_posted_twice_is_consumed_once(queue: Queue) -> None:
    run_id = queue.start(queue.save(waiting_flow()), input={"order": "G-1"})
    drain(queue)
    first = post(queue, "paid", "G-1", {"amount": 1})
    second = post(queue, "paid", "G-1", {"amount": 1})
    assert (first.delivered, second.delivered) == (True, False)
    drain(queue)
    assert logged(queue, run_id) == ["paid 1"]
    consumed = queue.all("SELECT consumed_run FROM events WHERE key = 'G-1' ORDER BY id")
    assert consumed == [(run_id,), (None,)]


def test_the_oldest_waiting_pause_takes_the_event(queue: Queue) -> None:
    flow_id = queue.save(waiting_flow())
    older = queue.start(flow_id, input={"order": "H-1"})
    drain(queue)
    queue.clock.advance(timedelta(seconds=1))
    newer = queue.start(flow_id, input={"order": "H-1"})
    drain(queue)
    assert post(queue, "paid", "H-1", {"amount": 3}).delivered
    drain(queue)
    assert queue.status(older) == ("succeeded", None)
    assert queue.status(newer) == ("waiting", None)


def test_an_empty_key_fails_the_run_with_a_reason(queue: Queue) -> None:
    run_id = queue.start(queue.save(waiting_flow()), input={"order": ""})
    missing = queue.start(queue.save(waiting_flow(key="{{trigger.nothing}}")), input={})
    drain(queue)
    assert queue.status(run_id) == ("failed", "event_key_missing")
    assert queue.status(missing) == ("failed", "event_key_missing")


def test_a_key_longer_than_the_limit_fails_the_run_and_one_at_the_limit_waits(queue: Queue) -> None:
    flow_id = queue.save(waiting_flow())
    too_long = queue.start(flow_id, input={"order": "k" * 201})
    at_limit = queue.start(flow_id, input={"order": "k" * 200})
    drain(queue)
    assert queue.status(too_long) == ("failed", "event_key_too_long")
    assert queue.status(at_limit) == ("waiting", None)
    assert queue.one("SELECT length(key) FROM event_waits WHERE run_id = %s", at_limit) == (200,)


def test_a_keep_early_of_nothing_takes_only_events_that_arrive_while_the_run_waits(queue: Queue) -> None:
    """The transient trigger: an event that came before the run reached the node does not count."""
    before = post(queue, "paid", "T-1", {"amount": 1})
    queue.clock.advance(timedelta(seconds=1))
    run_id = queue.start(queue.save(waiting_flow(keep_early="PT0S")), input={"order": "T-1"})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", before.event_id) == (None,)
    assert post(queue, "paid", "T-1", {"amount": 2}).delivered
    drain(queue)
    assert logged(queue, run_id) == ["paid 2"]


def test_an_event_kept_while_the_run_was_stopped_is_taken_once_it_is_resumed(queue: Queue) -> None:
    from backend.queue.stops import resume_run

    run_id = queue.start(queue.save(waiting_flow()), input={"order": "S-1"})
    drain(queue)
    # As the fifth failed resume leaves it (queue/stops.py): the run and its wait stopped.
    queue.one("UPDATE runs SET status = 'stopped' WHERE id = %s RETURNING id", run_id)
    queue.one(
        "UPDATE waits SET status = 'stopped', wake_at = 'infinity' WHERE run_id = %s RETURNING id", run_id
    )
    kept = post(queue, "paid", "S-1", {"amount": 7})
    assert not kept.delivered, "a stopped run takes no event"
    queue.aconn(lambda conn: resume_run(conn, run_id, by="test"))
    drain(queue)
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["paid 7"]
    assert queue.one("SELECT consumed_run FROM events WHERE id = %s", kept.event_id) == (run_id,)


def test_events_wake_the_workers_on_the_channel_they_listen_on() -> None:
    from backend.events.store import WAKE_CHANNEL
    from backend.queue.runs import NOTIFY_CHANNEL

    assert WAKE_CHANNEL == NOTIFY_CHANNEL


def test_a_cancelled_run_takes_no_event_and_its_pause_is_swept(queue: Queue) -> None:
    from backend.approvals.queue_port import ApprovalsPort
    from backend.events.wake import sweep
    from backend.queue.runs import cancel_run

    run_id = queue.start(queue.save(waiting_flow()), input={"order": "X-1"})
    drain(queue)
    assert queue.aconn(lambda conn: cancel_run(conn, run_id, by="test", approvals=ApprovalsPort()))
    assert not post(queue, "paid", "X-1").delivered, "kept for a run that waits, not given to a cancelled one"
    queue.aconn(lambda conn: sweep(conn, queue.clock(), timedelta(days=90)))
    assert queue.one("SELECT count(*) FROM event_waits WHERE run_id = %s", run_id) == (0,)
