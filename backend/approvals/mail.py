"""The mails that call approvers: an outbox written with the approval, sent after it commits.

The rows are written in the transaction that parks the run at the approval (`insert_approvals`), so
a worker that dies after that commit loses no mail, and a retried walk, which cannot write its outcome
twice, cannot write a second row. A sender claims due rows for a lease, sends each through the notify
node's SMTP path with the row's key as the Message-ID (a mail sent again after a crash is the same
message), and marks it sent; a failure is tried again after the queue's backoff, five times at most.

Each mail is written when it is sent, in the recipient's language and time zone: the question, the
deadline and what happens when it passes, and a link to the approval page. The link decides nothing:
mail scanners and chat previews open links, so the page only shows the approval, and the decision is a
POST by the signed-in approver.

Examples:
    >>> from datetime import UTC, datetime
    >>> mail = Mail(1, "bea", "k", 1, "bea@example.com", "de", 7, "Pay A-7?", "Over the limit",
    ...             datetime(2031, 5, 1, 9, 0, tzinfo=UTC), "reject", None, "Invoices")
    >>> title, text = render(mail, "https://flowyard.example", UTC)
    >>> title
    'Genehmigung erbeten: Pay A-7?'
    >>> "https://flowyard.example/approvals/1" in text and "bis 01.05.2031, 09:00 (UTC)." in text
    True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from psycopg_pool import AsyncConnectionPool

from backend.actions.notify import compose_email, deliver
from backend.actions.settings import ActionSettings
from backend.i18n import negotiate
from backend.i18n.catalogs import message
from backend.i18n.zones import format_minute, zone_name
from backend.queue.claims import MAX_ATTEMPTS, backoff
from backend.store.queries import every, load

log = logging.getLogger("flowyard.mail")

QUERIES = load("backend.approvals", "queries.sql")

BATCH = 20
LEASE = timedelta(minutes=2)
IDLE_S = 5.0  # a crashed sender's rows fall due after their lease; this is how soon they are looked at
_UTC = ZoneInfo("UTC")


@dataclass(frozen=True, slots=True)
class Mail:
    """A claimed mail: the row, and what writing it needs."""

    approval_id: int
    user_name: str
    key: str
    attempts: int
    address: str | None
    locale: str | None
    run_id: int
    title: str
    explanation: str
    deadline_at: datetime | None
    on_timeout: str | None
    outcome: str | None
    flow_name: str
    timezone: str | None = None
    round: int = 0  # 0: the request; n: the n-th reminder


def zone(name: str | None) -> tzinfo:
    """A user's time zone; UTC when they have none or it is not a zone this machine knows."""
    if not name:
        return _UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return _UTC


def render(mail: Mail, base_url: str, tz: tzinfo) -> tuple[str, str]:
    """The subject and the plain-text body, in the recipient's language; user text is never markup."""
    locale = negotiate(None, mail.locale)
    reminder = mail.round > 0
    lines = [
        message(
            "mail_approval_reminder_intro" if reminder else "mail_approval_intro",
            locale,
            flow=mail.flow_name,
            run=mail.run_id,
        ),
        "",
        mail.title,
    ]
    if mail.explanation:
        lines.append(mail.explanation)
    lines.append("")
    if mail.deadline_at is None:
        lines.append(message("mail_approval_no_deadline", locale))
    else:
        # The approver's zone by the name their language gives it, the time to the minute.
        when = format_minute(mail.deadline_at, locale, tz)
        named = zone_name(mail.deadline_at.astimezone(tz), locale)
        lines.append(message("mail_approval_deadline", locale, deadline=when, zone=named))
        code = {
            "approve": "mail_approval_timeout_approve",
            "reject": "mail_approval_timeout_reject",
        }.get(mail.on_timeout or "", "mail_approval_timeout_skip")
        lines.append(message(code, locale))
    link = f"{base_url.rstrip('/')}/approvals/{mail.approval_id}"
    lines += [
        "",
        message("mail_approval_link", locale, link=link),
        message("mail_approval_link_safe", locale),
    ]
    subject = message(
        "mail_approval_reminder_subject" if reminder else "mail_approval_subject", locale, title=mail.title
    )
    return subject, "\n".join(lines) + "\n"


class ApprovalMailer:
    """Sends the approval outbox; any number of processes may run one (rows are claimed)."""

    def __init__(self, pool: AsyncConnectionPool[Any], settings: ActionSettings, base_url: str) -> None:
        self.pool = pool
        self.settings = settings
        self.base_url = base_url
        self.wake = asyncio.Event()

    async def send_due(self) -> int:
        """Claim and send what is due, a batch at a time, until nothing is; how many were handled."""
        handled = 0
        while True:
            async with self.pool.connection() as conn:
                params = {"limit": BATCH, "lease": LEASE}
                mails = await every(conn, Mail, QUERIES["claim_approval_mails"], params)
            if not mails:
                return handled
            for mail in mails:
                await self._send(mail)
            handled += len(mails)

    async def run(self, stop: asyncio.Event) -> None:
        """Send as rows fall due, woken early by `wake` (set when a walk ends), until `stop`."""
        while not stop.is_set():
            self.wake.clear()
            try:
                await self.send_due()
            except Exception:
                log.warning("sending approval mails failed; trying again", exc_info=True)
            waiters = [asyncio.create_task(self.wake.wait()), asyncio.create_task(stop.wait())]
            await asyncio.wait(waiters, timeout=IDLE_S, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waiter

    async def _send(self, mail: Mail) -> None:
        where = {
            "approval_id": mail.approval_id,
            "name": mail.user_name,
            "round": mail.round,
            "attempts": mail.attempts,
        }
        if mail.outcome is not None or not mail.address:
            # Decided before the mail left, or the address was removed: nothing to call anyone to.
            why = "approval_already_decided" if mail.outcome is not None else "user_email_missing"
            await self._write("approval_mail_done", {**where, "status": "skipped", "error": why})
            return
        title, text = render(mail, self.base_url, zone(mail.timezone))
        email = compose_email(self.settings, [mail.address], title, text, mail.key)
        try:
            await asyncio.to_thread(deliver, self.settings, email)
        except (smtplib.SMTPException, OSError) as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
            log.warning("approval mail %s to %s failed: %s", mail.key, mail.user_name, error)
            await self._write(
                "approval_mail_failed",
                {**where, "error": error, "backoff": backoff(mail.attempts), "max_attempts": MAX_ATTEMPTS},
            )
            return
        # smtplib raises when its one recipient is refused, so a return is a mail the server took.
        await self._write("approval_mail_done", {**where, "status": "sent", "error": None})

    async def _write(self, name: str, params: dict[str, Any]) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(QUERIES[name], params)


def approval_mailer(
    pool: AsyncConnectionPool[Any], settings: ActionSettings, base_url: str
) -> ApprovalMailer | None:
    """The outbox's sender for a worker, its links starting with `base_url`, or None while no SMTP server
    is configured (rows then wait)."""
    if settings.smtp_host is None:
        return None
    return ApprovalMailer(pool, settings, base_url)
