"""Logins: throttled per client address as well as per name, so that failures from one address never
lock the name's owner out from another; password hashes computed off the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from starlette.testclient import TestClient

from backend.api.app import create_app
from backend.people import hashing, logins
from tests.api.support import make_user
from tests.support import Queue

# Each failure costs a real argon2 hash; the rules are the same with smaller numbers.
MAX_NAME_FAILURES = 3
MAX_ADDRESS_FAILURES = 5


@pytest.fixture(autouse=True)
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logins, "MAX_NAME_FAILURES", MAX_NAME_FAILURES)
    monkeypatch.setattr(logins, "MAX_ADDRESS_FAILURES", MAX_ADDRESS_FAILURES)


@contextmanager
def from_address(url: str, address: str) -> Iterator[TestClient]:
    """A client the app sees at `address` (an app of its own: the throttle's state is in the database)."""
    with TestClient(create_app(url), client=(address, 40000)) as client:
        yield client


def login(client: TestClient, name: str, password: str) -> httpx.Response:
    return client.post("/api/session", json={"name": name, "password": password})


def codes(answers: list[httpx.Response]) -> list[str | None]:
    return [None if a.status_code == 201 else a.json()["error"]["code"] for a in answers]


def test_a_guesser_on_a_name_never_locks_its_owner_out_from_elsewhere(queue: Queue) -> None:
    make_user(queue.url, "bob", "decide", password="bobs-real-password")
    with from_address(queue.url, "203.0.113.7") as attacker, from_address(queue.url, "198.51.100.2") as owner:
        guesses = [login(attacker, "bob", f"guess-{i}") for i in range(MAX_NAME_FAILURES)]
        assert codes(guesses) == ["login_failed"] * MAX_NAME_FAILURES
        assert codes([login(attacker, "bob", "bobs-real-password")]) == ["login_throttled"]

        assert codes([login(owner, "bob", "bobs-real-password")]) == [None]
        # The owner's success clears the owner's record only: the guesser stays refused.
        assert codes([login(attacker, "bob", "bobs-real-password")]) == ["login_throttled"]


def test_once_a_name_is_under_attack_each_new_address_gets_one_guess(queue: Queue) -> None:
    make_user(queue.url, "carol", "decide", password="carols-password")
    with from_address(queue.url, "203.0.113.8") as first, from_address(queue.url, "203.0.113.9") as second:
        for i in range(MAX_NAME_FAILURES):
            login(first, "carol", f"guess-{i}")
        assert codes([login(second, "carol", "wrong"), login(second, "carol", "carols-password")]) == [
            "login_failed",
            "login_throttled",
        ]


def test_an_address_that_fails_on_many_names_is_throttled_for_all(queue: Queue) -> None:
    make_user(queue.url, "dave", "decide", password="daves-password")
    with from_address(queue.url, "203.0.113.10") as sprayer, from_address(queue.url, "198.51.100.3") as other:
        failures = [login(sprayer, f"name{i}", "password1") for i in range(MAX_ADDRESS_FAILURES)]
        assert codes(failures) == ["login_failed"] * MAX_ADDRESS_FAILURES
        refused = login(sprayer, "dave", "daves-password")
        assert codes([refused]) == ["login_throttled_address"]
        assert "15" in refused.json()["error"]["message"]
        assert codes([login(other, "dave", "daves-password")]) == [None]


def test_passwords_are_hashed_off_the_event_loop(queue: Queue, monkeypatch: pytest.MonkeyPatch) -> None:
    make_user(queue.url, "erin", "decide", password="erins-password")
    seen: list[tuple[str, bool]] = []
    real = hashing._verify

    def watched(stored: str | None, password: str) -> tuple[bool, bool]:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        seen.append((threading.current_thread().name, on_loop))
        return real(stored, password)

    monkeypatch.setattr(hashing, "_verify", watched)
    with from_address(queue.url, "198.51.100.4") as client:
        assert codes([login(client, "erin", "erins-password"), login(client, "nobody", "x")]) == [
            None,
            "login_failed",
        ]
    assert len(seen) == 2
    assert all(name.startswith("argon2") and not on_loop for name, on_loop in seen), seen
