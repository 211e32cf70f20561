"""The runs' event stream on a live server: a change reaches a stream of a user who may read the run,
and only such a stream; one LISTEN connection serves them all."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.live import serve
from tests.api.support import approval_and_delay_flow, auth, make_user


@pytest.fixture(scope="module")
def live(database_url: str) -> Iterator[str]:
    with serve(database_url, "--no-worker") as server:
        yield server.base


def events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    """(event, data) as the stream delivers them; pings (comments) are skipped."""
    name, data = "message", ""
    for line in response.iter_lines():
        if line.startswith(":"):
            continue
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif line == "" and data:
            yield name, json.loads(data)
            name, data = "message", ""


def listeners(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND query LIKE 'LISTEN flowyard_runs%'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_stream_hears_the_runs_its_user_may_read_and_no_others(live: str, database_url: str) -> None:
    owner = make_user(database_url, "owner", "edit", "run", "audit")
    with httpx.Client(base_url=live, timeout=30) as api:
        mine = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(owner)).json()["id"]
        other = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(owner)).json()["id"]
    watcher = make_user(database_url, "watcher", f"run:{mine}")
    streams = [
        httpx.Client(base_url=live, timeout=30).stream("GET", "/api/runs/stream", headers=auth(t))
        for t in (watcher, owner)
    ]
    with streams[0] as narrow, streams[1] as wide, httpx.Client(base_url=live, timeout=30) as api:
        assert narrow.status_code == 200 and narrow.headers["content-type"].startswith("text/event-stream")
        heard_narrow, heard_wide = events(narrow), events(wide)
        assert next(heard_narrow)[0] == "ready" and next(heard_wide)[0] == "ready"
        hidden = api.post(f"/api/flows/{other}/runs", json={"input": {}}, headers=auth(owner)).json()["run"]
        shown = api.post(f"/api/flows/{mine}/runs", json={"input": {}}, headers=auth(owner)).json()["run"]

        first = next(heard_narrow)
        assert first == ("run", {"run": shown, "flow": mine, "status": "waiting"}), (
            "the hidden run came first"
        )
        assert [next(heard_wide)[1]["run"] for _ in range(2)] == [hidden, shown]
        assert listeners(database_url) == 1, "one LISTEN connection for the process, not one per stream"


def test_a_stream_needs_a_token(live: str) -> None:
    with httpx.Client(base_url=live, timeout=30) as api:
        answer = api.get("/api/runs/stream")
    assert answer.status_code == 401
