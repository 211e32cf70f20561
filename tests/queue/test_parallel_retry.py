"""One failing action no longer holds back every branch of a parallel (issue 35, item 2): the branch whose
action failed with no `error` port is tried again after the queue's backoff, as a pause of its own, while
the other branches' approvals are requested and their mails sent; a branch that fails its last attempt
fails the run and closes the others' open approvals as `run_failed`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from backend.actions import ActionSender, ActionSettings
from backend.actions.destinations import AllowList
from backend.approvals.queue_port import ApprovalsPort
from backend.faults import Faults
from backend.i18n.zones import format_moment
from backend.queue.claims import MAX_ATTEMPTS, backoff
from backend.queue.watch import run_state
from tests.actions.servers import Received, RecordingServer, Reply, recording_server, smtp_server
from tests.actions.support import LOCAL, drain, effects, journal_data
from tests.queue.test_parallel import approvals, ask, decide, note, pauses, people, send_mails
from tests.support import Queue, flow


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def http(node_id: str, path: str) -> dict[str, Any]:
    url = "{{trigger.base}}" + path
    return {"id": node_id, "type": "http", "config": {"method": "POST", "url": url, "body": {"n": node_id}}}


# Branch 1 sends two actions around branch 2's failing one (its second one's visit comes after the failing
# visit: an effect after it, which must not make its error stand), then asks Lea; branch 2 pays.
BRANCHES = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    http("ping", "/ping"),
    http("ping_again", "/ping"),
    ask("legal", approvers=["user:lea"]),
    http("pay", "/pay"),
    note("paid"),
    note("after"),
    wires="start>both both.branches>ping ping>ping_again ping_again>legal both.branches>pay pay>paid"
    " both.done>after",
)


def failing(receiver: RecordingServer) -> None:
    receiver.routes["/pay"] = lambda _r: Reply(500, b'{"error": "down"}')


def at(queue: Queue, receiver: RecordingServer, path: str) -> list[Received]:
    return [r for r in receiver.received if r.path == path]


def test_a_failing_branch_backs_off_while_the_other_asks_for_its_approval_then_recovers(
    queue: Queue, receiver: RecordingServer
) -> None:
    people(queue)
    failing(receiver)
    run_id = queue.start(queue.save(BRANCHES), input={"base": receiver.url})
    drain(queue)
    assert queue.status(run_id) == ("waiting", None), "the run goes on waiting, not backing off whole"
    assert approvals(queue, run_id) == [("legal", None)], "branch 1's approval is requested"
    mails = queue.all(
        "SELECT m.user_name FROM approval_mails AS m JOIN approvals AS a ON a.id = m.approval_id"
        " WHERE a.run_id = %s",
        run_id,
    )
    assert mails == [("lea",)]
    with smtp_server() as (box, port):
        assert send_mails(queue, port) >= 1
        box.wait_for_mail_to("lea@example.test")
    due = pauses(queue, run_id)
    pay = next(key for key in due if key.startswith("pay@"))
    assert due[pay]["kind"] == "retry" and due[pay]["attempt"] == 1
    assert due[pay]["request"]["config"]["url"] == f"{receiver.url}/pay"
    wait = queue.one("SELECT kind, node, wake_at, attempts, last_error FROM waits WHERE run_id = %s", run_id)
    assert wait == ("retry", "pay", queue.clock.now + backoff(1), 0, None), "no whole-claim backoff"
    state = queue.aconn(lambda conn: run_state(conn, run_id, ApprovalsPort()))
    assert state is not None and state.settled
    next_try = format_moment(queue.clock.now + backoff(1), "en")
    retrying, asking = state.sentence.splitlines()
    assert retrying.startswith(f"Run {run_id}: the action at node pay failed; its branch tries it again at")
    assert next_try in retrying and "(attempt 2 of 5)" in retrying
    assert asking.startswith(f"Run {run_id} is waiting for approval ") and asking.endswith("at node legal.")
    retried = journal_data(queue, run_id, "action_retry_later")
    assert len(retried) == 1
    assert retried[0]["error"] == "http_status_error" and retried[0]["attempt"] == 1
    assert retried[0]["retry_in_s"] == 60 and retried[0]["attempts"] == MAX_ATTEMPTS
    assert "resume_failed" not in queue.codes(run_id)

    receiver.routes["/pay"] = lambda _r: Reply(200, b'{"paid": true}')
    queue.clock.advance(backoff(1))
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert [key.split("@")[0] for key in pauses(queue, run_id)] == ["legal"]
    sent = at(queue, receiver, "/pay")
    assert len(sent) == 2 and len({r.headers["idempotency-key"] for r in sent}) == 1, "the same effect key"
    paid = next(e for e in effects(queue, run_id) if e["node"] == "pay")
    assert (paid["attempts"], paid["outcome"]) == (2, "out")
    assert "paid" in [r[0] for r in queue.all("SELECT node FROM journal WHERE run_id = %s", run_id)]

    decide(queue, run_id, "legal", "approved", "lea")
    queue.clock.advance(timedelta(seconds=10))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert len(at(queue, receiver, "/pay")) == 2 and len(at(queue, receiver, "/ping")) == 2


def test_a_branch_failing_its_last_attempt_fails_the_run_and_closes_the_others_approval(
    queue: Queue, receiver: RecordingServer
) -> None:
    people(queue)
    failing(receiver)
    run_id = queue.start(queue.save(BRANCHES), input={"base": receiver.url})
    drain(queue)
    for attempt in range(1, MAX_ATTEMPTS):
        assert queue.status(run_id) == ("waiting", None)
        assert approvals(queue, run_id) == [("legal", None)]
        queue.clock.advance(backoff(attempt))
        drain(queue)
    assert queue.status(run_id) == ("failed", "action_failed")
    assert approvals(queue, run_id) == [("legal", "run_failed")]
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
    sent = at(queue, receiver, "/pay")
    assert len(sent) == MAX_ATTEMPTS and len({r.headers["idempotency-key"] for r in sent}) == 1
    retried = journal_data(queue, run_id, "action_retry_later")
    assert [line["attempt"] for line in retried] == list(range(1, MAX_ATTEMPTS))
    assert [line["retry_in_s"] for line in retried] == [60, 120, 240, 480]
    exhausted = journal_data(queue, run_id, "branch_attempts_exhausted")
    assert exhausted == [{"attempts": MAX_ATTEMPTS, "error": "http_status_error"}]
    assert queue.codes(run_id)[-1] == "run_failed"


NOTIFY = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    ask("legal", approvers=["user:lea"]),
    {
        "id": "tell",
        "type": "notify",
        "config": {"channel": "email", "to": "ops@example.test", "message": "tell ops"},
    },
    note("after"),
    wires="start>both both.branches>legal both.branches>tell both.done>after",
)


def test_with_smtp_unset_a_notify_branch_waits_for_it_while_the_approval_mail_goes_out(
    queue: Queue,
) -> None:
    """The outside audit's case: SMTP unset for actions, a notify in branch 2."""
    people(queue)
    run_id = queue.start(queue.save(NOTIFY))
    drain(queue)  # LOCAL: no SMTP host
    assert approvals(queue, run_id) == [("legal", None)]
    assert [line["error"] for line in journal_data(queue, run_id, "action_retry_later")] == [
        "notify_email_unconfigured"
    ]
    with smtp_server() as (box, port):
        assert send_mails(queue, port) >= 1
        box.wait_for_mail_to("lea@example.test")
        queue.clock.advance(backoff(1))
        smtp = ActionSettings(allow=AllowList.parse("127.0.0.1"), smtp_host="127.0.0.1", smtp_port=port)
        drain(queue, smtp)
        box.wait_for_mail_to("ops@example.test")
    assert [key.split("@")[0] for key in pauses(queue, run_id)] == ["legal"]
    decide(queue, run_id, "legal", "approved", "lea")
    queue.clock.advance(timedelta(seconds=10))
    drain(queue, LOCAL)
    assert queue.status(run_id) == ("succeeded", None)


