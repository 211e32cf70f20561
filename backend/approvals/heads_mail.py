"""The signed heads, mailed to the auditors' address: a copy of each line outside the machine as well.

The signed heads file is on the machine whose administrators the auditors do not want to trust alone.
With `FLOWYARD_AUDITORS_EMAIL` set (addresses separated by commas), each line signed is also queued in an
outbox (`signed_heads_mails`, migration 0029) as it is written to the file, and sent
by whoever signed it: a worker at its interval, `flowyard audit sign` at once. The mail goes through the
notify node's SMTP settings and path (`FLOWYARD_SMTP_*`); its Message-ID is the line's digest, so a mail
sent again after a crash is the same message. A failed try is tried again after the queue's backoff, at
the next signing, five times at most. The mail is in `FLOWYARD_AUDITORS_LOCALE` (else English): a few
sentences, then the line itself, which `flowyard audit verify` reads as the file's.

Examples:
    >>> from backend.settings import Settings
    >>> to = "audit@example.com, Ext <ext@example.org>"
    >>> found = mailing(Settings.from_environ({"FLOWYARD_AUDITORS_EMAIL": to}))
    >>> found.addresses if found else None
    ['audit@example.com', 'ext@example.org']
    >>> mailing(Settings.from_environ({})) is None
    True
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import smtplib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.actions.notify import compose_email, deliver
from backend.actions.settings import ActionSettings
from backend.i18n.catalogs import message
from backend.queue.claims import MAX_ATTEMPTS, backoff
from backend.settings import Settings
from backend.store.queries import every, load

QUERIES = load("backend.approvals", "heads_mail.sql")
log = logging.getLogger("flowyard.mail")

BATCH = 20
SMTP_TIMEOUT_S = 30.0  # one mail's longest try; a batch's lease outlasts every try of it
LEASE = timedelta(seconds=BATCH * SMTP_TIMEOUT_S + 60)


@dataclass(frozen=True, slots=True)
class _Due:
    key: str
    line: str
    attempts: int


@dataclass(frozen=True, slots=True)
class Auditors:
    """Where the signed heads are mailed, in which language, through which SMTP server."""

    addresses: list[str]
    locale: str
    smtp: ActionSettings


def mailing(settings: Settings) -> Auditors | None:
    """The auditors to mail the signed heads to, None when no address is set."""
    if not settings.auditors_email:
        return None
    return Auditors(list(settings.auditors_email), settings.auditors_locale, settings.actions)


async def queue_line(conn: AsyncConnection[Any], line: str) -> None:
    """Queue a signed line for the auditors (once: its digest is its key)."""
    key = hashlib.sha256(line.encode()).hexdigest()[:32]
    await conn.execute(QUERIES["heads_mail_queued"], {"key": key, "line": line})


def render(line: str, locale: str) -> tuple[str, str]:
    """The subject and the plain-text body: what the mail is, what to do with it, and the line.

    Examples:
        >>> subject, text = render('{"format":"flowyard.signed-heads/1"}', "de")
        >>> text.endswith('{"format":"flowyard.signed-heads/1"}\\n'), subject.startswith("Flowyard")
        (True, True)
    """
    body = [
        message("mail_signed_heads_intro", locale),
        message("mail_signed_heads_keep", locale),
        "",
        line,
    ]
    return message("mail_signed_heads_subject", locale), "\n".join(body) + "\n"


async def send_due(conn: AsyncConnection[Any], auditors: Auditors) -> int:
    """Send the queued lines that are due, a batch at a time; how many the SMTP server took. None is
    sent while no SMTP server is set: the lines wait in the outbox."""
    if auditors.smtp.smtp_host is None:
        return 0
    sent = 0
    while due := await every(conn, _Due, QUERIES["heads_mails_claimed"], {"limit": BATCH, "lease": LEASE}):
        for mail in due:
            sent += await _send(conn, auditors, mail)
        if len(due) < BATCH:
            break
    return sent


async def _send(conn: AsyncConnection[Any], auditors: Auditors, mail: _Due) -> int:
    subject, text = render(mail.line, auditors.locale)
    email = compose_email(auditors.smtp, auditors.addresses, subject, text, mail.key)
    where = {"key": mail.key, "attempts": mail.attempts}
    try:
        await asyncio.to_thread(deliver, auditors.smtp, email, SMTP_TIMEOUT_S)
    except (smtplib.SMTPException, OSError) as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("mailing the signed heads %s to the auditors failed: %s", mail.key, error)
        failed = {**where, "error": error, "backoff": backoff(mail.attempts), "max_attempts": MAX_ATTEMPTS}
        await conn.execute(QUERIES["heads_mail_failed"], failed)
        return 0
    await conn.execute(QUERIES["heads_mail_sent"], where)
    return 1
