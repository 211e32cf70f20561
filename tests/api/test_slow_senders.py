"""Slow senders on every body-reading route hold no database connection: with more of them than the
API's pool has connections, `/healthz` and an authenticated read still answer, at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from backend.api.endpoint import ENDPOINTS
from tests.api.live import Live, dawdle, serve, unanswered
from tests.api.support import approval_and_delay_flow, auth, make_user

POOL_SIZE = 2
SENDERS_PER_ROUTE = POOL_SIZE + 1


@pytest.fixture(scope="module")
def live(database_url: str) -> Iterator[Live]:
    # A body deadline far longer than the test: only the pool's size can decide it.
    with serve(
        database_url, "--no-worker", FLOWYARD_API_POOL_SIZE=str(POOL_SIZE), FLOWYARD_BODY_TIMEOUT_S="600"
    ) as server:
        yield server


def body_routes(flow_id: int, secret_path: str) -> list[tuple[str, str]]:
    """(method, path) of every route that reads a body, its path parameters filled in."""
    values = {"flow_id": str(flow_id), "approval_id": "1", "run_id": "1", "version": "1", "name": "everyone"}
    values |= {"right": "edit", "token_id": "1", "locale": "en"}
    routes = [
        (ep.method, re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values[str(m[1])], ep.path))
        for ep in ENDPOINTS
        if ep.body is not None
    ]
    return [*routes, ("POST", secret_path)]


def test_slow_senders_on_every_body_route_leave_the_pool_free(live: Live, database_url: str) -> None:
    token = make_user(database_url, "everyone", "edit", "run", "decide", "audit", "admin")
    with httpx.Client(base_url=live.base, headers=auth(token), timeout=30) as api:
        document = approval_and_delay_flow()
        document["nodes"][0]["config"] = {"kind": "webhook"}
        flow_id = api.post("/api/flows", json=document).json()["id"]
        hook = api.post(f"/api/flows/{flow_id}/webhook").json()["path"]
    routes = body_routes(flow_id, hook)
    assert {"/api/session", "/api/flows/validate", hook} <= {path for _method, path in routes}

    senders = [
        dawdle(live.port, method, path, auth(token))
        for method, path in routes
        for _ in range(SENDERS_PER_ROUTE)
    ]
    try:
        # Several rounds, each bounded: a pool held by the senders would make these wait 30 s and fail.
        with httpx.Client(base_url=live.base, timeout=5) as probe:
            for _ in range(5):
                assert probe.get("/healthz").status_code == 200
                me = probe.get("/api/me", headers=auth(token))
                assert (me.status_code, me.json()["name"]) == (200, "everyone")
        # Every sender is still being waited for: the probes answered while all were mid-body.
        assert all(unanswered(sender) for sender in senders)
    finally:
        for sender in senders:
            sender.close()