SEQUENTIAL = flow(
    "start:trigger",
    http("pay", "/pay"),
    note("after"),
    wires="start>pay pay>after",
)


def test_without_a_parallel_a_failing_action_still_backs_off_the_whole_claim(
    queue: Queue, receiver: RecordingServer
) -> None:
    failing(receiver)
    run_id = queue.start(queue.save(SEQUENTIAL), input={"base": receiver.url})
    drain(queue)
    wait = queue.one("SELECT kind, attempts, last_error, pauses FROM waits WHERE run_id = %s", run_id)
    assert wait == ("start", 1, "http_status_error", None)
    assert "action_retry_later" not in queue.codes(run_id)
    assert queue.codes(run_id)[-1] == "resume_failed"


class _DiesBeforeItsOutcome(Faults):
    """The worker's walk ends, and its outcome is never written (as if it died there): the claim stays
    taken until its lease lapses."""

    async def reach(self, point: str) -> None:
        if point == "before_outcome":
            raise RuntimeError("died before writing the outcome")


def drain_dying(queue: Queue) -> None:
    queue.drain(
        lambda pool: ActionSender(pool, LOCAL),
        pool_size=4,
        name="doomed-worker",
        faults=_DiesBeforeItsOutcome(),
    )


# The failing action comes first in branch order; the other branch's second action is given its visit after
# the failure, while the same walk goes on.
FAILING_FIRST = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    http("pay", "/pay"),
    note("paid"),
    http("ping", "/ping"),
    http("ping_again", "/ping"),
    note("after"),
    wires="start>both both.branches>pay pay>paid both.branches>ping ping>ping_again both.done>after",
)


