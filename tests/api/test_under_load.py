"""The issue's closing test: while 30 logins, 30 slow webhook senders and a validation of a large flow
are in flight against a real `flowyard serve` (worker included), `/healthz` and an authenticated read
answer 200, each within a generous bound. bench/api.py prints the latencies; this asserts outcomes."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.live import Live, dawdle, serve, unanswered
from tests.api.support import auth, make_user

LOGINS = 30
SLOW_SENDERS = 30
ROUNDS = 20
BOUND_S = 5.0  # generous: main stalled for 10 s and answered 500 after 30 s


def big_flow(nodes: int = 900) -> dict[str, Any]:
    """A valid chain of `nodes` log nodes behind a webhook trigger."""
    chain = [
        {"id": f"n{i}", "type": "log", "config": {"message": f"step {i} of {{{{trigger.id}}}}"}}
        for i in range(nodes)
    ]
    ids = ["start", *(node["id"] for node in chain)]
    return {
        "format": "flowyard.flow/1",
        "name": "big",
        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "webhook"}}, *chain],
        "wires": [{"from": a, "to": b} for a, b in itertools.pairwise(ids)],
    }


@pytest.fixture(scope="module")
def live(database_url: str) -> Iterator[Live]:
    with serve(database_url, FLOWYARD_BODY_TIMEOUT_S="600") as server:  # with its in-process worker
        yield server


async def under_load(live: Live, token: str, hook: str, document: dict[str, Any]) -> list[httpx.Response]:
    senders = [dawdle(live.port, "POST", hook, {}) for _ in range(SLOW_SENDERS)]
    try:
        async with (
            httpx.AsyncClient(base_url=live.base, timeout=120) as load,
            httpx.AsyncClient(base_url=live.base, timeout=BOUND_S) as probe,
        ):
            pressure = [
                asyncio.create_task(
                    load.post("/api/session", json={"name": f"nobody{i}", "password": "guess"})
                )
                for i in range(LOGINS)
            ]
            pressure.append(
                asyncio.create_task(load.post("/api/flows/validate", json=document, headers=auth(token)))
            )
            probes = []
            for _ in range(ROUNDS):
                probes.append(await probe.get("/healthz"))
                probes.append(await probe.get("/api/me", headers=auth(token)))
            assert all(unanswered(sender) for sender in senders), "the senders were in flight throughout"
            answers = await asyncio.gather(*pressure)
    finally:
        for sender in senders:
            sender.close()
    assert [a.status_code for a in answers] == [401] * LOGINS + [200]
    return probes


def test_health_and_reads_answer_while_logins_slow_senders_and_a_validation_are_in_flight(
    live: Live, database_url: str
) -> None:
    token = make_user(database_url, "watcher", "edit", "run")
    document = big_flow()
    with httpx.Client(base_url=live.base, headers=auth(token), timeout=60) as api:
        flow_id = api.post("/api/flows", json=big_flow(3)).json()["id"]
        hook = api.post(f"/api/flows/{flow_id}/webhook").json()["path"]
        assert api.post("/api/flows/validate", json=document).status_code == 200
    probes = asyncio.run(under_load(live, token, hook, document))
    assert [p.status_code for p in probes] == [200] * (2 * ROUNDS), [
        p.text for p in probes if p.status_code != 200
    ]
