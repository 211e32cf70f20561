"""The signed heads, mailed to the auditors' address (heads_mail.py) through a real local SMTP server: each
signed line arrives once, as the file holds it, and verifies from the mail alone; a try that fails waits
in the outbox and goes at the next signing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from email.header import decode_header, make_header
from pathlib import Path

import psycopg
import pytest

from backend.actions.settings import ActionSettings
from backend.approvals.head_signer import HeadSigner
from backend.approvals.heads_mail import Auditors, send_due
from backend.approvals.heads_mail import mailing as mailing_of
from backend.approvals.signing import load_key
from backend.queue.commands import open_pool
from backend.settings import Settings
from tests.actions.servers import Mailbox, smtp_server
from tests.approvals import test_chain
from tests.approvals.test_signed_heads import Decided, audit, checked
from tests.ports import closed_port

decided = test_chain.decided  # the fixture: three decided approvals through the real queue
AUDITORS = "audit@example.com"


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as served:
        yield served


def mailing(port: int) -> dict[str, str]:
    return {
        "FLOWYARD_AUDITORS_EMAIL": AUDITORS,
        "FLOWYARD_AUDITORS_LOCALE": "de",
        "FLOWYARD_SMTP_HOST": "127.0.0.1",
        "FLOWYARD_SMTP_PORT": str(port),
    }


def test_each_signed_line_is_mailed_once_and_verifies_from_the_mail(
    decided: Decided, tmp_path: Path, mailbox: tuple[Mailbox, int]
) -> None:
    queue, flow_id, _ = decided
    box, port = mailbox
    signed = audit(queue, tmp_path, "sign", **mailing(port))
    assert signed.returncode == 0, signed.stderr
    mail = box.wait_for_mail_to(AUDITORS)
    line = (tmp_path / "signed-heads.jsonl").read_text().splitlines()[-1]
    body = mail.get_payload(decode=True).decode()  # type: ignore[union-attr]
    assert body.splitlines()[-1] == line, "the line as the file holds it"
    assert str(make_header(decode_header(mail["Subject"]))) == "Flowyard: signierte Köpfe der Prüfspur"
    assert queue.one("SELECT status, attempts FROM signed_heads_mails WHERE line = %s", line) == ("sent", 1)

    # The auditor's copy: the lines of the mails, in a file of their own, and the public key they kept.
    copy = tmp_path / "from-the-mails.jsonl"
    copy.write_text(body.splitlines()[-1] + "\n")
    key = json.loads(line)["public_key"]
    found = checked(queue, tmp_path, flow_id, "--public-key", key, "--signed-heads", str(copy))
    assert found["intact"] is True and found["signed"] == 1

    again = audit(queue, tmp_path, "sign", **mailing(port))
    assert again.returncode == 0
    box.wait_until(lambda: len(box.messages) == 2, "the second line's mail")
    keys = [m["Message-ID"] for _, m in box.messages]
    assert len(set(keys)) == 2, "one mail per line, each its own Message-ID"


def test_a_mail_that_fails_waits_in_the_outbox_and_goes_later(
    decided: Decided, tmp_path: Path, mailbox: tuple[Mailbox, int]
) -> None:
    queue, _, _ = decided
    box, port = mailbox
    with closed_port() as refused:
        signed = audit(queue, tmp_path, "sign", **mailing(refused))
    assert signed.returncode == 0, "the line is signed and kept; only its mail waits"
    line = (tmp_path / "signed-heads.jsonl").read_text().splitlines()[-1]
    row = queue.one("SELECT status, attempts, error FROM signed_heads_mails WHERE line = %s", line)
    assert row is not None and row[:2] == ("pending", 1) and "Refused" in row[2]

    # Its backoff over (set by hand: no test waits for a clock), the next sender takes it.
    with psycopg.connect(queue.url, autocommit=True) as conn:
        conn.execute("UPDATE signed_heads_mails SET next_try_at = now() WHERE line = %s", (line,))

    async def send() -> int:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            smtp = ActionSettings(smtp_host="127.0.0.1", smtp_port=port, timeout_s=60)
            return await send_due(conn, Auditors([AUDITORS], "en", smtp))

    assert asyncio.run(send()) >= 1
    mail = box.wait_for_mail_to(AUDITORS)
    assert mail.get_payload(decode=True).decode().splitlines()[-1] == line  # type: ignore[union-attr]
    assert queue.one("SELECT status FROM signed_heads_mails WHERE line = %s", line) == ("sent",)


def test_the_workers_signer_mails_what_it_signs(
    decided: Decided, tmp_path: Path, mailbox: tuple[Mailbox, int]
) -> None:
    queue, _, _ = decided
    box, port = mailbox
    auditors = mailing_of(Settings.from_environ(mailing(port)))
    assert auditors is not None and auditors.addresses == [AUDITORS]
    path = tmp_path / "signed-heads.jsonl"

    async def one_interval() -> dict[str, tuple[int, str]]:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        try:
            return await HeadSigner(pool, load_key(tmp_path), path, 3600.0, auditors).sign({})
        finally:
            await pool.close()

    assert asyncio.run(one_interval()), "every head moved since nothing was signed"
    mail = box.wait_for_mail_to(AUDITORS)
    body = mail.get_payload(decode=True).decode()  # type: ignore[union-attr]
    assert body.splitlines()[-1] == path.read_text().splitlines()[-1]
