"""A burst of logins: counted one after the other however many arrive at once, and a hashing queue with a
depth, past which a login is told the server is busy instead of waiting behind the burst."""

from __future__ import annotations

import asyncio
import queue as queues
import threading
from collections import Counter
from dataclasses import replace

import httpx
import pytest
from starlette.testclient import TestClient

from backend.api.app import create_app
from backend.people import hashing, logins
from backend.settings import Settings
from tests.api.live import serve
from tests.api.support import make_user

BURST = 60
SLOW_MACHINE_S = 600.0  # a login on a loaded 2-core machine once outlasted 10 s; this bounds a hang only


async def burst(base: str, name: str, passwords: list[str]) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=base, timeout=SLOW_MACHINE_S) as client:
        return await asyncio.gather(
            *(client.post("/api/session", json={"name": name, "password": p}) for p in passwords)
        )


def code_of(answer: httpx.Response) -> str | None:
    return None if answer.status_code == 201 else str(answer.json()["error"]["code"])


def test_sixty_logins_at_once_on_one_name_get_no_more_guesses_than_the_limit(database_url: str) -> None:
    make_user(database_url, "frank", "decide", password="franks-real-password")
    # A queue deep enough for the whole burst: here the count is what refuses, not the queue.
    with serve(database_url, FLOWYARD_LOGIN_QUEUE=str(BURST)) as live:
        answers = asyncio.run(burst(live.base, "frank", [f"guess-{i}" for i in range(BURST)]))
        assert Counter(code_of(a) for a in answers) == {
            "login_failed": logins.MAX_NAME_FAILURES,
            "login_throttled": BURST - logins.MAX_NAME_FAILURES,
        }
        assert {a.status_code for a in answers if code_of(a) == "login_throttled"} == {429}
        # The guesser who then tries the right password from the same address is refused too.
        [late] = asyncio.run(burst(live.base, "frank", ["franks-real-password"]))
        assert code_of(late) == "login_throttled"


def test_a_login_past_the_hashing_queue_is_told_the_server_is_busy(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user(database_url, "gina", "decide", password="ginas-password")
    release = threading.Event()
    real = hashing._verify

    def held(stored: str | None, password: str) -> tuple[bool, bool]:
        release.wait(SLOW_MACHINE_S)  # the one hasher is busy until the test has seen the refusals
        return real(stored, password)

    monkeypatch.setattr(hashing, "_verify", held)
    settings = replace(Settings.from_environment(), login_hashers=1, login_queue=1)
    answers: queues.Queue[httpx.Response] = queues.Queue()
    with TestClient(create_app(database_url, settings=settings), client=("198.51.100.20", 40000)) as client:

        def login(name: str) -> None:
            answers.put(client.post("/api/session", json={"name": name, "password": "guess"}))

        senders = [threading.Thread(target=login, args=(f"name{i}",)) for i in range(6)]
        for sender in senders:
            sender.start()
        try:
            # One hashing, one waiting behind it: the other four are answered while those two are held.
            early = [answers.get(timeout=SLOW_MACHINE_S) for _ in range(4)]
        finally:
            release.set()
            for sender in senders:
                sender.join(SLOW_MACHINE_S)
        late = [answers.get_nowait() for _ in range(2)]
        assert [(a.status_code, code_of(a)) for a in early] == [(429, "login_busy")] * 4
        assert "moment" in early[0].json()["error"]["message"]
        assert [code_of(a) for a in late] == ["login_failed"] * 2
        # With the hasher free again, a login goes in.
        owner = client.post("/api/session", json={"name": "gina", "password": "ginas-password"})
        assert owner.status_code == 201
