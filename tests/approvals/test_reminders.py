"""Reminders and escalation as waits on the one wake_at column, through the real queue and a real local
SMTP server: reminders go to the approvers who have not voted, in their language, once each however
often the walk is retried; an escalation adds approvers once, with a journal line."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from email.header import decode_header, make_header
from email.message import Message

import pytest

from tests.actions.servers import Mailbox, smtp_server
from tests.approvals.test_decisions import approval_flow, decide
from tests.approvals.test_mail import person, send
from tests.support import Queue


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as served:
        yield served


def subject(mail: Message) -> str:
    return str(make_header(decode_header(mail["Subject"])))


def test_reminders_and_an_escalation_before_a_two_of_three_decision(
    database_url: str, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    queue = Queue(database_url)
    person(queue, "bea", "decide", email="bea@example.com", locale="de")
    person(queue, "cid", "decide", email="cid@example.com", locale="ja")
    person(queue, "dot", "decide", email="dot@example.com", locale="fr")
    config = {
        "title": "Pay {{trigger.id}}?",
        "approvers": ["user:bea", "user:cid"],
        "quorum": 2,
        "remind_after": ["PT1H", "PT2H"],
        "escalate_after": "PT3H",
        "escalate_to": ["user:dot"],
        "deadline": "P1D",
        "on_timeout": "reject",
    }
    run_id = queue.start(queue.save(approval_flow(**config)), input={"id": "R-1"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id, requested_at FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    approval, requested_at = row
    wake = queue.one("SELECT wake_at FROM waits WHERE run_id = %s", run_id)
    assert wake == (requested_at + timedelta(hours=1),), "the first reminder is the wait's wake_at"
    assert send(queue, port) == 2
    decide(queue, approval, "approved", "bea")

    queue.clock.advance(timedelta(minutes=61))
    queue.drain()
    assert send(queue, port) == 1, "the first reminder, to cid only: bea has voted"
    reminder = box.messages[-1][1]
    assert str(reminder["To"]) == "cid@example.com"
    assert subject(reminder) == "リマインダー：承認の依頼：Pay R-1?"
    wake = queue.one("SELECT wake_at FROM waits WHERE run_id = %s", run_id)
    assert wake == (requested_at + timedelta(hours=2),)

    # The same wait claimed again (a worker that died after writing its reminder): nothing twice.
    queue.all("UPDATE waits SET wake_at = %s WHERE run_id = %s RETURNING 1", queue.clock(), run_id)
    queue.drain()
    assert queue.one(
        "SELECT count(*) FROM approval_mails WHERE approval_id = %s AND round = 1", approval
    ) == (1,)
    assert send(queue, port) == 0

    queue.clock.advance(timedelta(hours=2))
    queue.drain()
    approvers = queue.one("SELECT approvers FROM approvals WHERE id = %s", approval)
    assert approvers == (["user:bea", "user:cid", "user:dot"],)
    assert queue.codes(run_id).count("approval_escalated") == 1
    assert send(queue, port) == 2, "the second reminder to cid, and the request to dot"
    latest = {str(m["To"]): subject(m) for _e, m in box.messages[-2:]}
    assert latest == {
        "cid@example.com": "リマインダー：承認の依頼：Pay R-1?",
        "dot@example.com": "Approbation demandée\u00a0: Pay R-1?",
    }
    wake = queue.one("SELECT wake_at FROM waits WHERE run_id = %s", run_id)
    assert wake == (requested_at + timedelta(days=1),), "only the deadline is left"

    assert decide(queue, approval, "approved", "dot").outcome == "approved"
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    assert send(queue, port) == 0
