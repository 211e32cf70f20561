"""The `notify` node: a message to a webhook (a JSON POST) or to email addresses (SMTP).

A webhook gets `{"text": message}`, the shape Slack, Mattermost and Teams incoming webhooks read, with
the effect key as `Idempotency-Key`; its URL is checked like an http node's. An email's `Message-ID` is
made from the effect key, so a message sent again after a crash is the same message to every mail
system that deduplicates by it. The subject is the message's first line.

Examples:
    >>> recipients("ann@example.com, Bob <bob@example.com>")
    ['ann@example.com', 'bob@example.com']
    >>> subject("Invoice A-7 paid\\nby ann")
    'Invoice A-7 paid'
"""

from __future__ import annotations

import asyncio
import json
import smtplib
import ssl
from collections.abc import Mapping
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from backend.actions.failures import ActionFailure, config_type_refused
from backend.actions.settings import ActionSettings
from backend.actions.transport import Exchange, HttpSender

SUBJECT_LIMIT = 78


async def send_notify(
    config: Mapping[str, Any],
    key: str,
    sender: HttpSender,
    settings: ActionSettings,
    *,
    timeout_s: float,
    shown_url: str | None = None,
) -> dict[str, Any]:
    """Send the message; `shown_url` is a webhook's URL as written when a secret went into it."""
    channel, to, text = config.get("channel"), config.get("to"), config.get("message")
    if not isinstance(to, str) or not to:
        raise config_type_refused("to", "string")
    if not isinstance(text, str):
        raise config_type_refused("message", "string")
    if channel == "webhook":
        return await _webhook(to, text, key, sender, settings, timeout_s, shown_url)
    if channel == "email":
        return await _email(to, text, key, settings, timeout_s)
    raise ActionFailure(
        code="action_config_invalid",
        field="channel",
        detail=str(channel),
        problem="problem_value",
        values=('"webhook"', '"email"'),
    )


async def _webhook(
    url: str,
    text: str,
    key: str,
    sender: HttpSender,
    settings: ActionSettings,
    timeout_s: float,
    shown_url: str | None,
) -> dict[str, Any]:
    exchange = Exchange(
        method="POST",
        url=url,
        headers={"Content-Type": "application/json", "Idempotency-Key": key},
        content=json.dumps({"text": text}, ensure_ascii=False).encode(),
        timeout_s=timeout_s,
        follow=settings.max_redirects,
        shown_url=shown_url,
    )
    answer = await sender.send(exchange)
    if answer.status >= 400:
        raise ActionFailure(code="http_status_error", **answer.output())
    return {"channel": "webhook", "status": answer.status, "body": answer.body}


async def _email(to: str, text: str, key: str, settings: ActionSettings, timeout_s: float) -> dict[str, Any]:
    if settings.smtp_host is None:
        raise ActionFailure(code="notify_email_unconfigured")
    addresses = recipients(to)
    message = compose_email(settings, addresses, subject(text), text, key)
    try:
        # smtplib's timeout bounds each socket operation; this one bounds the whole session. A thread
        # past it is left to finish on its own (smtplib cannot be interrupted), its answer unread.
        async with asyncio.timeout(timeout_s):
            refused = await asyncio.to_thread(deliver, settings, message, timeout_s)
    except TimeoutError:
        raise ActionFailure(code="action_timeout", timeout_s=timeout_s) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise ActionFailure(code="notify_email_failed", detail=str(exc) or type(exc).__name__) from None
    return {
        "channel": "email",
        "to": addresses,
        "message_id": message["Message-ID"],
        "refused": sorted(refused),
    }


def compose_email(
    settings: ActionSettings, addresses: list[str], title: str, text: str, key: str
) -> EmailMessage:
    """A plain-text message whose Message-ID is made from the effect key: the same on every try."""
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = ", ".join(addresses)
    message["Subject"] = title
    domain = settings.smtp_from.rpartition("@")[2] or "flowyard"
    message["Message-ID"] = f"<{key}@{domain}>"
    message.set_content(text)
    return message


def deliver(settings: ActionSettings, message: EmailMessage, timeout_s: float = 30.0) -> dict[str, Any]:
    """One SMTP session (in a thread: smtplib blocks); the recipients the server refused."""
    assert settings.smtp_host is not None
    context = ssl.create_default_context()
    smtp = (
        smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=timeout_s, context=context)
        if settings.smtp_security == "tls"
        else smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout_s)
    )
    with smtp:
        if settings.smtp_security == "starttls":
            smtp.starttls(context=context)
        if settings.smtp_user and settings.smtp_password:
            smtp.login(settings.smtp_user, settings.smtp_password)
        return dict(smtp.send_message(message))


def recipients(to: str) -> list[str]:
    """The addresses of a `to` list; ActionFailure when one is not an address."""
    found = [address for _name, address in getaddresses([to])]
    if not found or any("@" not in address or address.startswith("@") for address in found):
        raise ActionFailure(code="notify_address_invalid", to=to)
    return found


def subject(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else "Flowyard notification"
    return first if len(first) <= SUBJECT_LIMIT else first[: SUBJECT_LIMIT - 1] + "…"