def test_a_walk_tried_again_after_it_died_takes_the_path_its_first_try_took(
    queue: Queue, receiver: RecordingServer
) -> None:
    """Its first try failed the branch's action and went on (another branch's action got the next visit);
    the try after it finds the failure standing, even with the server answering again by then: had it sent
    again and walked the recovered branch on first, that branch's nodes would take the visits, and effect
    keys, of the first try's."""
    failing(receiver)
    run_id = queue.start(queue.save(FAILING_FIRST), input={"base": receiver.url})
    drain_dying(queue)
    assert queue.one("SELECT status FROM waits WHERE run_id = %s", run_id) == ("claimed",)
    assert [(e["node"], e["visit"], e["outcome"]) for e in effects(queue, run_id)] == [
        ("pay", 3, "error"),
        ("ping", 4, "out"),
        ("ping_again", 5, "out"),
    ]
    receiver.routes["/pay"] = lambda _r: Reply(200, b'{"paid": true}')
    queue.clock.advance(timedelta(minutes=5))  # past the dead claim's lease: the next worker takes it over
    drain(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert [key.split("@")[0] for key in pauses(queue, run_id)] == ["pay"]
    assert len(at(queue, receiver, "/pay")) == 1, "the failure stood: nothing sent again before its retry"
    queue.clock.advance(backoff(1))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert len(at(queue, receiver, "/pay")) == 2 and len(at(queue, receiver, "/ping")) == 2


# The failing action's retry and the other branch's delay fall due together; the delay's resume sends ping.
RETRY_AND_DELAY = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    http("pay", "/pay"),
    note("paid"),
    {"id": "cool", "type": "delay", "config": {"duration": "PT1M"}},
    http("ping", "/ping"),
    note("after"),
    wires="start>both both.branches>pay pay>paid both.branches>cool cool>ping both.done>after",
)


def test_a_retry_that_fails_again_ends_its_wake_so_a_walk_tried_again_keeps_its_visits(
    queue: Queue, receiver: RecordingServer
) -> None:
    """A retry is sent again on the next try of a walk (its error never stands for it), and may succeed
    then: had the first try gone on past its failure to the delay's resume, ping would have taken a visit
    the recovered branch takes on the second try, and its effect key would be another node's."""
    failing(receiver)
    run_id = queue.start(queue.save(RETRY_AND_DELAY), input={"base": receiver.url})
    drain(queue)
    due = pauses(queue, run_id)
    assert due["pay@3"]["due"] == due["cool@4"]["due"], "both due together; the retry first (by visit)"
    queue.clock.advance(backoff(1))
    drain_dying(queue)
    assert at(queue, receiver, "/ping") == [], "the wake ended at the retry that failed again"
    receiver.routes["/pay"] = lambda _r: Reply(200, b'{"paid": true}')
    queue.clock.advance(timedelta(minutes=5))  # past the dead claim's lease
    drain(queue)
    assert "resume_failed" not in queue.codes(run_id)
    assert queue.status(run_id) == ("succeeded", None)
    assert [(e["node"], e["visit"], e["outcome"]) for e in effects(queue, run_id)] == [
        ("pay", 3, "out"),
        ("ping", 6, "out"),
    ]
