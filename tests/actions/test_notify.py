"""Notifications: a webhook POST and an email through a real local SMTP server."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from backend.actions.destinations import Destinations
from backend.actions.failures import ActionFailure
from backend.actions.notify import send_notify
from backend.actions.settings import ActionSettings
from backend.actions.transport import HttpSender
from tests.actions.servers import Mailbox, RecordingServer, Reply
from tests.actions.support import LOCAL
from tests.ports import closed_port


def notify(
    config: dict[str, Any], settings: ActionSettings = LOCAL, key: str = "fy-1-2-abc"
) -> dict[str, Any]:
    sender = HttpSender(Destinations(settings.allow), settings.max_response_bytes)
    return asyncio.run(send_notify(config, key, sender, settings, timeout_s=settings.timeout_s))


def failure_of(config: dict[str, Any], settings: ActionSettings = LOCAL) -> ActionFailure:
    with pytest.raises(ActionFailure) as caught:
        notify(config, settings)
    return caught.value


def test_a_webhook_gets_the_message_as_json_with_the_key(receiver: RecordingServer) -> None:
    output = notify({"channel": "webhook", "to": f"{receiver.url}/hook", "message": "Invoice A-7 paid ✓"})
    [received] = receiver.received
    assert (received.method, received.path, received.json()) == (
        "POST",
        "/hook",
        {"text": "Invoice A-7 paid ✓"},
    )
    assert received.headers["idempotency-key"] == "fy-1-2-abc"
    assert output == {"channel": "webhook", "status": 200, "body": {"ok": True}}


def test_a_webhook_that_answers_an_error_status_is_an_error(receiver: RecordingServer) -> None:
    receiver.routes["/gone"] = lambda _r: Reply(410, b"no such hook", {"Content-Type": "text/plain"})
    failure = failure_of({"channel": "webhook", "to": f"{receiver.url}/gone", "message": "hi"})
    assert (failure.code, failure.detail["status"], failure.detail["body"]) == (
        "http_status_error",
        410,
        "no such hook",
    )


def test_a_webhook_to_a_private_address_is_refused(receiver: RecordingServer) -> None:
    failure = failure_of({"channel": "webhook", "to": receiver.url, "message": "hi"}, ActionSettings())
    assert failure.code == "action_destination_forbidden" and receiver.received == []


def test_an_email_goes_through_smtp_with_the_key_as_its_message_id(smtp: tuple[Mailbox, int]) -> None:
    mailbox, port = smtp
    settings = replace(LOCAL, smtp_host="127.0.0.1", smtp_port=port, smtp_from="robot@flowyard.test")
    output = notify(
        {"channel": "email", "to": "ann@example.com, Bob <bob@example.com>", "message": "Paid A-7\nby ann"},
        settings,
    )
    [(envelope, message)] = mailbox.messages
    assert envelope.mail_from == "robot@flowyard.test"
    assert envelope.rcpt_tos == ["ann@example.com", "bob@example.com"]
    assert message["Subject"] == "Paid A-7" and message["Message-ID"] == "<fy-1-2-abc@flowyard.test>"
    assert str(message.get_payload()).splitlines() == ["Paid A-7", "by ann"]
    assert output == {
        "channel": "email",
        "to": ["ann@example.com", "bob@example.com"],
        "message_id": "<fy-1-2-abc@flowyard.test>",
        "refused": [],
    }


def test_email_without_an_smtp_server_or_with_a_bad_address_says_which() -> None:
    assert (
        failure_of({"channel": "email", "to": "ann@example.com", "message": "m"}).code
        == "notify_email_unconfigured"
    )
    configured = replace(LOCAL, smtp_host="127.0.0.1")
    bad = failure_of({"channel": "email", "to": "not an address", "message": "m"}, configured)
    assert (bad.code, bad.detail["to"]) == ("notify_address_invalid", "not an address")


def test_an_smtp_server_that_cannot_be_reached_is_an_error() -> None:
    with closed_port() as port:
        settings = replace(LOCAL, smtp_host="127.0.0.1", smtp_port=port)
        assert (
            failure_of({"channel": "email", "to": "a@example.com", "message": "m"}, settings).code
            == "notify_email_failed"
        )
