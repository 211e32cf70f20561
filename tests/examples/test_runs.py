"""The examples run for real: saved in the module's database, walked by a worker, their http calls and
mails sent to real local servers, their approvals decided through the ApprovalDecisions, the webhook
called through the API.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from backend.actions import ActionSettings
from backend.approvals.decisions import ApprovalDecisions
from tests.actions.servers import RecordingServer, Reply, recording_server, smtp_server
from tests.actions.support import LOCAL, drain, journal_data
from tests.api.support import app_client, auth, make_user
from tests.support import Queue

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
INVOICE = {"invoice": "A-7", "supplier": "Acme", "amount": 1200, "currency": "EUR"}


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return document


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def walk(queue: Queue, settings: ActionSettings = LOCAL) -> None:
    """A worker serves what is due. The clock first moves past the database's now, at which a run's
    start wait is due; the fake clock was read from it when the test began."""
    queue.clock.advance(timedelta(seconds=10))
    drain(queue, settings)


def open_approval(queue: Queue, run_id: int) -> int:
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s AND outcome IS NULL", run_id)
    assert row is not None, f"run {run_id} waits at no approval"
    return int(row[0])


def decide(queue: Queue, run_id: int, outcome: str, by: str) -> None:
    approval_id = open_approval(queue, run_id)

    queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(conn, approval_id, outcome, by=by, comment=None)
    )


def logged(queue: Queue, run_id: int) -> list[str]:
    return [data["message"] for data in journal_data(queue, run_id, "log_written")]


@pytest.fixture(scope="module")
def people(database_url: str) -> dict[str, str]:
    return {
        "bob": make_user(database_url, "bob", "decide", groups=("finance",)),
        "pia": make_user(database_url, "pia", "decide", groups=("purchasing",)),
        "ed": make_user(database_url, "ed", "edit", "run"),
    }


def test_an_approved_invoice_is_posted_to_the_payment_url_with_an_idempotency_key(
    queue: Queue, people: dict[str, str], receiver: RecordingServer
) -> None:
    run_id = queue.start(
        queue.save(example("invoice-approval.json")), {**INVOICE, "payment_url": receiver.url}
    )
    walk(queue)
    decide(queue, run_id, "approved", "bob")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    (paid,) = receiver.wait_for(1)
    assert paid.method == "POST" and paid.headers["idempotency-key"].startswith(f"fy-{run_id}-")
    assert paid.json() == {"invoice": "A-7", "amount": 1200, "currency": "EUR", "approved_by": "bob"}
    assert logged(queue, run_id) == ["Invoice A-7 approved by bob and sent to payment"]


def test_a_payment_service_that_refuses_fails_the_run_and_a_reject_sends_nothing(
    queue: Queue, people: dict[str, str], receiver: RecordingServer
) -> None:
    receiver.routes["/"] = lambda _request: Reply(status=422, body=b'{"error": "unknown supplier"}')
    flow_id = queue.save(example("invoice-approval.json"))
    refused = queue.start(flow_id, {**INVOICE, "payment_url": receiver.url})
    rejected = queue.start(flow_id, {**INVOICE, "payment_url": receiver.url})
    walk(queue)
    decide(queue, refused, "approved", "bob")
    decide(queue, rejected, "rejected", "bob")
    walk(queue)
    assert queue.status(refused)[0] == "failed"
    assert queue.status(rejected) == ("succeeded", None)
    assert logged(queue, rejected) == ["Invoice A-7 not approved (rejected)"]
    receiver.wait_for(1)
    assert len(receiver.received) == 1, "one call: the rejected invoice's run sent none"


def test_the_invoice_deadline_passing_takes_the_reject_exit(queue: Queue, people: dict[str, str]) -> None:
    run_id = queue.start(queue.save(example("invoice-approval.json")), INVOICE)
    walk(queue)
    queue.clock.advance(timedelta(days=3, minutes=1))
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["Invoice A-7 not approved (timed_out_rejected)"]


def test_each_order_line_over_the_limit_waits_for_its_own_decision(
    queue: Queue, people: dict[str, str]
) -> None:
    lines = [
        {"sku": "desk", "quantity": 1, "amount": 320},
        {"sku": "laptop", "quantity": 2, "amount": 2400},
        {"sku": "chair", "quantity": 4, "amount": 880},
    ]
    run_id = queue.start(queue.save(example("order-lines.json")), {"order": "O-12", "lines": lines})
    walk(queue)
    decide(queue, run_id, "approved", "pia")
    walk(queue)
    assert queue.status(run_id)[0] == "waiting", "the third line asks again"
    decide(queue, run_id, "rejected", "pia")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == [
        "Line desk is under the limit",
        "Line laptop approved by pia",
        "Line chair rejected by pia",
        "Order O-12: every line decided",
    ]
    titles = queue.all("SELECT title FROM approvals WHERE run_id = %s ORDER BY id", run_id)
    assert titles == [("Order O-12: buy 2 of laptop for 2400?",), ("Order O-12: buy 4 of chair for 880?",)]


def test_the_webhook_order_runs_once_per_idempotency_key_and_confirms_once(
    queue: Queue, people: dict[str, str], receiver: RecordingServer
) -> None:
    with app_client(queue.url) as api:
        saved = api.post("/api/flows", json=example("webhook-order.json"), headers=auth(people["ed"]))
        assert saved.status_code == 201, saved.text
        hook = api.post(f"/api/flows/{saved.json()['id']}/webhook", headers=auth(people["ed"])).json()
        order = {"order": "O-12", "customer": "Acme", "confirm_url": receiver.url}
        first = api.post(hook["path"], json=order, headers={"Idempotency-Key": "order-O-12"})
        again = api.post(hook["path"], json=order, headers={"Idempotency-Key": "order-O-12"})
    assert first.status_code == again.status_code == 202
    assert (first.json()["created"], again.json()["created"]) == (True, False)
    run_id = first.json()["run"]
    assert again.json()["run"] == run_id
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    (confirmation,) = receiver.wait_for(1)
    assert confirmation.json() == {"order": "O-12", "status": "received"}
    assert confirmation.headers["idempotency-key"].startswith(f"fy-{run_id}-")
    assert logged(queue, run_id) == ["Order O-12 received from Acme", "Order O-12 confirmed (200)"]


def test_the_reminder_waits_a_day_then_mails_and_the_weekly_report_mails_when_its_schedule_fires(
    queue: Queue, people: dict[str, str]
) -> None:
    with smtp_server() as (mailbox, port):
        settings = replace(LOCAL, smtp_host="127.0.0.1", smtp_port=port)
        run_id = queue.start(
            queue.save(example("reminder.json")),
            {"email": "ann@example.com", "task": "renew the certificate"},
        )
        walk(queue, settings)
        assert queue.status(run_id)[0] == "waiting" and mailbox.messages == []
        queue.clock.advance(timedelta(days=1, seconds=1))
        walk(queue, settings)
        assert queue.status(run_id) == ("succeeded", None)

        flow_id = queue.save(example("weekly-report.json"))
        fire = queue.one("SELECT next_fire_at FROM schedules WHERE flow_id = %s", flow_id)
        assert fire is not None and fire[0].weekday() == 0  # a Monday, at 07:00 or 06:00 UTC
        queue.clock.now = max(queue.clock.now, fire[0]) + timedelta(seconds=1)
        walk(queue, settings)
        (report,) = queue.all("SELECT id, status FROM runs WHERE flow_id = %s", flow_id)
        assert report[1] == "succeeded"
    # Each drain returns once its actions have an outcome: an accepted mail is in the box by then.
    mails = [mail for _envelope, mail in mailbox.messages]
    assert [mail["To"] for mail in mails] == ["ann@example.com", "team@example.com"]
    assert mails[0]["Subject"] == "Reminder: renew the certificate"
    assert mails[1]["Subject"].startswith("Weekly report for ")
