"""Fixtures of the action tests: the recording HTTP server and the SMTP server, one per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.actions.servers import Mailbox, RecordingServer, recording_server, smtp_server


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as served:
        yield served
