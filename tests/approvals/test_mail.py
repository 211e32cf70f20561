"""The mails that call approvers, through a real local SMTP server: one per approver who has an address
and the decide right, in their language, sent once, never for an approval already decided."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message
from typing import Any, cast
from zoneinfo import ZoneInfo

import pytest

from backend.actions.settings import ActionSettings
from backend.approvals.decisions import ApprovalDecisions
from backend.approvals.mail import ApprovalMailer
from backend.people.accounts import AccountRefused, Grant, add_user, set_email
from backend.queue.commands import open_pool
from tests.actions.servers import Mailbox, smtp_server
from tests.ports import closed_port
from tests.support import Queue, flow

BASE = "https://flowyard.example"


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as served:
        yield served


def person(
    queue: Queue, name: str, *grants: str, email: str | None, locale: str | None = None, **kw: Any
) -> None:
    queue.aconn(
        lambda conn: add_user(
            conn, name, grants=[Grant.parse(g) for g in grants], email=email, locale=locale, **kw
        )
    )


def asking(*approvers: str) -> dict[str, Any]:
    ask = {
        "id": "ask",
        "type": "approval",
        "config": {
            "title": "Pay {{trigger.invoice}}?",
            "explanation": "Over the limit",
            "approvers": list(approvers),
            "deadline": "P2D",
            "on_timeout": "reject",
        },
    }
    return flow("start:trigger", ask, wires=[{"from": "start", "to": "ask"}])


def send(queue: Queue, port: int) -> int:
    async def go() -> int:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        try:
            settings = ActionSettings(smtp_host="127.0.0.1", smtp_port=port, timeout_s=60)
            return await ApprovalMailer(pool, settings, BASE).send_due()
        finally:
            await pool.close()

    return asyncio.run(go())


def to(message: Message) -> str:
    return str(message["To"])


def test_each_named_approver_with_an_address_gets_one_mail_in_their_language(
    queue: Queue, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    person(queue, "bea", "decide", email="bea@example.com", locale="de", groups=["finance"])
    person(queue, "cid", "decide", email="cid@example.com", locale="ja")
    person(queue, "dan", "audit", email="dan@example.com", groups=["finance"])  # cannot decide: no mail
    person(queue, "eve", "decide", email=None, groups=["finance"])  # no address: no mail
    person(queue, "fay", "decide", email="fay@example.com")  # not named: no mail
    run_id = queue.start(queue.save(asking("group:finance", "user:cid")), input={"invoice": "A-7"})
    queue.drain()
    approval = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert approval is not None

    assert send(queue, port) == 2
    mails = {to(m): m for _e, m in box.messages}
    assert sorted(mails) == ["bea@example.com", "cid@example.com"]
    german, japanese = mails["bea@example.com"], mails["cid@example.com"]
    assert german["Subject"] == "Genehmigung erbeten: Pay A-7?"
    body = cast(bytes, german.get_payload(decode=True)).decode()
    assert f"{BASE}/approvals/{approval[0]}" in body
    assert "Pay A-7?" in body and "Over the limit" in body
    assert "abgelehnt" in body, "what happens at the deadline, in German"
    assert str(make_header(decode_header(japanese["Subject"]))) == "承認の依頼：Pay A-7?"

    assert send(queue, port) == 0, "a sent mail is not sent again"
    assert len(box.messages) == 2
    rows = queue.all("SELECT user_name, status, attempts FROM approval_mails ORDER BY user_name")
    assert rows == [("bea", "sent", 1), ("cid", "sent", 1)]


def test_a_mail_sent_again_after_a_crash_is_the_same_message(
    queue: Queue, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    person(queue, "gus", "decide", email="gus@example.com")
    queue.start(queue.save(asking("user:gus")), input={"invoice": "B-1"})
    queue.drain()
    before = len(box.messages)
    assert send(queue, port) == 1
    # The sender died after the server took the mail, before it wrote so: the lease runs out.
    queue.all(
        "UPDATE approval_mails SET status = 'pending', next_try_at = now()"
        " WHERE user_name = 'gus' RETURNING 1"
    )
    assert send(queue, port) == 1
    first, second = (m for _e, m in box.messages[before:])
    assert first["Message-ID"] == second["Message-ID"]
    key = queue.one("SELECT key FROM approval_mails WHERE user_name = 'gus'")
    assert key is not None and first["Message-ID"].startswith(f"<{key[0]}@")


def test_an_approval_decided_before_its_mail_leaves_sends_nothing(
    queue: Queue, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    person(queue, "hal", "decide", email="hal@example.com")
    run_id = queue.start(queue.save(asking("user:hal")), input={"invoice": "C-3"})
    queue.drain()
    approval = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert approval is not None

    queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(
            conn, approval[0], "approved", by="hal", comment=None
        )
    )
    before = len(box.messages)
    assert send(queue, port) == 1
    assert len(box.messages) == before
    assert queue.one("SELECT status, error FROM approval_mails WHERE user_name = 'hal'") == (
        "skipped",
        "approval_already_decided",
    )


def test_a_server_that_does_not_answer_is_tried_again_later(queue: Queue) -> None:
    person(queue, "ida", "decide", email="ida@example.com")
    queue.start(queue.save(asking("user:ida")), input={"invoice": "D-4"})
    queue.drain()
    with closed_port() as closed:  # a port nobody listens on
        assert send(queue, closed) == 1
    row = queue.one(
        "SELECT status, attempts, error IS NOT NULL, next_try_at > now() FROM approval_mails"
        " WHERE user_name = 'ida'"
    )
    assert row == ("pending", 1, True, True)


def test_an_address_that_is_none_is_refused(queue: Queue) -> None:
    with pytest.raises(AccountRefused) as refused:
        person(queue, "jo", email="Jo <jo@example.com>")
    assert refused.value.code == "user_email_invalid"

    with pytest.raises(AccountRefused) as unknown:
        queue.aconn(lambda conn: set_email(conn, "nobody", "n@example.com"))
    assert unknown.value.code == "user_unknown"


def test_the_deadline_is_in_the_approvers_own_time_zone_named_in_their_language_to_the_minute(
    queue: Queue, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    person(queue, "yara", "decide", email="yara@example.com", locale="de")
    person(queue, "kenji", "decide", email="kenji@example.com", locale="ja")
    queue.one("UPDATE users SET time_zone = 'America/Sao_Paulo' WHERE name = 'yara' RETURNING name")
    queue.one("UPDATE users SET time_zone = 'Asia/Tokyo' WHERE name = 'kenji' RETURNING name")
    run_id = queue.start(queue.save(asking("user:yara", "user:kenji")), input={"invoice": "A-8"})
    queue.drain()
    deadline = queue.one("SELECT deadline_at FROM approvals WHERE run_id = %s", run_id)
    assert deadline is not None

    assert send(queue, port) == 2
    bodies = {
        to(mail): cast(bytes, mail.get_payload(decode=True)).decode() for _envelope, mail in box.messages
    }
    german, japanese = bodies["yara@example.com"], bodies["kenji@example.com"]
    there = deadline[0].astimezone(ZoneInfo("America/Sao_Paulo"))
    assert f"bis {there:%d.%m.%Y, %H:%M} (Brasília-Normalzeit)." in german, german
    tokyo = deadline[0].astimezone(ZoneInfo("Asia/Tokyo"))
    # Japanese writes the hour unpadded (CLDR's H:mm): 0:15 after midnight, as a test run at 15:15 UTC saw.
    tokyo_clock = f"{tokyo.hour}:{tokyo:%M}"
    assert f"{tokyo:%Y/%m/%d} {tokyo_clock}（日本標準時）までに決定してください。" in japanese, japanese
    for body in (german, japanese):
        assert "America/" not in body and "Asia/" not in body, "no IANA id"
        assert f"{there:%H:%M:%S}" not in body and f"{tokyo_clock}:{tokyo:%S}" not in body, "no seconds"
