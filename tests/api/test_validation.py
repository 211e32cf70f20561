"""`POST /api/flows/validate` under attack (issue 12, item 1): bounded findings, and large documents are
validated on worker threads, at most two at once, never on the event loop."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import pytest

import backend.api.flows as flows_api
from bench.adversarial import shared_body
from tests.api.support import app_client, auth, make_user
from tests.support import Queue


@pytest.fixture
def reader(queue: Queue) -> str:
    # No right on anything: validating is open to every authenticated user, and that is the attack.
    return make_user(queue.url, f"nobody{time.monotonic_ns()}")


def test_the_shared_body_of_issue_12_answers_two_hundred_findings_and_a_count(
    queue: Queue, reader: str
) -> None:
    with app_client(queue.url) as api:
        answer = api.post("/api/flows/validate", json=shared_body(999), headers=auth(reader))
    assert answer.status_code == 200
    findings = answer.json()["findings"]
    # Issue 12: 1,002,982 findings, 174 MB of JSON. Now 200, and one that counts the other 797.
    assert len(findings) == 201
    assert findings[-1]["code"] == "findings_truncated"
    assert findings[-1]["detail"] == str(997 - 200)
    assert len(answer.content) < 100_000


def test_the_cap_is_a_setting(queue: Queue, reader: str) -> None:
    with app_client(queue.url, max_findings=5) as api:
        findings = api.post("/api/flows/validate", json=shared_body(), headers=auth(reader)).json()[
            "findings"
        ]
    assert [f["code"] for f in findings] == ["loop_body_leaks"] * 5 + ["findings_truncated"]


class Gate:
    """Stands in for `validate`: records where it runs and how many run at once, and holds them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = threading.Event()
        self.running = 0
        self.most = 0
        self.on_loop: list[bool] = []

    def __call__(self, document: Any, locale: str, **options: Any) -> list[Any]:
        with self.lock:
            self.on_loop.append(_running_loop())
            self.running += 1
            self.most = max(self.most, self.running)
        if not self.on_loop[-1]:
            assert self.open.wait(60), "the test never opened the gate"
        with self.lock:
            self.running -= 1
        return []


def _running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class Turns:
    """The endpoint's own limiter of validations, telling the test each time a validation has asked for its
    turn: the test waits for the line it needs on that, not by looking at the limiter every few ms."""

    def __init__(self, limiter: anyio.CapacityLimiter) -> None:
        self.limiter = limiter
        self.asked = threading.Condition()

    def statistics(self) -> anyio.CapacityLimiterStatistics:
        return self.limiter.statistics()

    async def __aenter__(self) -> None:
        # The loop runs the callback once this task has yielded, and it yields only once it stands in the
        # limiter's line or holds a token: told then, the test sees this validation where it is.
        asyncio.get_running_loop().call_soon(self._told)
        await self.limiter.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        await self.limiter.__aexit__(*exc)

    def _told(self) -> None:
        with self.asked:
            self.asked.notify_all()

    def until_waiting(self, count: int, timeout_s: float = 60) -> None:
        """Until `count` validations wait for their turn."""
        with self.asked:
            waiting = self.asked.wait_for(lambda: self.statistics().tasks_waiting >= count, timeout_s)
        assert waiting, f"{count} validations never waited: {self.statistics()}"


@pytest.fixture
def turns(monkeypatch: pytest.MonkeyPatch) -> Turns:
    turns = Turns(flows_api._validations)
    monkeypatch.setattr(flows_api, "_validations", turns)
    return turns


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    gate = Gate()
    monkeypatch.setattr(flows_api, "validate", gate)
    yield gate
    gate.open.set()


def test_a_small_document_validates_on_the_loop_and_a_large_one_on_a_thread(
    queue: Queue, reader: str, gate: Gate
) -> None:
    gate.open.set()
    with app_client(queue.url) as api:
        small = {"nodes": [{"id": "t"}], "wires": []}
        assert api.post("/api/flows/validate", json=small, headers=auth(reader)).status_code == 200
        assert api.post("/api/flows/validate", json=shared_body(), headers=auth(reader)).status_code == 200
    assert gate.on_loop == [True, False]


def test_at_most_two_large_validations_run_at_once_and_the_others_wait_their_turn(
    queue: Queue, reader: str, gate: Gate, turns: Turns
) -> None:
    document = shared_body()
    with app_client(queue.url) as api, ThreadPoolExecutor(5) as senders:

        def send() -> int:
            return api.post("/api/flows/validate", json=document, headers=auth(reader)).status_code

        answers = [senders.submit(send) for _ in range(5)]
        turns.until_waiting(3)
        stats = turns.statistics()
        assert (stats.borrowed_tokens, stats.tasks_waiting) == (2, 3)
        # Meanwhile the event loop serves others.
        assert api.get("/healthz").status_code == 200
        gate.open.set()
        assert [answer.result(timeout=60) for answer in answers] == [200] * 5
    assert gate.most == 2


def test_past_the_waiting_validations_the_answer_is_busy_and_nothing_waits_on_the_pool(
    queue: Queue, reader: str, gate: Gate, turns: Turns, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flows_api, "VALIDATIONS_WAITING", 1)
    document = shared_body()
    with app_client(queue.url) as api, ThreadPoolExecutor(3) as senders:

        def send() -> int:
            return api.post("/api/flows/validate", json=document, headers=auth(reader)).status_code

        held = [senders.submit(send) for _ in range(3)]
        turns.until_waiting(1)
        busy = api.post(
            "/api/flows/validate", json=document, headers=auth(reader, **{"Accept-Language": "de"})
        )
        assert busy.status_code == 503
        assert busy.json()["error"]["code"] == "validation_busy"
        assert "Server" in busy.json()["error"]["message"]
        gate.open.set()
        assert [answer.result(timeout=60) for answer in held] == [200] * 3
